import Foundation

/// Positions of a live item on the scale users see: seconds from the start of the live window
/// (the seekable range's start; what AVPlayer's currentTime is within its seekable range). The
/// engine's stream time (hlsdemux2's: 0 at the first segment of the first playlist it loaded)
/// maps onto it through the stream time of the window's first segment, which is where
/// hlsdemux2's seekable range starts. The live edge is the end of the newest segment, not
/// hlsdemux2's seekable end (which stops short of it).
///
/// Between two refreshes of the playlist the window moves on in real time: the edge by the time
/// since the playlist was read (at most a target duration, when the next one is due), and, for a
/// window that slides (its first segment moved at the last refresh), its start by as much. So a
/// position playing along keeps its place instead of jumping back a segment at every refresh.
public struct LiveTimeline: Sendable, Equatable {
    public var snapshot: LiveWindowSnapshot
    /// The stream time of the window's first segment.
    public var windowStartStreamTime: Double
    /// Seconds since the playlist was read, at most a target duration.
    public var sinceRefresh: Double
    /// The window's start moves with its edge (a sliding window; not an event or a restart).
    public var slides: Bool
    /// Seconds added to every PROGRAM-DATE-TIME (`--clock-at`: the clock rebased), 0 otherwise.
    public var epochShift = 0.0
    /// Seconds a sliding window has moved on past the last playlist beyond a target duration,
    /// counted while the pipeline is paused (the engine may stop refreshing a paused stream, and the
    /// origin's window slides on regardless): the position moves back by as much, the edge and
    /// the window's length stay. 0 while playing (a late refresh there is a slow origin).
    public var heldSlide = 0.0

    public init(snapshot: LiveWindowSnapshot, windowStartStreamTime: Double, now: Date? = nil, slides: Bool = false) {
        self.snapshot = snapshot
        self.windowStartStreamTime = windowStartStreamTime
        let elapsed = now.map { $0.timeIntervalSince(snapshot.receivedAt) } ?? 0
        sinceRefresh = min(max(0, elapsed), max(0, snapshot.targetDuration))
        self.slides = slides
    }

    /// How far the window's start has moved since the playlist was read.
    private var shift: Double { slides ? sinceRefresh + heldSlide : 0 }

    /// The window on the position scale: 0 … the live edge.
    public var window: ClosedRange<Double> { 0...max(0, edge) }
    public var edge: Double { snapshot.duration + sinceRefresh - shift + heldSlide }

    public func position(stream: Double) -> Double { stream - windowStartStreamTime - shift }
    public func stream(position: Double) -> Double { position + windowStartStreamTime + shift }

    public func behindLiveEdge(stream: Double) -> Double { max(0, edge - position(stream: stream)) }

    /// Wall-clock seconds since 1970 of the media at `stream` time, from PROGRAM-DATE-TIME.
    public func epochTime(stream: Double) -> Double? { snapshot.date(at: stream - windowStartStreamTime).map { $0.timeIntervalSince1970 + epochShift } }

    /// Where "go live" goes: the safe distance from the edge.
    public var liveTarget: Double { max(0, edge - snapshot.safeDistance.seconds) }

    /// A seek target clamped to what can be played: the window, up to the live target.
    public func clamp(_ position: Double) -> Double { min(max(0, position), liveTarget) }

    /// Whether playback at `stream` time has fallen out of the window (paused longer than it).
    public func hasFallenOut(stream: Double) -> Bool { position(stream: stream) < -0.25 }

    /// The report for an event or a property.
    public func report(stream: Double) -> LivePosition {
        let behind = behindLiveEdge(stream: stream)
        return LivePosition(position: position(stream: stream), window: window, behindLiveEdge: behind, epochTime: epochTime(stream: stream),
                            isAtEdge: behind <= snapshot.safeDistance.seconds + snapshot.targetDuration + 0.25)
    }
}
