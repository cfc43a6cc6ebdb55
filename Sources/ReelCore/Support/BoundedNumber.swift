/// Conversions of numbers that come from outside (a socket client, a playlist, a file, an HTTP
/// header) into the integer types the rest of Reel uses. Swift traps on an out-of-range
/// `Int(Double)` or an overflowing `+`; these answer nil (or clamp) instead, so that no number a
/// client or a playlist sends can stop the process.
public enum BoundedNumber {
    /// The longest time Reel seeks to or reports: about 31 years. Far beyond any real media, and
    /// small enough that its nanoseconds (GStreamer's unit) fit in an `Int64` with room to spare.
    public static let maximumSeconds: Double = 1e9

    /// `value` as an `Int`, when it is finite, whole and within `range`.
    public static func wholeNumber(_ value: Double, in range: ClosedRange<Int> = 0...Int(Int32.max)) -> Int? {
        guard value.isFinite, value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else { return nil }
        return Int(value)
    }

    /// Seconds clamped to [0, `maximumSeconds`]; nil for NaN or infinity.
    public static func seconds(_ value: Double) -> Double? {
        guard value.isFinite else { return nil }
        return min(max(0, value), maximumSeconds)
    }

    /// Seconds as whole nanoseconds (GStreamer's clock time), clamped to [0, `maximumSeconds`].
    public static func nanoseconds(_ value: Double) -> Int {
        Int((seconds(value) ?? 0) * 1e9)
    }

    /// Microseconds of `value` seconds (MPRIS's unit), rounded, clamped as `seconds(_:)` (0 for NaN).
    public static func microseconds(_ value: Double) -> Int {
        Int(((seconds(value) ?? 0) * 1e6).rounded())
    }

    /// Milliseconds of `value` seconds, rounded, clamped as `seconds(_:)` (0 for NaN).
    public static func milliseconds(_ value: Double) -> Int {
        Int(((seconds(value) ?? 0) * 1000).rounded())
    }

    /// The playback rates Reel plays at, by magnitude (forward or reverse), as mpv bounds its
    /// speed: 1/64 to 64. Keys, the socket, MPRIS and the engine all keep to it; outside it
    /// GStreamer's segment arithmetic overflows (1e-300 and 1e300 crashed inside playbin3).
    public static let rateMagnitude: ClosedRange<Double> = (1.0 / 64)...64

    /// Whether `rate` is a rate Reel plays at (finite, non-zero, within `rateMagnitude`).
    public static func isPlayableRate(_ rate: Double) -> Bool { rate.isFinite && rateMagnitude.contains(abs(rate)) }

    /// `rate` brought into `rateMagnitude`, sign kept; nil for 0 and NaN.
    public static func clampedRate(_ rate: Double) -> Double? {
        guard !rate.isNaN, rate != 0 else { return nil }
        let m = min(max(abs(rate), rateMagnitude.lowerBound), rateMagnitude.upperBound)
        return rate < 0 ? -m : m
    }

    /// `a + b` when it does not overflow.
    public static func sum(_ a: Int, _ b: Int) -> Int? {
        let (s, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : s
    }
}
