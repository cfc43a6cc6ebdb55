import Foundation

/// Cue times as subtitle files write them: SRT "00:01:02,345", WebVTT "01:02.345" or
/// "00:01:02.345", ASS "0:01:02.34" (centiseconds). Hours may have any number of digits; the
/// fraction any number of digits (read as a decimal fraction); "," or "." before it. Spaces
/// around the separators are allowed ("00:00:01, 500", "00 : 01 : 02,345": real tools write them).
/// A fraction padded with spaces to its three places is read as GStreamer's subparse and
/// ffmpeg read it, the spaces being zeros: ", 26" is 26 ms, ",  5" 5 ms, ", 9" 90 ms.
/// Times beyond `BoundedNumber.maximumSeconds` are not read.
enum SubtitleTime {
    static func seconds(_ text: Substring) -> Double? {
        let compact = text.contains(" ") || text.contains("\t") ? Substring(unspaced(text.trimmingSpaces)) : text
        let parts = compact.trimmingSpaces.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var whole = 0.0
        for part in parts.dropLast() {
            guard !part.isEmpty, part.allSatisfy(\.isASCIIDigit), let v = Double(part) else { return nil }
            whole = whole * 60 + v
        }
        let last = parts[parts.count - 1]
        let pieces = last.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "," || $0 == "." })
        guard (1...2).contains(pieces.count), !pieces[0].isEmpty, pieces[0].allSatisfy(\.isASCIIDigit), let s = Double(pieces[0]), s < 60 || parts.count == 1
        else { return nil }
        var fraction = 0.0
        if pieces.count == 2 {
            let digits = pieces[1]
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let f = Double(digits) else { return nil }
            fraction = f / pow(10, Double(digits.count))
        }
        // A cue time past 10^9 s (99999999999999999999 hours trapped the inspection's clock) is
        // not a time: the timing line is a problem, as any other that cannot be read.
        let total = whole * 60 + s + fraction
        return total.isFinite && total <= BoundedNumber.maximumSeconds ? total : nil
    }

    /// The time without its spaces: within a fraction of at most three places ("1, 26") they are
    /// the zeros that pad it (subparse's `g_strdelimit (s, " ", '0')`); elsewhere, and in a wider
    /// fraction (", 500"), only spacing.
    private static func unspaced(_ text: Substring) -> String {
        func isSpace(_ c: Character) -> Bool { c == " " || c == "\t" }
        guard let separator = text.lastIndex(where: { $0 == "," || $0 == "." }) else { return text.filter { !isSpace($0) } }
        let whole = text[..<separator].filter { !isSpace($0) }
        let fraction = text[text.index(after: separator)...]
        let padded = fraction.count <= 3 && fraction.last.map { !isSpace($0) } == true
        return whole + String(text[separator]) + (padded ? String(fraction.map { isSpace($0) ? "0" : $0 }) : fraction.filter { !isSpace($0) })
    }

    /// "a --> b" (SRT, WebVTT; WebVTT puts cue settings after b, SRT sometimes coordinates).
    /// What follows the end time on a timing line (WebVTT settings, SRT coordinates).
    static func settings(_ line: Substring) -> Substring {
        guard let arrow = arrow(in: line) else { return "" }
        let after = line[arrow.upperBound...].trimmingSpaces
        return after.drop { $0.isASCIIDigit || $0 == ":" || $0 == "," || $0 == "." || $0 == " " || $0 == "\t" }
    }

    static func range(_ line: Substring) -> (start: Double, end: Double)? {
        guard let arrow = arrow(in: line) else { return nil }
        // The end time runs over digits, separators and spaces inside it ("00:00:02, 500") up to
        // what follows it: WebVTT settings ("align:start"), SRT coordinates ("X1:10").
        let after = line[arrow.upperBound...].trimmingSpaces
        let endText = after.prefix { $0.isASCIIDigit || $0 == ":" || $0 == "," || $0 == "." || $0 == " " || $0 == "\t" }
        guard let start = seconds(line[..<arrow.lowerBound]), let end = seconds(endText) else { return nil }
        return (start, end)
    }

    /// Where "-->" is in a line (a scan of its characters, without Foundation's bridging).
    static func arrow(in line: Substring) -> Range<Substring.Index>? {
        var i = line.startIndex
        while let dash = line[i...].firstIndex(of: "-") {
            let rest = line[dash...]
            if rest.hasPrefix("-->") { return dash..<line.index(dash, offsetBy: 3) }
            i = line.index(after: dash)
        }
        return nil
    }
}
