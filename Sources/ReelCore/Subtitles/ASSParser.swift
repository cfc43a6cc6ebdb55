import Foundation

/// SubStation Alpha and Advanced SSA (.ssa, .ass): the `[Events]` section's `Dialogue:` lines,
/// read through its `Format:` line (Start, End, Text; Text is the last field and may contain
/// commas). Override blocks (`{\pos(…)}`, `{\i1}`) are dropped but for italic and bold; `\N`
/// and `\n` break lines, `\h` is a hard space; drawing commands (`{\p1}` … `{\p0}`) are not text.
/// `\an`/`\a` alignment places the cue (`SubtitlePlacement`). Styles (`[V4+ Styles]`, `[V4
/// Styles]`) give each line its base: bold, italic, underline, primary colour and alignment;
/// `\r` goes back to it, `\c`/`\1c` colour the text. `\pos`, sizes, outlines and effects are
/// not drawn.
enum ASSParser {
    /// What a Style line gives the Dialogue lines that name it.
    struct Style {
        var run = SubtitleRun("")
        var placement: SubtitlePlacement?
    }
    static func parse(_ text: String) -> [SubtitleCue] {
        var problems: [SubtitleProblem] = []
        return parse(text, problems: &problems)
    }

    /// The cues, and what was left out (`problems`).
    static func parse(_ text: String, problems: inout [SubtitleProblem]) -> [SubtitleCue] {
        var cues: [SubtitleCue] = []
        var inEvents = false
        var styleSection: Bool?  // nil: not in a styles section; true: V4+ (numpad alignment)
        var styleFields = ["name", "fontname", "fontsize", "primarycolour", "secondarycolour", "outlinecolour", "backcolour",
                           "bold", "italic", "underline", "strikeout", "scalex", "scaley", "spacing", "angle", "borderstyle",
                           "outline", "shadow", "alignment", "marginl", "marginr", "marginv", "encoding"]
        var styles: [String: Style] = [:]
        var fields = ["layer", "start", "end", "style", "name", "marginl", "marginr", "marginv", "effect", "text"]
        for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingSpaces
            if line.hasPrefix("[") {
                let section = line.lowercased()
                inEvents = section == "[events]"
                styleSection = section == "[v4+ styles]" ? true : section == "[v4 styles]" ? false : nil
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...]
            if let numpad = styleSection {
                if key == "format" { styleFields = value.split(separator: ",").map { $0.trimmingSpaces.lowercased() } }
                if key == "style", let (name, style) = Self.style(value, fields: styleFields, numpad: numpad) { styles[name] = style }
                continue
            }
            guard inEvents else { continue }
            if key == "format" {
                fields = value.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
                continue
            }
            guard key == "dialogue", let startField = fields.firstIndex(of: "start"), let endField = fields.firstIndex(of: "end"),
                  let textField = fields.firstIndex(of: "text"), textField == fields.count - 1 else { continue }
            let values = value.split(separator: ",", maxSplits: fields.count - 1, omittingEmptySubsequences: false)
            guard values.count == fields.count, let start = SubtitleTime.seconds(values[startField]),
                  let end = SubtitleTime.seconds(values[endField]) else {
                problems.append(SubtitleProblem(line: n + 1, code: .unreadableDialogue,
                                                message: "the Dialogue line does not match the Format line (its times or fields); it is left out"))
                continue
            }
            guard end >= start else {
                problems.append(.backwards(n + 1))
                continue
            }
            let style = fields.firstIndex(of: "style").flatMap { styles[values[$0].trimmingSpaces.lowercased()] ?? styles[String(values[$0].trimmingSpaces.drop { $0 == "*" }).lowercased()] }
            let runs = Self.runs(String(values[textField]), base: style?.run ?? SubtitleRun(""))
            let placement = Self.placement(String(values[textField])) ?? style?.placement
            if !runs.isEmpty { cues.append(SubtitleCue(start: start, end: end, runs: runs, placement: placement == .standard ? nil : placement)) }
        }
        return cues
    }

    /// A Style line read through its section's Format line: its name (lowercased) and base.
    static func style(_ value: Substring, fields: [String], numpad: Bool) -> (String, Style)? {
        let values = value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard values.count >= fields.count, let nameField = fields.firstIndex(of: "name") else { return nil }
        func field(_ name: String) -> Substring? { fields.firstIndex(of: name).map { values[$0] } }
        func flag(_ name: String) -> Bool { field(name).flatMap { Int($0) }.map { $0 != 0 } ?? false }  // -1: on
        var style = Style()
        style.run.bold = flag("bold")
        style.run.italic = flag("italic")
        style.run.underline = flag("underline")
        style.run.color = field("primarycolour").flatMap(Self.color)
        if let n = field("alignment").flatMap({ Int($0) }) {
            style.placement = numpad ? SubtitlePlacement(numpad: n) : SubtitlePlacement(legacy: n)
        }
        return (values[nameField].lowercased(), style)
    }

    /// An ASS colour (`&HAABBGGRR`, `&HBBGGRR&`, or SSA's decimal BGR) as "#rrggbb"; nil for white
    /// (the overlay's own colour) and for what cannot be read.
    static func color(_ text: Substring) -> String? {
        var t = text.trimmingSpaces
        if t.hasSuffix("&") { t = t.dropLast() }
        let value: UInt32?
        if t.uppercased().hasPrefix("&H") { value = UInt32(t.dropFirst(2), radix: 16) } else { value = UInt32(t) }
        guard let v = value else { return nil }
        let r = v & 0xFF, g = (v >> 8) & 0xFF, b = (v >> 16) & 0xFF
        guard !(r == 0xFF && g == 0xFF && b == 0xFF) else { return nil }
        return String(format: "#%02x%02x%02x", r, g, b)
    }

    /// One override tag (`i1`, `b0`, `u1`, `r`, `c&H…&`, `p1`…) applied to `style` (`base`: what
    /// `\r` goes back to); a drawing tag's level is returned (`p0` ends a drawing). Other tags
    /// (positions, sizes, fades) are ignored.
    static func apply(_ tag: Substring, to style: inout SubtitleRun, base: SubtitleRun = SubtitleRun("")) -> Int? {
        if tag.hasPrefix("1c&") || tag.hasPrefix("c&") {
            style.color = color(tag.drop { $0 != "&" })
            return nil
        }
        switch tag {
        case "i1": style.italic = true
        case "i0", "i": style.italic = false
        case "b1": style.bold = true
        case "b0", "b": style.bold = false
        case "u1": style.underline = true
        case "u0", "u": style.underline = false
        case "r": style = base
        default:
            if tag.hasPrefix("p"), let level = Int(tag.dropFirst()) { return level }
        }
        return nil
    }

    /// Where a Dialogue line's override tags put it (`\anN`, legacy `\aN`; the last one wins, as
    /// in libass), nil when they do not say.
    static func placement(_ text: String) -> SubtitlePlacement? {
        var placement: SubtitlePlacement?
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            for tag in rest[rest.index(after: open)..<close].split(separator: "\\") {
                if tag.hasPrefix("an"), let n = Int(tag.dropFirst(2)) {
                    placement = SubtitlePlacement(numpad: n) ?? placement
                } else if tag.hasPrefix("a"), let n = Int(tag.dropFirst()) {
                    placement = SubtitlePlacement(legacy: n) ?? placement
                }
            }
            rest = rest[rest.index(after: close)...]
        }
        return placement
    }

    /// The text of a Dialogue line as styled runs.
    static func runs(_ text: String, base: SubtitleRun = SubtitleRun("")) -> [SubtitleRun] {
        var runs: [SubtitleRun] = []
        var style = base
        var drawing = false
        var pending = ""
        func flush() {
            guard !pending.isEmpty else { return }
            var run = style
            run.text = pending
            runs.append(run)
            pending = ""
        }
        let chars = Array(text)
        var closeBrace = ForwardFinder(chars, "}")  // linear: see `ForwardFinder`
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "{", let close = closeBrace.next(from: i + 1) {
                flush()
                for tag in String(chars[(i + 1)..<close]).split(separator: "\\") {
                    if let level = apply(tag, to: &style, base: base) { drawing = level > 0 }
                }
                i = close + 1
                continue
            }
            if c == "\\", i + 1 < chars.count {
                switch chars[i + 1] {
                case "N", "n":
                    if !drawing { pending += "\n" }
                    i += 2
                    continue
                case "h":
                    if !drawing { pending += "\u{00A0}" }
                    i += 2
                    continue
                default: break
                }
            }
            if !drawing { pending.append(c) }
            i += 1
        }
        flush()
        // Lines made empty by dropped drawings or trailing breaks are not shown.
        while let last = runs.last, last.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { runs.removeLast() }
        return runs.isEmpty ? [] : runs
    }
}
