import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// GStreamer 1.22 workaround, the decision part: an AdaptationSet's `contentType` wins over a
/// `mimeType` that says otherwise, for the ISO BMFF and WebM types that have both forms.
///
/// dashdemux2 types a stream by the top-level type of its `mimeType` alone
/// (`gst_mpdparser2_representation_get_mimetype`). GStreamer's own dashsink (1.22, `muxer=mp4`)
/// writes `mimeType="video/mp4"` on its audio Representation (`contentType="audio"`): the audio
/// became a video track, its parsed output was not linked, the stream stopped, and buffering
/// waited at 0 % for ever. ISO/IEC 23009-1 §5.3.3.2 makes `@contentType` the media content
/// component type; `audio/mp4` and `video/mp4` (and `…/webm`) are the same container. MPEG-TS has
/// one MIME type (`video/mp2t`) for both and is left alone (see `StuckBuffering`).
public enum DASHMimeTypeRepair {
    static let containers: Set<String> = ["mp4", "webm"]

    /// Edits the AdaptationSets under `root` in place; the number of `mimeType`s changed.
    @discardableResult
    public static func apply(to root: XMLElement) -> Int {
        var changed = 0
        for period in DASHInspection.children(root, "Period") {
            for set in DASHInspection.children(period, "AdaptationSet") {
                guard let content = DASHInspection.attribute(set, "contentType"), content == "audio" || content == "video" else { continue }
                for element in [set] + DASHInspection.children(set, "Representation") {
                    guard let attribute = DASHManifestRewriter.attribute(element, "mimeType"), let mime = attribute.stringValue else { continue }
                    let parts = mime.split(separator: "/", maxSplits: 1).map(String.init)
                    guard parts.count == 2, parts[0] != content, parts[0] == "audio" || parts[0] == "video",
                          containers.contains(parts[1].lowercased()) else { continue }
                    attribute.stringValue = content + "/" + parts[1]
                    changed += 1
                }
            }
        }
        return changed
    }
}
