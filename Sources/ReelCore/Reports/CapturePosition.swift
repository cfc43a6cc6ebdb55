import Foundation

/// Where to capture a frame: a time in seconds, or a percentage of the duration.
/// Parsed from `--at 10%,50%,90%`, `--at 1.5,0:05`, and the IPC.
public enum CapturePosition: Sendable, Equatable, CustomStringConvertible {
    case seconds(Double)
    case percent(Double)

    public static let defaults: [CapturePosition] = [.percent(10), .percent(50), .percent(90)]

    /// "10%", "12.5 %", "90", "1:30", "0:00:05.5"; nil when malformed or out of range (percent 0–100).
    public static func parse(_ text: String) -> CapturePosition? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("%") {
            guard let p = Double(t.dropLast().trimmingCharacters(in: .whitespaces)), p.isFinite, (0...100).contains(p) else { return nil }
            return .percent(p)
        }
        return TimeFormat.parse(t).map { .seconds($0) }
    }

    /// A comma-separated list; nil when any element is malformed or the list is empty.
    public static func parseList(_ text: String) -> [CapturePosition]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty else { return nil }
        var out: [CapturePosition] = []
        for p in parts {
            guard let v = parse(p) else { return nil }
            out.append(v)
        }
        return out
    }

    /// The time to seek to for an item of `duration` seconds (nil: unknown, e.g. live). Percentages
    /// need a duration. The result stays inside the item: at most `duration - lastFrameMargin`,
    /// because seeking to the very end gives no frame.
    public func resolve(duration: Double?, lastFrameMargin: Double = 0.05) -> Double? {
        switch self {
        case .seconds(let s):
            guard let duration, duration > 0 else { return s }
            return min(s, max(0, duration - lastFrameMargin))
        case .percent(let p):
            guard let duration, duration > 0, duration.isFinite else { return nil }
            return min(duration * p / 100, max(0, duration - lastFrameMargin))
        }
    }

    /// As written on the command line: "10%" or "1.5".
    public var description: String {
        switch self {
        case .seconds(let s): BoundedNumber.wholeNumber(s, in: 0...Int.max / 2).map(String.init) ?? String(s)
        case .percent(let p): (BoundedNumber.wholeNumber(p, in: 0...Int.max / 2).map(String.init) ?? String(p)) + "%"
        }
    }
}
