/// How the subtitles are shown, as the user adjusts them while watching (mpv's `sub-scale`,
/// `sub-delay`, `sub-pos`): kept for the session, applied to every item.
public struct SubtitleAdjustments: Sendable, Equatable {
    /// The size factor (`SubtitleStyle.scaleRange`; `F`/`G`).
    public var scale = 1.0
    /// Seconds later than their times (negative: earlier; `z`/`Z`).
    public var delay = 0.0
    /// 0 top … 100 bottom (the default) … 150 (`r`/`R`).
    public var position = SubtitleStyle.defaultPosition

    public init(scale: Double = 1, delay: Double = 0, position: Int = SubtitleStyle.defaultPosition) {
        self.scale = SubtitleStyle.clampedScale(scale)
        self.delay = SubtitleStyle.clampedDelay(delay)
        self.position = SubtitleStyle.clampedPosition(position)
    }
}
