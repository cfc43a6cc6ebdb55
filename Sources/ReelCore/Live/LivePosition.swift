/// Where a live item's playback is, as events and properties report it (`LiveTimeline`).
public struct LivePosition: Sendable, Equatable {
    /// Seconds from the live window's start.
    public var position: Double
    /// The window on the same scale; its end is the live edge.
    public var window: ClosedRange<Double>
    public var behindLiveEdge: Double
    /// Wall-clock seconds since 1970 of the frame at `position`, nil without PROGRAM-DATE-TIME.
    public var epochTime: Double?
    /// Near enough the edge to call it live: within the safe distance and one target duration.
    public var isAtEdge: Bool

    public init(position: Double, window: ClosedRange<Double>, behindLiveEdge: Double, epochTime: Double?, isAtEdge: Bool = false) {
        self.position = position
        self.window = window
        self.behindLiveEdge = behindLiveEdge
        self.epochTime = epochTime
        self.isAtEdge = isAtEdge
    }
}
