import CGStreamer
import ReelCore

/// The aspect modes' part of the video filter (`VideoFilter`): `aspectratiocrop` (fill: the
/// picture cropped to the area's shape) then `capssetter` (stretch: a pixel aspect ratio that
/// gives the picture the area's shape). In fit mode both pass the picture through untouched.
/// This keeps references to the two elements to set them.
final class AspectFilter {
    private let crop: UnsafeMutablePointer<GstElement>
    private let setter: UnsafeMutablePointer<GstElement>

    /// The two elements of `filter` (`VideoFilter`), nil when it has none.
    init?(in filter: UnsafeMutablePointer<GstElement>) {
        guard let crop = reel_bin_get_by_name(filter, "reel-crop") else { return nil }
        guard let setter = reel_bin_get_by_name(filter, "reel-par") else {
            gst_object_unref(crop)
            return nil
        }
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
    }
}
