/// GStreamer 1.22 workaround, the decision part: an item that stopped at its very end without
/// EOS (ReelEngine's `EndStallWatchdog` feature acts on it).
///
/// The bug: when the next URI, taken at about-to-finish, fails to open (an HTTP 404, about one
/// run in twenty), playbin3 can stop at the end of the current item and post neither EOS nor an
/// error: its streaming threads wait for a switch that never comes. Playing (not buffering, not
/// live, forward) within the last half second of a known duration without moving for `timeout`
/// seconds counts as the item's end.
public struct EndStallWatch: Sendable, Equatable {
    /// Where the position sat, and since when (seconds on any monotonic clock).
    public private(set) var sitting: (position: Double, since: Double)?

    public init() {}

    public static func == (a: EndStallWatch, b: EndStallWatch) -> Bool {
        a.sitting?.position == b.sitting?.position && a.sitting?.since == b.sitting?.since
    }

    /// Feeds one reading; returns true when the item has stalled at its end (the watch resets).
    /// `eligible`: playing forward, not buffering, not live.
    public mutating func observe(position: Double, duration: Double?, now: Double, timeout: Double, eligible: Bool) -> Bool {
        guard timeout > 0, eligible, let duration, position >= duration - 0.5 else { sitting = nil; return false }
        guard let s = sitting, abs(s.position - position) < 0.001 else {
            sitting = (position, now)
            return false
        }
        guard now - s.since >= timeout else { return false }
        sitting = nil
        return true
    }

    public mutating func reset() { sitting = nil }

    /// Sat still near the end for more than `seconds` (a quit before the watch fires must not take
    /// such a pipeline to NULL either).
    public func hasSatStill(longerThan seconds: Double, now: Double) -> Bool {
        sitting.map { now - $0.since > seconds } ?? false
    }
}
