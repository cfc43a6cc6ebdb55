import Foundation

/// ISO 8601 date-times as `--program-start` and `#EXT-X-PROGRAM-DATE-TIME` write them:
/// `2026-11-24T20:00:00Z`, `…T20:00:00.250+01:00`. A zone (or `Z`) is required: a time without
/// one means a different instant on every machine.
public enum ProgramDate {
    /// The instant, or nil when the text is not a date-time with a zone.
    public static func parse(_ text: String) -> Date? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let scalars = Array(t.utf8)
        guard scalars.count >= 20 else { return nil }
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= scalars.count else { return nil }
            var v = 0
            for b in scalars[from..<from + count] {
                guard b >= 48, b <= 57 else { return nil }
                v = v * 10 + Int(b - 48)
            }
            return v
        }
        guard let year = digits(0, 4), scalars[4] == UInt8(ascii: "-"), let month = digits(5, 2), scalars[7] == UInt8(ascii: "-"),
              let day = digits(8, 2), scalars[10] == UInt8(ascii: "T") || scalars[10] == UInt8(ascii: "t") || scalars[10] == UInt8(ascii: " "),
              let hour = digits(11, 2), scalars[13] == UInt8(ascii: ":"), let minute = digits(14, 2), scalars[16] == UInt8(ascii: ":"),
              let second = digits(17, 2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        var i = 19
        var fraction = 0.0
        if i < scalars.count, scalars[i] == UInt8(ascii: ".") || scalars[i] == UInt8(ascii: ",") {
            i += 1
            var scale = 0.1
            let start = i
            while i < scalars.count, scalars[i] >= 48, scalars[i] <= 57 {
                fraction += Double(scalars[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        guard i < scalars.count else { return nil }  // no zone
        var offset = 0
        switch scalars[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard i + 1 == scalars.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = scalars[i] == UInt8(ascii: "+") ? 1 : -1
            guard let h = digits(i + 1, 2) else { return nil }
            var m = 0
            if i + 3 == scalars.count {
                m = 0
            } else if i + 6 == scalars.count, scalars[i + 3] == UInt8(ascii: ":"), let mm = digits(i + 4, 2) {
                m = mm
            } else if i + 5 == scalars.count, let mm = digits(i + 3, 2) {
                m = mm
            } else {
                return nil
            }
            guard h < 24, m < 60 else { return nil }
            offset = sign * (h * 3600 + m * 60)
        default:
            return nil
        }
        // Days since 1970-01-01 (proleptic Gregorian), Howard Hinnant's algorithm.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// `2026-11-24T20:00:00.250Z` (UTC, milliseconds).
    public static func format(_ date: Date) -> String {
        let ms = Int((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = Int((Double(ms) / 1000).rounded(.down))
        let millis = ms - seconds * 1000
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ v: Int, _ n: Int) -> String { String(repeating: "0", count: max(0, n - String(v).count)) + String(v) }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(rest / 3600, 2)):\(pad(rest / 60 % 60, 2)):\(pad(rest % 60, 2)).\(pad(millis, 3))Z"
    }
}
