import Foundation

/// Subtitle files as real ones are (issue 32's list): SubRip in every encoding and line ending,
/// with and without counters, with tags, coordinates and blank lines inside; SubStation Alpha
/// with its override tags; WebVTT cue text (the tokenizer's states, references). Each with what
/// Reel reads: the cues ("identifier|text"), their markup when it says something, and the
/// problems. ReelCoreTests run them through the parser, ReelAppTests through `reel inspect --json`.
public struct SubtitleFileCase: Sendable {
    public let name: String
    public let fileName: String
    public let bytes: [UInt8]
    public let cues: [String]
    /// The cues' Pango markup, when the case is about styling (nil: not checked).
    public let markups: [String]?
    public let problems: [String]

    public init(_ name: String, _ fileName: String, _ bytes: [UInt8], cues: [String], markups: [String]? = nil, problems: [String] = []) {
        self.name = name
        self.fileName = fileName
        self.bytes = bytes
        self.cues = cues
        self.markups = markups
        self.problems = problems
    }

    public init(_ name: String, _ fileName: String, _ text: String, cues: [String], markups: [String]? = nil, problems: [String] = []) {
        self.init(name, fileName, Array(text.utf8), cues: cues, markups: markups, problems: problems)
    }
}

public enum SubtitleFileCases {
    static let t1 = "00:00:01,000 --> 00:00:02,000"
    static let t2 = "00:00:03,000 --> 00:00:04,000"
    static func utf16(_ text: String, littleEndian: Bool) -> [UInt8] {
        (littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]) + text.utf16.flatMap { u in
            littleEndian ? [UInt8(u & 0xFF), UInt8(u >> 8)] : [UInt8(u >> 8), UInt8(u & 0xFF)]
        }
    }

    public static let srt: [SubtitleFileCase] = [
        SubtitleFileCase("a byte-order mark and CRLF", "a.srt", [0xEF, 0xBB, 0xBF] + Array("1\r\n\(t1)\r\nHi\r\n".utf8), cues: ["1|Hi"]),
        SubtitleFileCase("UTF-16 LE", "a.srt", utf16("1\n\(t1)\nÇa va\n", littleEndian: true), cues: ["1|Ça va"]),
        SubtitleFileCase("UTF-16 BE", "a.srt", utf16("1\n\(t1)\nÇa va\n", littleEndian: false), cues: ["1|Ça va"]),
        SubtitleFileCase("Windows-1252", "a.srt", Array("1\n\(t1)\n".utf8) + [0x43, 0x61, 0x66, 0xE9, 0x20, 0x80, 0x0A], cues: ["1|Café €"]),
        SubtitleFileCase("old Mac CR line breaks", "a.srt", "1\r\(t1)\rHi\r\r2\r\(t2)\rYo\r", cues: ["1|Hi", "2|Yo"]),
        SubtitleFileCase("no counters", "a.srt", "\(t1)\nA\n\n\(t2)\nB\n", cues: ["|A", "|B"]),
        SubtitleFileCase("counters out of order", "a.srt", "7\n\(t1)\nA\n\n3\n\(t2)\nB\n", cues: ["7|A", "3|B"]),
        SubtitleFileCase("no blank line between cues", "a.srt", "1\n\(t1)\nA\n2\n\(t2)\nB\n", cues: ["1|A", "2|B"]),
        SubtitleFileCase("a blank line inside a cue's text", "a.srt", "1\n\(t1)\nline one\n\nline two\n\n2\n\(t2)\nB\n",
                         cues: ["1|line one\n\nline two", "2|B"]),
        SubtitleFileCase("a dot before the milliseconds", "a.srt", "1\n00:00:01.000 --> 00:00:02.500\nA\n", cues: ["1|A"]),
        SubtitleFileCase("spaces around separators", "a.srt", "1\n00:00:01, 500 --> 00 : 00 : 02,000\nA\n", cues: ["1|A"]),
        SubtitleFileCase("HTML-ish tags", "a.srt", "1\n\(t1)\n<i>it</i> <b>b</b> <font color=\"#ff0000\">red</font> <u>u</u>\n",
                         cues: ["1|it b red u"], markups: ["<i>it</i> <b>b</b> <span foreground=\"#ff0000\">red</span> <u>u</u>"]),
        SubtitleFileCase("ASS override blocks in SubRip", "a.srt", "1\n\(t1)\n{\\an8}{\\i1}top{\\i0}\n", cues: ["1|top"], markups: ["<i>top</i>"]),
        SubtitleFileCase("a < that opens no tag is text", "a.srt", "1\n\(t1)\n1 < 2 > 0\n", cues: ["1|1 < 2 > 0"]),
        SubtitleFileCase("coordinates after the timing", "a.srt", "1\n\(t1) X1:100 X2:600 Y1:50 Y2:100\nA\n", cues: ["1|A"]),
        SubtitleFileCase("trailing blank lines and spaces", "a.srt", "1\n\(t1)\nA\n   \n\n\n", cues: ["1|A"]),
        SubtitleFileCase("a timing line that cannot be read", "a.srt", "1\n00:00:0x,000 --> 00:00:02,000\nA\n\n2\n\(t2)\nB\n", cues: ["2|B"],
                         problems: ["unreadable-timing"]),
        SubtitleFileCase("a cue that ends before it starts", "a.srt", "1\n00:00:05,000 --> 00:00:02,000\nA\n\n2\n\(t2)\nB\n", cues: ["2|B"],
                         problems: ["ends-before-start"]),
    ]

    static let assHead = "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
    static func dialogue(_ text: String, layer: Int = 0) -> String { "Dialogue: \(layer),0:00:01.00,0:00:02.00,Default,,0,0,0,,\(text)\n" }

    public static let ass: [SubtitleFileCase] = [
        SubtitleFileCase("\\N breaks a line, \\h is a hard space", "a.ass", assHead + dialogue("a\\Nb\\nc\\hd"), cues: ["|a\nb\nc\u{00A0}d"]),
        SubtitleFileCase("commas in the text", "a.ass", assHead + dialogue("Hello, world, again"), cues: ["|Hello, world, again"]),
        SubtitleFileCase("unknown tags are never text", "a.ass", assHead + dialogue("{\\blur2\\fad(100,200)\\frz10\\k20}x"), cues: ["|x"]),
        SubtitleFileCase("drawings are not text", "a.ass", assHead + dialogue("{\\p1}m 0 0 l 10 10{\\p0}text"), cues: ["|text"]),
        SubtitleFileCase("layers", "a.ass", assHead + dialogue("under", layer: 0) + dialogue("over", layer: 1), cues: ["|under", "|over"]),
        SubtitleFileCase("bold, italic, colour and size tags", "a.ass", assHead + dialogue("{\\b1}b{\\b0} {\\i1}i{\\i0} {\\c&H0000FF&}red{\\c} {\\fs40}big"),
                         cues: ["|b i red big"],
                         markups: ["<b>b</b> <i>i</i> <span foreground=\"#ff0000\">red</span> <span size=\"200%\">big</span>"]),
        SubtitleFileCase("SSA v4: Marked= and a shorter Format line", "a.ssa",
                         "[Script Info]\nScriptType: v4.00\n\n[Events]\nFormat: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
                             + "Dialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0,0,0,,old\n",
                         cues: ["|old"]),
        SubtitleFileCase("a Dialogue line that does not match the Format line", "a.ass", assHead + "Dialogue: 0,0:00:0x.00,0:00:02.00,Default,,0,0,0,,bad\n"
                             + dialogue("good"), cues: ["|good"], problems: ["unreadable-dialogue"]),
    ]

    static let vttCue = "WEBVTT\n\n00:01.000 --> 00:02.000\n"

    /// The cue text parsing rules (§6.4): each tokenizer state and tree rule in a cue.
    public static let webVTTCueText: [SubtitleFileCase] = [
        SubtitleFileCase("data state: character references", "a.vtt", vttCue + "&amp; &lt;&gt; &#65;&#x42; &copy &notin; &notit; &bogus; a & b\n",
                         cues: ["|& <> AB © ∉ ¬it; &bogus; a & b"]),  // HTML's table has notin; (∉), not notit;
        SubtitleFileCase("tag state: a start tag, classes and an annotation", "a.vtt", vttCue + "<c.yellow.bg_blue>y</c> <v.loud Roger  Bingham>hi</v>\n",
                         cues: ["|y hi"], markups: ["<span background=\"#0000ff\"><span foreground=\"#ffff00\">y</span></span> hi"]),
        SubtitleFileCase("tag state: a timestamp tag", "a.vtt", vttCue + "one <00:00:01.500>two\n", cues: ["|one two"]),
        SubtitleFileCase("end tags close only the current node", "a.vtt", vttCue + "<i>a</b>b</i>c\n", cues: ["|abc"], markups: ["<i>ab</i>c"]),
        SubtitleFileCase("ruby text is not drawn; </ruby> closes rt", "a.vtt", vttCue + "<ruby>漢<rt>kan</ruby>字\n", cues: ["|漢字"]),
        SubtitleFileCase("< always opens a tag", "a.vtt", vttCue + "1 < 2 > 0\n", cues: ["|1  0"]),
        SubtitleFileCase("an unclosed tag ends with the text", "a.vtt", vttCue + "<b>bold\n", cues: ["|bold"], markups: ["<b>bold</b>"]),
        SubtitleFileCase("tag names are case-sensitive", "a.vtt", vttCue + "<I>x</I>\n", cues: ["|x"], markups: ["x"]),
    ]

    public static var all: [SubtitleFileCase] { srt + ass + webVTTCueText }
}
