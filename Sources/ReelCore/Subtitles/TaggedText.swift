import Foundation

/// The inline styling of SubRip cue text and of Pango markup: HTML-like tags (`<i>`, `<b>`, `<u>`,
/// `<font color>`, `<span foreground>`) turned into styled runs, unknown tags dropped, a `<` that
/// opens no tag kept as text (SubRip is no markup language: "a < b" is text). SRT files from the
/// wild also carry ASS override blocks (`{\an8}`, `{\i1}`): dropped. Character references
/// (`&amp;`, `&lt;`…) are decoded when `entities` is on (Pango markup). WebVTT has its own
/// tokenizer (`WebVTTCueText`).
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
                case "font", "span":  // SubRip's <font color>, Pango's <span foreground>
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

    /// `<font color="#ff0000">`, `<font color=red>`, `<span foreground="#ff0000">`: "#rrggbb".
    static func fontColor(_ tag: String) -> String? {
        guard let range = tag.range(of: "foreground", options: .caseInsensitive) ?? tag.range(of: "color", options: .caseInsensitive) else { return nil }
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

    /// Character references decoded as HTML reads them (`HTMLCharacterReference`).
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let chars = Array(text)
        var out = ""
        var i = 0
        while i < chars.count {
            if chars[i] == "&", let (decoded, next) = HTMLCharacterReference.consume(chars, at: i) {
                out += decoded
                i = next
            } else {
                out.append(chars[i])
                i += 1
            }
        }
        return out
    }
}

extension SubtitleRun {
    /// Pango markup (what GStreamer's subtitle decoders give playbin3 to draw) as styled runs.
    public static func runs(pangoMarkup: String) -> [SubtitleRun] { TaggedText.runs(pangoMarkup, entities: true, assBlocks: false) }
}
