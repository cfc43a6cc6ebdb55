/// How subtitles look: one font for embedded and external ones, its size a factor of Reel's
/// default (`--sub-scale`, the `F`/`G` keys as in mpv), kept within 0.3…4. The overlay scales
/// the font with the picture's width (textoverlay's auto-resize), so the size is relative.
public enum SubtitleStyle {
    public static let scaleRange = 0.3...4.0
    /// One press of `F` or `G`.
    public static let scaleStep = 0.1

    public static func clampedScale(_ scale: Double) -> Double {
        guard scale.isFinite else { return 1 }
        return min(scaleRange.upperBound, max(scaleRange.lowerBound, (scale * 100).rounded() / 100))
    }

    /// Pango's font description for a size factor: "Sans Bold 18" at 1.
    public static func fontDescription(scale: Double) -> String {
        "Sans Bold \(max(1, Int((18 * clampedScale(scale)).rounded())))"
    }
}
