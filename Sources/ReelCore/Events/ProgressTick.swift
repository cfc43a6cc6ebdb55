/// Which cadence a progress report belongs to. A `.tenSeconds` tick is also a second tick.
public enum ProgressTick: String, Sendable, Codable {
    /// The UI interval (100–250 ms).
    case fine
    /// Every whole second of media time crossed.
    case second
    /// Every ten seconds of media time crossed.
    case tenSeconds
}

/// Turns sampled positions into progress reports: only while time advances, monotonic between
/// seeks, with 1 s and 10 s ticks when those boundaries of media time are crossed (in either
/// direction of playback for negative rates).
public struct ProgressTicker: Sendable {
    public private(set) var last: Double?
    private var direction: Double = 1

    public init() {}

    /// Forget the last position (after a seek, a new item or a rate change of sign).
    public mutating func reset(at position: Double? = nil, direction: Double = 1) {
        last = position
        self.direction = direction < 0 ? -1 : 1
    }

    /// The ticks for a new sample; empty when time did not advance (or went the wrong way).
    public mutating func advance(to position: Double) -> [ProgressTick] {
        guard position.isFinite else { return [] }
        guard let previous = last else {
            last = position
            return [.fine]
        }
        let moved = (position - previous) * direction
        guard moved > 0.000_5 else { return [] }
        last = position
        var ticks: [ProgressTick] = [.fine]
        let a = (previous * direction).rounded(.down), b = (position * direction).rounded(.down)
        if a != b { ticks.append(.second) }
        if ((previous * direction) / 10).rounded(.down) != ((position * direction) / 10).rounded(.down) { ticks.append(.tenSeconds) }
        return ticks
    }
}
