/// GStreamer 1.22 workaround, the decision part: positions that run ahead of the clock.
///
/// When a file's data runs out early (a file cut short), playbin3 answers the position query
/// with the end of the segment (the duration) until EOS arrives. That was not played: it must
/// not be ticked, nor taken as where playback got to. A reading further ahead of the last one
/// than the wall clock (× rate × 1.5, + 0.5 s) allows is refused; a lasting jump is believed as
/// time passes (the next reading is measured from the last believed one).
public struct RunAheadFilter: Sendable, Equatable {
    private var last: (position: Double, at: Double)?

    public init() {}

    public static func == (a: RunAheadFilter, b: RunAheadFilter) -> Bool { a.last?.position == b.last?.position && a.last?.at == b.last?.at }

    /// Whether to believe `position` read at `now` (seconds, monotonic) while playing at `rate`.
    /// Live items and reverse play are believed as they come.
    public mutating func believes(_ position: Double, at now: Double, rate: Double, live: Bool) -> Bool {
        if rate > 0, !live, let last, position - last.position > (now - last.at) * rate * 1.5 + 0.5 { return false }
        last = (position, now)
        return true
    }

    /// Forget the last reading (a seek, a new item).
    public mutating func reset() { last = nil }

    /// The last believed position, if any.
    public var lastPosition: Double? { last?.position }
}
