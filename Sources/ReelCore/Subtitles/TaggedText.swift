import Foundation

/// The inline styling of SRT and WebVTT cue text: HTML-like tags (`<i>`, `<b>`, `<u>`,
/// `<font color>`; WebVTT's `<c.class>`, `<v Speaker>`, `<lang>`, `<ruby>`, timestamps) turned
/// into styled runs, unknown tags dropped, a `<` that opens no tag kept as text. SRT files from
/// the wild also carry ASS override blocks (`{\an8}`, `{\i1}`): dropped. WebVTT's character
/// references (`&amp;`, `&lt;`, `&nbsp;`, `&#233;`…) are decoded when `entities` is on.
enum TaggedText {
    static func runs(_ text: String, entities: Bool, assBlocks: Bool) -> [SubtitleRun] {
        var runs: [SubtitleRun] = []
        var style = SubtitleRun("")
        var colors: [String?] = []
        var pending = ""
        func flush() {
            guard !pending.isEmpty else { return }
            var run = style
            run.text = entities ? decodeEntities(pending) : pending
            if let last = runs.last, last.italic == run.italic, last.bold == run.bold, last.underline == run.underline, last.color == run.color {
                runs[runs.count - 1].text += run.text
            } else {
                runs.append(run)
            }
            pending = ""
        }
        // Linear: every search forward remembers what it found (`ForwardFinder`), so thousands
        // of "<" or "{" that open nothing cost one look each, not a scan to the end each.
        let chars = Array(text)
        var closeAngle = ForwardFinder(chars, ">"), openAngle = ForwardFinder(chars, "<"), closeBrace = ForwardFinder(chars, "}")
        var rubyEnd = RubyTextEnd(chars)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "<", let close = closeAngle.next(from: i + 1), (openAngle.next(from: i + 1) ?? chars.count) > close {
                let tag = String(chars[(i + 1)..<close])  // "< b >" is text, not a tag
                let closing = tag.hasPrefix("/")
                let body = closing ? String(tag.dropFirst()) : tag
                let name = String(body.prefix { $0.isLetter }).lowercased()
                if name.isEmpty, !closing, !(body.first?.isNumber ?? false) {
                    pending.append(c)  // "<" then something that is no tag: "a < b > c"
                    i += 1
                    continue
                }
                flush()
                switch name {
                case "i": style.italic = !closing
                case "b": style.bold = !closing
                case "u": style.underline = !closing
                case "font":
                    if closing { style.color = colors.popLast() ?? nil } else {
                        colors.append(style.color)
                        style.color = fontColor(body) ?? style.color
                    }
                case "rt" where !closing:  // ruby text: skip it, the base text stays
                    if let end = rubyEnd.next(from: close) {
                        i = end
                        continue
                    }
                default: break
                }
                i = close + 1
            } else if assBlocks, c == "{", i + 1 < chars.count, chars[i + 1] == "\\", let close = closeBrace.next(from: i + 1) {
                flush()
                let block = String(chars[(i + 1)..<close])
                for tag in block.split(separator: "\\") { _ = ASSParser.apply(tag, to: &style) }
                i = close + 1
            } else {
                pending.append(c)
                i += 1
            }
        }
        flush()
        return runs
    }

    /// Where the next `</rt>` (any case) ends, remembered like `ForwardFinder`.
    struct RubyTextEnd {
        private let chars: [Character]
        private var found: Int?
        private var exhausted = false

        init(_ chars: [Character]) { self.chars = chars }

        /// The index just after the first `</rt>` starting at or after `from`.
        mutating func next(from: Int) -> Int? {
            if exhausted { return nil }
            if let f = found, f - 5 >= from { return f }
            var j = from
            while j + 5 <= chars.count {
                if chars[j] == "<", chars[j + 1] == "/", chars[j + 2] == "r" || chars[j + 2] == "R",
                   chars[j + 3] == "t" || chars[j + 3] == "T", chars[j + 4] == ">" {
                    found = j + 5
                    return j + 5
                }
                j += 1
            }
            exhausted = true
            return nil
        }
    }

    /// `<font color="#ff0000">`, `<font color=red>`: "#rrggbb".
    static func fontColor(_ tag: String) -> String? {
        guard let range = tag.range(of: "color", options: .caseInsensitive) else { return nil }
        var value = tag[range.upperBound...].drop { $0 == " " || $0 == "=" }
        if value.first == "\"" || value.first == "'" { value = value.dropFirst() }
        let word = String(value.prefix { $0.isLetter || $0.isNumber || $0 == "#" }).lowercased()
        if word.hasPrefix("#") {
            let hex = word.dropFirst()
            if hex.count == 6, hex.allSatisfy(\.isHexDigit) { return word }
            if hex.count == 3, hex.allSatisfy(\.isHexDigit) { return "#" + hex.map { "\($0)\($0)" }.joined() }
            return nil
        }
        if word.count == 6, word.allSatisfy(\.isHexDigit) { return "#" + word }
        return namedColors[word]
    }

    static let namedColors: [String: String] = [
        "white": "#ffffff", "black": "#000000", "red": "#ff0000", "green": "#008000", "lime": "#00ff00",
        "blue": "#0000ff", "yellow": "#ffff00", "cyan": "#00ffff", "aqua": "#00ffff", "magenta": "#ff00ff",
        "fuchsia": "#ff00ff", "gray": "#808080", "grey": "#808080", "silver": "#c0c0c0", "orange": "#ffa500",
        "purple": "#800080", "maroon": "#800000", "navy": "#000080", "olive": "#808000", "teal": "#008080",
    ]

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] == "&", let semi = text[i...].prefix(12).firstIndex(of: ";") {
                let name = text[text.index(after: i)..<semi]
                if let decoded = entity(String(name)) {
                    out += decoded
                    i = text.index(after: semi)
                    continue
                }
            }
            out.append(text[i])
            i = text.index(after: i)
        }
        return out
    }

    private static func entity(_ name: String) -> String? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return "\u{00A0}"
        case "lrm", "rlm": return ""
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}
