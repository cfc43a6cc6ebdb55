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

    /// The subtitle delay's bounds (seconds; `--sub-delay`, `z`/`Z` by `delayStep` as in mpv).
    /// Positive: subtitles come later.
    public static let delayRange = -600.0...600.0
    public static let delayStep = 0.1

    public static func clampedDelay(_ delay: Double) -> Double {
        guard delay.isFinite else { return 0 }
        return min(delayRange.upperBound, max(delayRange.lowerBound, (delay * 1000).rounded() / 1000))
    }

    /// The subtitles' vertical position, mpv's `sub-pos`: 0 is the top of the picture, 100 (the
    /// default) its bottom, up to 150 below it; `r`/`R` move it by 1.
    public static let positionRange = 0...150
    public static let defaultPosition = 100

    public static func clampedPosition(_ position: Int) -> Int {
        min(positionRange.upperBound, max(positionRange.lowerBound, position))
    }

    /// Pango's font description for a size factor: "Sans Bold 18" at 1.
    public static func fontDescription(scale: Double) -> String {
        "Sans Bold \(max(1, Int((18 * clampedScale(scale)).rounded())))"
    }
}
