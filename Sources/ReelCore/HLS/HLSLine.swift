/// One line of an M3U8 text, split off with its terminator so that a rewrite can keep every
/// other byte: `content` excludes the terminator (`\n`, `\r\n` or nothing at the end).
public struct HLSLine: Sendable, Equatable {
    public var content: Substring
    public var terminator: Substring

    /// Splits text into lines, keeping terminators. A leading BOM stays in the first line's content.
    public static func split(_ text: String) -> [HLSLine] {
        var lines: [HLSLine] = []
        var start = text.startIndex
        // Work on unicode scalars: "\r\n" is one Character in Swift, which would hide the split.
        let scalars = text.unicodeScalars
        var si = scalars.startIndex
        while si < scalars.endIndex {
            let c = scalars[si]
            if c == "\n" || c == "\r" {
                let contentEnd = si
                var next = scalars.index(after: si)
                if c == "\r", next < scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
                lines.append(HLSLine(content: text[start..<contentEnd], terminator: text[contentEnd..<next]))
                start = next
                si = next
            } else {
                si = scalars.index(after: si)
            }
        }
        if start < text.endIndex { lines.append(HLSLine(content: text[start...], terminator: "")) }
        return lines
    }

    /// The content without a BOM and surrounding blanks.
    public var trimmed: Substring {
        var s = content
        if s.first == "\u{FEFF}" { s = s.dropFirst() }
        return HLSLine.trim(s)
    }

    static func trim(_ s: Substring) -> Substring {
        guard let first = s.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = s.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return s[s.endIndex...] }
        return s[first...last]
    }

    /// For `#TAG:value`, the tag name (`#EXT-X-KEY`) and the value; for `#TAG`, the tag and "".
    public var tag: (name: Substring, value: Substring)? {
        let t = trimmed
        guard t.hasPrefix("#") else { return nil }
        if let colon = t.firstIndex(of: ":") { return (t[..<colon], t[t.index(after: colon)...]) }
        return (t, t[t.endIndex...])
    }
}
