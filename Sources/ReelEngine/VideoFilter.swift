import CGStreamer
import CReelFrame
import ReelCore

/// playbin3's video filter, one per pipeline (`Player.replacePipeline`): the picture controls
/// (`videobalance`, `gamma`: `PictureControls`), the picture turned
/// upright (`videoflip`, by the file's orientation tag), the aspect modes' elements
/// (`AspectFilter`, windows only) then the external subtitles' text overlay (`SubtitleOverlay`),
/// so that a turned or cropped picture still shows its subtitles upright. A part is left out when
/// not wanted or when its plugin is missing.
final class VideoFilter {
    let bin: UnsafeMutablePointer<GstElement>
    let aspect: AspectFilter?
    let subtitles: SubtitleOverlay?
    /// The secondary subtitles' overlay, at the top (when the pipeline was built with it).
    let secondarySubtitles: SubtitleOverlay?
    /// The `videoflip` that turns the picture upright (nil when its plugin is missing).
    private let orientation: UnsafeMutablePointer<GstElement>?
    /// The user's zoom and pan (`videobox`, after the user's rotation): the picture as shown.
    private let transform: UnsafeMutablePointer<GstElement>?
    /// The picture fitted to the window's video area (`videoscale ! capsfilter`, last), for a
    /// sink that cannot scale (ximagesink): scaled once, in the decoder's format, so playsink's
    /// converter converts the window-sized picture and its scaler passes it through (before, it
    /// converted every 1080p frame to BGRx, then scaled that: three 1080p BGRx frames in its
    /// queue, 10 MB of peak RSS). nil when the sink scales (XVideo, GL, Wayland) or headless.
    private let fitScale: UnsafeMutablePointer<GstElement>?
    private let fitCaps: UnsafeMutablePointer<GstElement>?
    private var fitSize: (width: Int, height: Int)?

    init?(aspectModes: Bool, subtitleOverlay: Bool, topOverlay: Bool = false, fitsToWindow: Bool = false) {
        // Pictures stored turned (a phone's portrait video) are shown upright, by each stream's
        // `image-orientation` tag; a picture with none passes through untouched.
        // The picture controls first (mpv's equalizer: the video only, never the subtitles),
        // untouched frames passed through (both elements are passthrough at their defaults).
        var parts: [(description: String, first: String, pad: String, last: String)] = [
            ("videobalance name=reel-balance ! gamma name=reel-gamma", "reel-balance", "sink", "reel-gamma"),
            ("videoflip name=reel-orientation", "reel-orientation", "sink", "reel-orientation"),
            // The user's rotation, zoom and pan (`VideoTransform`), after the file's own turn.
            ("videoflip name=reel-rotate ! videobox name=reel-zoom ! capsfilter name=reel-zoom-format", "reel-rotate", "sink", "reel-zoom-format"),
        ]
        if aspectModes {
            parts.append(("aspectratiocrop name=reel-crop ! capssetter name=reel-par join=true replace=false", "reel-crop", "sink", "reel-par"))
        }
        if subtitleOverlay { parts.append(("textoverlay name=reel-subs", "reel-subs", "video_sink", "reel-subs")) }
        // The secondary subtitles (mpv's `secondary-sid`), at the top: only once they are asked for.
        if subtitleOverlay, topOverlay { parts.append(("textoverlay name=reel-subs2", "reel-subs2", "video_sink", "reel-subs2")) }
        // Passthrough until a window size is given (`fit`): the caps are ANY.
        if fitsToWindow { parts.append(("videoscale name=reel-fit-scale add-borders=true ! capsfilter name=reel-fit", "reel-fit-scale", "sink", "reel-fit")) }
        // A part whose plugin is missing is dropped; the others still work.
        var built: UnsafeMutablePointer<GstElement>?
        while built == nil, !parts.isEmpty {
            var error: UnsafeMutablePointer<GError>?
            built = reel_parse_filter_bin(parts.map(\.description).joined(separator: " ! "), parts[0].first, parts[0].pad, parts[parts.count - 1].last, &error)
            if let error { g_error_free(error) }
            if built == nil {
                let usable = parts.filter { part in
                    var e: UnsafeMutablePointer<GError>?
                    defer { if let e { g_error_free(e) } }
                    guard let b = reel_parse_filter_bin(part.description, part.first, part.pad, part.last, &e) else { return false }
                    gst_object_unref(b)
                    return true
                }
                if usable.count == parts.count { return nil }
                parts = usable
            }
        }
        guard let built else { return nil }
        bin = built
        aspect = AspectFilter(in: built)
        orientation = reel_bin_get_by_name(built, "reel-orientation")
        transform = reel_bin_get_by_name(built, "reel-zoom")
        fitScale = reel_bin_get_by_name(built, "reel-fit-scale")
        fitCaps = reel_bin_get_by_name(built, "reel-fit")
        // Each stream turned by its own tag, untouched ones passed through without a copy
        // (`reel_video_flip_follow_streams`: two faults of videoflip's own `auto`).
        if let orientation { reel_video_flip_follow_streams(orientation) }
        if let rotate = reel_bin_get_by_name(built, "reel-rotate") {
            reel_video_flip_pass_untouched(rotate)
            gst_object_unref(rotate)
        }
        // The user's box is changed between frames, never under one (`reel_video_box.h`).
        if let transform { reel_video_box_follow_requests(transform) }
        // …and passes untouched frames through: its output in its input's format.
        if let transform, let format = reel_bin_get_by_name(built, "reel-zoom-format") {
            reel_video_box_keep_format(transform, format)
            gst_object_unref(format)
        }
        subtitles = reel_bin_get_by_name(built, "reel-subs").map { element in
            defer { gst_object_unref(element) }
            return SubtitleOverlay(element: element)
        }
        self.secondarySubtitles = reel_bin_get_by_name(built, "reel-subs2").map { element in
            defer { gst_object_unref(element) }
            return SubtitleOverlay(element: element, atTop: true)
        }
    }

    /// The frames `videoflip` gives downstream (the picture turned upright): their size in
    /// pixels and their pixel aspect ratio. nil before the first frame is negotiated.
    /// The stream collection's tags may not hold the orientation yet when it is posted (seen on
    /// a loaded machine): these caps are what the sink gets, whenever the tag arrived.
    private var turnedFrames: (width: Int, height: Int, parN: UInt64, parD: UInt64)? { frames(leaving: transform ?? orientation) }

    /// The frames the file's own turn gives (before the user's rotation, zoom and pan): what
    /// `VideoTransform` computes its box from.
    var orientedPixelSize: (width: Int, height: Int)? { frames(leaving: orientation).map { ($0.width, $0.height) } }

    private func frames(leaving element: UnsafeMutablePointer<GstElement>?) -> (width: Int, height: Int, parN: UInt64, parD: UInt64)? {
        guard let element else { return nil }
        var info = GstVideoInfo()
        guard reel_pad_video_info(element, "src", &info) != 0, info.width > 0, info.height > 0 else { return nil }
        let par: (UInt64, UInt64) = info.par_n > 0 && info.par_d > 0 ? (UInt64(info.par_n), UInt64(info.par_d)) : (1, 1)
        return (Int(info.width), Int(info.height), par.0, par.1)
    }

    /// The turned picture's size in pixels (whatever its pixel aspect ratio; after the user's
    /// rotation, zoom and pan): what the stretch
    /// mode's pixel aspect ratio is computed from.
    var turnedPixelSize: (width: Int, height: Int)? { turnedFrames.map { ($0.width, $0.height) } }

    /// The turned picture in square pixels: what frame captures are encoded at.
    var turnedPictureSize: (width: Int, height: Int)? {
        turnedFrames.map { f in (Int((UInt64(f.width) * f.parN + f.parD / 2) / f.parD), f.height) }
    }

    /// Where the picture as shown leaves the filter, before it is fitted to a window: what frame
    /// captures take (their size is the picture's, whatever the window's).
    var pictureOutput: (element: UnsafeMutablePointer<GstElement>, pad: String) {
        if let fitScale { return (fitScale, "sink") }
        return (bin, "src")
    }

    /// Scales the picture to `width`×`height` device pixels (the video area; black borders keep
    /// its aspect). A change renegotiates at the next frame.
    func fit(width: Int, height: Int) {
        guard let fitCaps, width > 0, height > 0, fitSize.map({ $0 != (width, height) }) ?? true else { return }
        fitSize = (width, height)
        reel_set_caps_string(fitCaps, "caps", "video/x-raw,width=\(width),height=\(height),pixel-aspect-ratio=1/1")
    }

    deinit {
        if let fitScale { gst_object_unref(fitScale) }
        if let fitCaps { gst_object_unref(fitCaps) }
        if let orientation { gst_object_unref(orientation) }
        if let transform { gst_object_unref(transform) }
        gst_object_unref(bin)
    }
}
