/// mpv's A-B loop (`ab-loop-a`, `ab-loop-b`, the `l` key): between two points of the current
/// item, playback goes back to A whenever it reaches B. `l` cycles: A at the position, then B at
/// the position, then neither. Pure; the engine's `ABLoopFeature` applies it at every tick.
public struct ABLoop: Equatable, Sendable {
    public var a: Double?
    public var b: Double?

    public init(a: Double? = nil, b: Double? = nil) { self.a = a; self.b = b }

    /// Both points are set, in either order (mpv loops between them as given when A < B; a B
    /// before A is taken the other way round).
    /// Shorter than `minimumLength` it is no loop (1 ms between A and B was a seek at every tick).
    public var range: ClosedRange<Double>? {
        guard let a, let b, abs(a - b) >= Self.minimumLength else { return nil }
        return min(a, b)...max(a, b)
    }

    /// The shortest A-B loop played, in seconds (a few frames).
    public static let minimumLength = 0.1

    /// `l` at `position`: A first, then B, then cleared.
    public mutating func cycle(at position: Double) {
        switch (a, b) {
        case (nil, _): a = position; b = nil
        case (.some, nil): b = position
        default: a = nil; b = nil
        }
    }

    /// Where playback at `position` goes back to (the loop's start), nil when it plays on. A
    /// position past B by more than `slack` is a seek the user made out of the loop: left alone.
    public func jump(from position: Double, slack: Double = 1.0) -> Double? {
        guard let range else { return nil }
        return position >= range.upperBound && position < range.upperBound + slack ? range.lowerBound : nil
    }
}
