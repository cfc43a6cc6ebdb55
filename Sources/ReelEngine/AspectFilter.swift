import CGStreamer
import ReelCore

/// playbin3's video filter for the aspect modes: `aspectratiocrop` (fill: the picture cropped to
/// the area's shape) then `capssetter` (stretch: a pixel aspect ratio that gives the picture the
/// area's shape). In fit mode both pass the picture through untouched. Each pipeline gets its own
/// (`Player.replacePipeline`); this keeps references to the two elements to set them.
final class AspectFilter {
    let bin: UnsafeMutablePointer<GstElement>
    private let crop: UnsafeMutablePointer<GstElement>
    private let setter: UnsafeMutablePointer<GstElement>

    /// nil when gst-plugins-good's aspectratiocrop or capssetter is missing (the picture is then
    /// always fitted).
    init?() {
        var error: UnsafeMutablePointer<GError>?
        guard let bin = reel_parse_bin("aspectratiocrop name=reel-crop ! capssetter name=reel-par join=true replace=false", &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        guard let crop = reel_bin_get_by_name(bin, "reel-crop"), let setter = reel_bin_get_by_name(bin, "reel-par") else {
            gst_object_unref(bin)
            return nil
        }
        self.bin = bin
        self.crop = crop
        self.setter = setter
    }

    /// Sets both elements for `mode` in an area of `area` pixels showing a `video`-sized picture;
    /// they renegotiate with the next frame.
    func apply(_ mode: AspectMode, area: (width: Int, height: Int)?, video: (width: Int, height: Int)?) {
        let crop = area.flatMap { mode.crop(areaWidth: $0.width, areaHeight: $0.height) } ?? AspectMode.Ratio(0, 1)
        reel_set_fraction(self.crop, "aspect-ratio", Int32(crop.numerator), Int32(crop.denominator))
        var caps = "video/x-raw"
        if let area, let video, let par = mode.stretchedPixelAspect(width: video.width, height: video.height,
                                                                    areaWidth: area.width, areaHeight: area.height) {
            caps += ",pixel-aspect-ratio=(fraction)\(par.numerator)/\(par.denominator)"
        }
        _ = reel_set_caps_string(setter, "caps", caps)
    }

    deinit {
        gst_object_unref(crop)
        gst_object_unref(setter)
        gst_object_unref(bin)
    }
}
