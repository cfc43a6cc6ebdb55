import Foundation

/// SubStation Alpha and Advanced SSA (.ssa, .ass): the `[Events]` section's `Dialogue:` lines,
/// read through its `Format:` line (Start, End, Text; Text is the last field and may contain
/// commas). `\N` and `\n` break lines, `\h` is a hard space; drawing commands (`{\p1}` … `{\p0}`)
/// are not text; other override tags never show as text. Styles (`[V4+ Styles]`, `[V4 Styles]`)
/// give each line its base: bold, italic, underline, primary colour, font size and alignment;
/// `\r` goes back to it. Override tags: `\b`, `\i`, `\u`, `\c`/`\1c`, `\fs` (sizes are shares of
/// `[Script Info]`'s PlayResY, drawn relative to Reel's subtitle size), `\an`/`\a` (numpad and
/// legacy alignment) and `\pos`/`\move`'s start (the alignment point at PlayResX/PlayResY
/// coordinates); without `\pos`, the style's (or the line's) margins. The style's outline colour,
/// no outline (`Outline: 0`) or an opaque box (`BorderStyle: 3`) edge the letters; outline widths,
/// shadows, rotations and effects are the overlay's own.
enum ASSParser {
    /// What a Style line gives the Dialogue lines that name it.
    struct Style {
        var run = SubtitleRun("")
        var placement: SubtitlePlacement?
        /// MarginL, MarginR, MarginV (script pixels).
        var margins = Margins()
        var outline: SubtitleOutline?
    }

    /// Left, right and vertical margins in script pixels; a Dialogue line's non-zero ones replace
    /// its style's.
    struct Margins: Equatable {
        var left = 0.0, right = 0.0, vertical = 0.0

        func overridden(by line: Margins) -> Margins {
            Margins(left: line.left != 0 ? line.left : left, right: line.right != 0 ? line.right : right,
                    vertical: line.vertical != 0 ? line.vertical : vertical)
        }
    }

    /// `[Script Info]`'s script resolution (libass's defaults when it says none: 384×288, or
    /// one from the other at 4:3; 1280 goes with 1024).
    struct Resolution {
        var x: Double?
        var y: Double?

        var playResX: Double { x ?? y.map { $0 == 1024 ? 1280 : $0 * 4 / 3 } ?? 384 }
        var playResY: Double { y ?? x.map { $0 == 1280 ? 1024 : $0 * 3 / 4 } ?? 288 }

        /// A font size in script pixels as a factor of Reel's subtitle size, which is that of
        /// ASS's default style (Fontsize 20 at PlayResY 288) — kept within 0.2…5.
        func scale(fontSize: Double) -> Double? {
            guard fontSize.isFinite, fontSize > 0 else { return nil }
            let scale = (fontSize / playResY) / (20.0 / 288.0)
            return abs(scale - 1) < 0.005 ? nil : min(5, max(0.2, (scale * 100).rounded() / 100))
        }
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
        var inScriptInfo = false
        var resolution = Resolution()
        for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingSpaces
            if line.hasPrefix("[") {
                let section = line.lowercased()
                inEvents = section == "[events]"
                inScriptInfo = section == "[script info]"
                styleSection = section == "[v4+ styles]" ? true : section == "[v4 styles]" ? false : nil
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...]
            if inScriptInfo {
                let number = Double(value.trimmingSpaces).flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
                if key == "playresx" { resolution.x = number }
                if key == "playresy" { resolution.y = number }
                continue
            }
            if let numpad = styleSection {
                if key == "format" { styleFields = value.split(separator: ",").map { $0.trimmingSpaces.lowercased() } }
                if key == "style", let (name, style) = Self.style(value, fields: styleFields, numpad: numpad, resolution: resolution) {
                    styles[name] = style
                }
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
            let runs = Self.runs(String(values[textField]), base: style?.run ?? SubtitleRun(""), resolution: resolution)
            func margin(_ name: String) -> Double { fields.firstIndex(of: name).flatMap { Double(values[$0].trimmingSpaces) } ?? 0 }
            let margins = (style?.margins ?? Margins()).overridden(by: Margins(left: margin("marginl"), right: margin("marginr"), vertical: margin("marginv")))
            let placement = Self.placement(String(values[textField]), style: style?.placement, resolution: resolution, margins: margins)
            if !runs.isEmpty {
                var cue = SubtitleCue(start: start, end: end, runs: runs, placement: placement == .standard ? nil : placement)
                cue.outline = style?.outline
                cues.append(cue)
            }
        }
        return cues
    }

    /// A Style line read through its section's Format line: its name (lowercased) and base.
    static func style(_ value: Substring, fields: [String], numpad: Bool, resolution: Resolution = Resolution()) -> (String, Style)? {
        let values = value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard values.count >= fields.count, let nameField = fields.firstIndex(of: "name") else { return nil }
        func field(_ name: String) -> Substring? { fields.firstIndex(of: name).map { values[$0] } }
        func flag(_ name: String) -> Bool { field(name).flatMap { Int($0) }.map { $0 != 0 } ?? false }  // -1: on
        var style = Style()
        style.run.bold = flag("bold")
        style.run.italic = flag("italic")
        style.run.underline = flag("underline")
        style.run.color = field("primarycolour").flatMap(Self.color)
        style.run.scale = field("fontsize").flatMap { Double($0) }.flatMap { resolution.scale(fontSize: $0) }
        if let n = field("alignment").flatMap({ Int($0) }) {
            style.placement = numpad ? SubtitlePlacement(numpad: n) : SubtitlePlacement(legacy: n)
        }
        func number(_ name: String) -> Double? { field(name).flatMap { Double($0) }.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }
        style.margins = Margins(left: number("marginl") ?? 0, right: number("marginr") ?? 0, vertical: number("marginv") ?? 0)
        // The edge: BorderStyle 3 is an opaque box; Outline 0 none; OutlineColour its colour.
        let outline = SubtitleOutline(color: field("outlinecolour").flatMap(Self.anyColor), drawn: (number("outline") ?? 1) > 0,
                                      box: field("borderstyle").flatMap { Int($0) } == 3)
        style.outline = outline == .standard ? nil : outline
        return (values[nameField].lowercased(), style)
    }

    /// An ASS colour as "#rrggbb", black included (nil: unreadable).
    static func anyColor(_ text: Substring) -> String? {
        guard let rgb = rgb(text) else { return nil }
        return rgb == "#000000" ? nil : rgb  // black: the overlay's own outline
    }

    /// An ASS colour (`&HAABBGGRR`, `&HBBGGRR&`, or SSA's decimal BGR) as "#rrggbb"; nil for white
    /// (the overlay's own colour) and for what cannot be read.
    static func color(_ text: Substring) -> String? {
        guard let rgb = rgb(text), rgb != "#ffffff" else { return nil }
        return rgb
    }

    static func rgb(_ text: Substring) -> String? {
        var t = text.trimmingSpaces
        if t.hasSuffix("&") { t = t.dropLast() }
        let value: UInt32?
        if t.uppercased().hasPrefix("&H") { value = UInt32(t.dropFirst(2), radix: 16) } else { value = UInt32(t) }
        guard let v = value else { return nil }
        let r = v & 0xFF, g = (v >> 8) & 0xFF, b = (v >> 16) & 0xFF
        return String(format: "#%02x%02x%02x", r, g, b)
    }

    /// One override tag (`i1`, `b0`, `u1`, `r`, `c&H…&`, `fs24`, `p1`…) applied to `style` (`base`:
    /// what `\r` goes back to; `resolution`: what `\fs` is a share of, nil where sizes mean
    /// nothing, as in SubRip); a drawing tag's level is returned (`p0` ends a drawing). Other tags
    /// (positions, fades, rotations) are ignored.
    static func apply(_ tag: Substring, to style: inout SubtitleRun, base: SubtitleRun = SubtitleRun(""), resolution: Resolution? = nil) -> Int? {
        if tag.hasPrefix("1c&") || tag.hasPrefix("c&") {
            style.color = color(tag.drop { $0 != "&" })
            return nil
        }
        if tag == "c" || tag == "1c" {  // back to the style's colour
            style.color = base.color
            return nil
        }
        if tag.hasPrefix("fs"), let resolution, let size = Double(tag.dropFirst(2).trimmingSpaces) {
            style.scale = resolution.scale(fontSize: size)
            return nil
        }
        if tag == "fs" {  // back to the style's size
            style.scale = base.scale
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

    /// Where a Dialogue line goes: its override tags' alignment (`\anN`, legacy `\aN`; the last
    /// one wins, as in libass) or its style's; with `\pos(x,y)` (or `\move`'s start) that
    /// alignment's point is at (x, y) of the script's resolution. Nil when nothing says.
    static func placement(_ text: String, style: SubtitlePlacement? = nil, resolution: Resolution = Resolution(),
                          margins: Margins = Margins()) -> SubtitlePlacement? {
        var aligned: SubtitlePlacement?
        var point: (Double, Double)?
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            for tag in rest[rest.index(after: open)..<close].split(separator: "\\") {
                if tag.hasPrefix("an"), let n = Int(tag.dropFirst(2)) {
                    aligned = SubtitlePlacement(numpad: n) ?? aligned
                } else if tag.hasPrefix("a"), let n = Int(tag.dropFirst()) {
                    aligned = SubtitlePlacement(legacy: n) ?? aligned
                } else if point == nil, tag.hasPrefix("pos(") || tag.hasPrefix("move(") {  // the first one counts
                    let numbers = tag.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }.split(separator: ",").compactMap { Double($0.trimmingSpaces) }
                    if numbers.count >= 2, numbers[0].isFinite, numbers[1].isFinite { point = (numbers[0], numbers[1]) }
                }
            }
            rest = rest[rest.index(after: close)...]
        }
        guard let (x, y) = point else {
            // Without \pos the margins place the text: MarginV from the top or the bottom, MarginL/R
            // from its side, and the lines wrap between MarginL and MarginR (left or right aligned).
            guard margins != Margins() else { return aligned ?? style }
            var placement = aligned ?? style ?? .standard
            let w = resolution.playResX, h = resolution.playResY
            switch placement.vertical {
            case .top where margins.vertical > 0: placement.y = min(1, margins.vertical / h)
            case .bottom where margins.vertical > 0: placement.y = max(0, 1 - margins.vertical / h)
            default: break
            }
            switch placement.horizontal {
            case .left: placement.x = min(1, margins.left / w)
            case .right: placement.x = max(0, 1 - margins.right / w)
            case .center: break
            }
            if placement.horizontal != .center, margins.left + margins.right > 0, margins.left + margins.right < w {
                placement.width = (w - margins.left - margins.right) / w
            }
            return placement
        }
        var placement = aligned ?? style ?? .standard
        placement.x = min(1, max(0, x / resolution.playResX))
        placement.y = min(1, max(0, y / resolution.playResY))
        return placement
    }

    /// The text of a Dialogue line as styled runs.
    static func runs(_ text: String, base: SubtitleRun = SubtitleRun(""), resolution: Resolution = Resolution()) -> [SubtitleRun] {
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
                    if let level = apply(tag, to: &style, base: base, resolution: resolution) { drawing = level > 0 }
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
