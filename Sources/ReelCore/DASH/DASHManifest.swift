import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What Reel reads of a DASH MPD besides the rewrite: the video Representations of its first
/// Period, as renditions for the quality choice (`renditions`, `--quality`, the menu, Reel's rule),
/// in the MPD's order. A Representation's `@bandwidth` is the only rate DASH gives and what
/// dashdemux2 compares its bitrate properties with, so it is both scales at once
/// (`DemuxerBitrateWindow`). Attributes an AdaptationSet gives its Representations (`width`,
/// `height`, `frameRate`, `codecs`, `mimeType`, `contentType`) are inherited (§5.3.7).
public enum DASHManifest {
    /// A URI whose path ends in `.mpd`.
    public static func isDASH(_ uri: String) -> Bool {
        let path = URL(string: uri)?.path.lowercased() ?? uri.lowercased()
        return path.hasSuffix(".mpd")
    }

    /// The video renditions (`uri` is the Representation's `@id`); empty when none or not an MPD.
    public static func videoRenditions(_ text: String) -> [HLSVariant] {
        guard let document = try? MPDDocument.parse(text), let root = document.rootElement(), root.localName == "MPD",
              let period = children(root, "Period").first else { return [] }
        var renditions: [HLSVariant] = []
        for set in children(period, "AdaptationSet") {
            for rep in children(set, "Representation") {
                func value(_ name: String) -> String? { DASHManifestRewriter.attribute(rep, name)?.stringValue ?? DASHManifestRewriter.attribute(set, name)?.stringValue }
                let mime = value("mimeType") ?? "", content = value("contentType") ?? ""
                let width = value("width").flatMap(Int.init), height = value("height").flatMap(Int.init)
                guard mime.hasPrefix("video/") || content == "video" || (width != nil && height != nil) else { continue }
                guard let bandwidth = value("bandwidth").flatMap(Int.init), bandwidth > 0 else { continue }
                let resolution = width.flatMap { w in height.map { HLSResolution(width: w, height: $0) } }
                renditions.append(HLSVariant(uri: value("id") ?? "\(renditions.count)", bandwidth: bandwidth, resolution: resolution,
                                             codecs: value("codecs").map { [$0] } ?? [], frameRate: value("frameRate").flatMap(frameRate)))
            }
        }
        return renditions
    }

    /// "30", "30000/1001".
    static func frameRate(_ text: String) -> Double? {
        let parts = text.split(separator: "/")
        guard let n = parts.first.flatMap({ Double($0) }) else { return nil }
        if parts.count == 2, let d = Double(parts[1]), d > 0 { return n / d }
        return n
    }

    private static func children(_ element: XMLElement, _ name: String) -> [XMLElement] {
        (element.children ?? []).compactMap { $0 as? XMLElement }.filter { $0.localName == name }
    }
}
