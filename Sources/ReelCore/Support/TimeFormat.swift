import Foundation

/// Formats media times for people ("1:02:03", "4:05") and for files ("00h01m02s500").
public enum TimeFormat {
    /// Larger times are shown as this (about 31 million years): beyond it Int conversion traps.
    static let maxSeconds = 1e15

    /// Clock form: `m:ss` under an hour, `h:mm:ss` from an hour on; negative values get a leading
    /// minus; unknown (nil, NaN, infinite) is `--:--`.
    public static func clock(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "--:--" }
        let negative = seconds < 0
        let total = Int(min(abs(seconds), maxSeconds).rounded(.down))  // no trap on huge values (found by fuzzing)
        let h = total / 3600, m = (total % 3600) / 60, s = total % 60
        let body = h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
        return negative ? "-" + body : body
    }

    /// Wall-clock time of day, `HH:MM:SS`, in `zone` (the machine's by default), for a live
    /// item's PROGRAM-DATE-TIME; `--:--:--` for an unusable value.
    public static func timeOfDay(_ epoch: Double, zone: TimeZone = .current) -> String {
        guard epoch.isFinite, abs(epoch) < 1e12 else { return "--:--:--" }
        let local = Int((epoch + Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: epoch)))).rounded(.down))
        let day = ((local % 86_400) + 86_400) % 86_400
        return String(format: "%02d:%02d:%02d", day / 3600, day / 60 % 60, day % 60)
    }

    /// How far behind the live edge, as the LIVE badge says it: `−0:25` (a true minus sign).
    public static func behindEdge(_ seconds: Double) -> String { "\u{2212}" + clock(max(0, seconds)) }

    /// Remaining time as shown under a seek bar: `-m:ss`.
    public static func remaining(position: Double, duration: Double?) -> String {
        guard let duration, duration.isFinite, duration > 0 else { return "--:--" }
        return "-" + clock(max(0, duration - position))
    }

    /// A file-name-safe position: `00h01m02s500` (milliseconds last).
    public static func fileStamp(_ seconds: Double) -> String {
        let ms = Int((min(seconds.isFinite ? max(0, seconds) : 0, maxSeconds) * 1000).rounded())
        return String(format: "%02dh%02dm%02ds%03d", ms / 3_600_000, (ms / 60_000) % 60, (ms / 1000) % 60, ms % 1000)
    }

    /// Parses "90", "1:30", "01:02:03.5" into seconds; nil when malformed.
    public static func parse(_ text: String) -> Double? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (i, part) in parts.enumerated() {
            guard let v = Double(part), v >= 0, v.isFinite else { return nil }
            if i < parts.count - 1 && v != v.rounded() { return nil }
            total = total * 60 + v
        }
        return total
    }
}
