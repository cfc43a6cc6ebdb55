/// WebVTT files written from the W3C spec's text (WebVTT: The Web Video Text Tracks Format, §6.1
/// "WebVTT parser algorithm" and "collect a WebVTT block"), one or more per numbered step, with
/// what the algorithm makes of them: the cues (identifier and text) and what Reel reports as
/// left out (problem codes). ReelCoreTests run them through the parser, ReelAppTests through
/// `reel inspect --json`: the same table at both levels.
public struct WebVTTSpecCase: Sendable {
    /// "§6.1 step 4: …": the step and what the case shows.
    public let step: String
    public let file: String
    /// Each cue as "identifier|text" ("|text" without an identifier).
    public let cues: [String]
    public let problems: [String]

    public init(_ step: String, _ file: String, cues: [String], problems: [String] = []) {
        self.step = step
        self.file = file
        self.cues = cues
        self.problems = problems
    }
}

public enum WebVTTSpecCases {
    static let cue = "00:01.000 --> 00:02.000\n"

    public static let all: [WebVTTSpecCase] = [
        // The parser algorithm.
        WebVTTSpecCase("step 1: NUL is U+FFFD", "WEBVTT\n\n" + cue + "a\u{0}b\n", cues: ["|a\u{FFFD}b"]),
        WebVTTSpecCase("step 1: CRLF and a lone CR are line feeds", "WEBVTT\r\n\r\n1\r\n00:01.000 --> 00:02.000\rA\r\r00:03.000 --> 00:04.000\r\nB\r\n",
                       cues: ["1|A", "|B"]),
        WebVTTSpecCase("step 4: fewer than six characters", "WEBVT", cues: [], problems: ["no-signature"]),
        WebVTTSpecCase("step 5: six characters that are not WEBVTT", "WEBVTX", cues: [], problems: ["no-signature"]),
        WebVTTSpecCase("step 5: exactly WEBVTT, a file with no cues", "WEBVTT", cues: []),
        WebVTTSpecCase("step 6: WEBVTT then a letter", "WEBVTTX\n\n" + cue + "A\n", cues: [], problems: ["no-signature"]),
        WebVTTSpecCase("step 6: a signature after a blank line", "\nWEBVTT\n\n" + cue + "A\n", cues: [], problems: ["no-signature"]),
        WebVTTSpecCase("step 6: WEBVTT then a tab and a title", "WEBVTT\tTitle\n\n" + cue + "A\n", cues: ["|A"]),
        WebVTTSpecCase("steps 7–8: the signature's line and nothing else", "WEBVTT - no cues", cues: []),
        WebVTTSpecCase("step 10: the signature's line and a line feed", "WEBVTT\n", cues: []),
        WebVTTSpecCase("step 11: header lines are not cues", "WEBVTT\nKind: captions\nLanguage: en\n\n" + cue + "A\n", cues: ["|A"]),
        WebVTTSpecCase("step 11: a timing line ends the header (no blank line)", "WEBVTT\n" + cue + "A\n", cues: ["|A"]),
        WebVTTSpecCase("step 11: a header line before a timing line is the header's, not an identifier", "WEBVTT\nintro\n" + cue + "A\n", cues: ["|A"]),
        WebVTTSpecCase("step 12: blank lines after the header", "WEBVTT\n\n\n\n\n" + cue + "A\n", cues: ["|A"]),
        WebVTTSpecCase("step 14: blocks separated by several blank lines, no final line feed", "WEBVTT\n\n" + cue + "A\n\n\n\n00:03.000 --> 00:04.000\nB",
                       cues: ["|A", "|B"]),
        // Collect a WebVTT block.
        WebVTTSpecCase("block step 10.4: a timing line first is a cue without identifier", "WEBVTT\n\n" + cue + "A\n", cues: ["|A"]),
        WebVTTSpecCase("block step 10.4: an identifier, then the timing line", "WEBVTT\n\nintro 1\n" + cue + "A\n", cues: ["intro 1|A"]),
        WebVTTSpecCase("block step 10.4: a third line with -->  starts the next block", "WEBVTT\n\na\nb\n" + cue + "C\n", cues: ["|C"], problems: ["not-a-cue"]),
        WebVTTSpecCase("block step 10.4: a line with --> in cue text ends the cue", "WEBVTT\n\n" + cue + "A\n00:03.000 --> 00:04.000\nB\n",
                       cues: ["|A", "|B"]),
        WebVTTSpecCase("block step 10.4: unreadable timings leave the block out", "WEBVTT\n\n00:01 --> 00:02\nA\n\n" + cue + "B\n", cues: ["|B"],
                       problems: ["unreadable-timing"]),
        WebVTTSpecCase("block step 10.4: two timing lines after an identifier (the first cue has no text: nothing shows)",
                       "WEBVTT\n\nid\n" + cue + "00:03.000 --> 00:04.000\nB\n", cues: ["|B"]),
        WebVTTSpecCase("block step 10.5: a blank line ends the cue", "WEBVTT\n\n" + cue + "A\n\nB\n", cues: ["|A"], problems: ["not-a-cue"]),
        WebVTTSpecCase("block step 10.6: multi-line cue text", "WEBVTT\n\n" + cue + "line one\nline two\n", cues: ["|line one\nline two"]),
        WebVTTSpecCase("block step 10.6.1: STYLE before the first cue is a style sheet", "WEBVTT\n\nSTYLE\n::cue { color: red }\n\n" + cue + "A\n",
                       cues: ["|A"]),
        WebVTTSpecCase("block step 10.6.1: STYLE after a cue is not a style sheet", "WEBVTT\n\n" + cue + "A\n\nSTYLE\n::cue { color: red }\n",
                       cues: ["|A"], problems: ["not-a-cue"]),
        WebVTTSpecCase("block step 10.6.1: REGION before the first cue is a region", "WEBVTT\n\nREGION\nid:fred width:40%\n\n" + cue + "A\n",
                       cues: ["|A"]),
        WebVTTSpecCase("block step 10.6.1: STYLE with trailing spaces", "WEBVTT\n\nSTYLE  \n::cue {}\n\n" + cue + "A\n", cues: ["|A"]),
        WebVTTSpecCase("blocks: NOTE, alone and with text, is a comment", "WEBVTT\n\nNOTE\n\nNOTE a comment\nover two lines\n\n" + cue + "A\n",
                       cues: ["|A"]),
        WebVTTSpecCase("blocks: NOTES is not a note", "WEBVTT\n\nNOTES\n\n" + cue + "A\n", cues: ["|A"], problems: ["not-a-cue"]),
        WebVTTSpecCase("block steps 11–14: a file whose blocks are all notes has no cues", "WEBVTT\n\nNOTE only a note\n", cues: []),
        // Collect WebVTT cue timings: timestamps with and without hours, spaces around the arrow.
        WebVTTSpecCase("timings: hours, tabs around the arrow, settings", "WEBVTT\n\n01:00:00.000\t-->\t01:00:01.500 align:start\nA\n", cues: ["|A"]),
        WebVTTSpecCase("timings: an arrow without spaces", "WEBVTT\n\n00:01.000-->00:02.000\nA\n", cues: ["|A"]),
        WebVTTSpecCase("timestamp: a comma before the fraction is not WebVTT", "WEBVTT\n\n00:00:01,000 --> 00:00:02,000\nA\n", cues: [],
                       problems: ["unreadable-timing"]),
        WebVTTSpecCase("timestamp: minutes past 59 without hours", "WEBVTT\n\n00:60.000 --> 01:02.000\nA\n", cues: [], problems: ["unreadable-timing"]),
        WebVTTSpecCase("timing: the end before the start", "WEBVTT\n\n00:02.000 --> 00:01.000\nA\n", cues: [], problems: ["ends-before-start"]),
    ]
}
