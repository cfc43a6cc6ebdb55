/// One subtitle of an external file: shown from `start` to `end` (seconds of the item's stream
/// time), its text as styled runs. What the overlay draws is `markup` (Pango's markup: `<i>`,
/// `<b>`, `<u>`, `<span foreground>`, the text escaped); events and tests read `text`.
public struct SubtitleCue: Equatable, Sendable {
    public var start: Double
    public var end: Double
    public var runs: [SubtitleRun]
    /// Where the file asks for it (nil: at the bottom, centred).
    public var placement: SubtitlePlacement?
    /// How its letters are edged (ASS styles' OutlineColour, Outline, BorderStyle); nil: the
    /// overlay's own black outline.
    public var outline: SubtitleOutline?
    /// The cue's identifier (WebVTT; SRT's index), "" when it has none.
    public var identifier = ""
    /// The settings as written after the timing line's end time (WebVTT; SRT coordinates).
    public var settings = ""

    public init(start: Double, end: Double, runs: [SubtitleRun], placement: SubtitlePlacement? = nil) {
        self.start = start; self.end = end; self.runs = runs; self.placement = placement
    }

    public init(start: Double, end: Double, text: String) {
        self.init(start: start, end: end, runs: [SubtitleRun(text)])
    }

    /// The text without styling (lines separated by "\n").
    public var text: String { runs.map(\.text).joined() }

    /// The most characters of one cue that are drawn (an ellipsis stands for the rest): real cues
    /// are a line or two, and Pango lays out a long unbreakable run in super-linear time (a cue of
    /// 100,000 characters held the pipeline until a good video failed as damaged; issue 46).
    public static let maximumDrawnCharacters = 1_000

    public var markup: String {
        var left = Self.maximumDrawnCharacters
        var out = ""
        for var run in runs {
            guard left > 0 else { break }
            let count = run.text.count
            if count > left {
                run.text = String(run.text.prefix(left)) + "…"
                left = 0
            } else {
                left -= count
            }
            out += run.markup
        }
        return out
    }
}

/// A piece of a cue's text with one style.
public struct SubtitleRun: Equatable, Sendable {
    public var text: String
    public var italic = false
    public var bold = false
    public var underline = false
    /// "#rrggbb", when the file colours the text.
    public var color: String?
    /// "#rrggbb", when the file colours the text's background (WebVTT's `bg_` classes).
    public var background: String?
    /// The font size as a factor of the subtitles' size (ASS `Fontsize`, `\fs`); nil: that size.
    public var scale: Double?

    public init(_ text: String, italic: Bool = false, bold: Bool = false, underline: Bool = false, color: String? = nil, background: String? = nil) {
        self.text = text; self.italic = italic; self.bold = bold; self.underline = underline; self.color = color; self.background = background
    }

    /// The same look (everything but the text).
    func sameStyle(as other: SubtitleRun) -> Bool {
        italic == other.italic && bold == other.bold && underline == other.underline && color == other.color && background == other.background
            && scale == other.scale
    }

    var markup: String {
        var out = XMLText.escape(text)  // Pango markup is XML: escaped, no control characters
        if underline { out = "<u>\(out)</u>" }
        if italic { out = "<i>\(out)</i>" }
        if bold { out = "<b>\(out)</b>" }
        if let color { out = "<span foreground=\"\(color)\">\(out)</span>" }
        if let background { out = "<span background=\"\(background)\">\(out)</span>" }
        if let scale { out = "<span size=\"\(Int((scale * 100).rounded()))%\">\(out)</span>" }  // Pango ≥ 1.50
        return out
    }
}

/// The edge of a cue's letters, as an ASS style asks: an outline in a colour, none (`Outline: 0`),
/// or an opaque box behind the text (`BorderStyle: 3`). The overlay draws one for the whole block.
public struct SubtitleOutline: Equatable, Sendable, Hashable {
    /// "#rrggbb"; nil: black.
    public var color: String?
    /// Whether letters are outlined at all.
    public var drawn: Bool
    /// An opaque box behind the text instead of an outline.
    public var box: Bool

    public init(color: String? = nil, drawn: Bool = true, box: Bool = false) { self.color = color; self.drawn = drawn; self.box = box }

    /// The overlay's own: a black outline.
    public static let standard = SubtitleOutline()
}
