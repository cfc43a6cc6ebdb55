/// Something in a subtitle file that the parser left out, and where (1-based line): the rest of
/// the file plays; `reel inspect` lists every one, playback warns once per file.
public struct SubtitleProblem: Equatable, Sendable {
    public enum Code: String, Sendable {
        /// A line with "-->" whose times cannot be read: its cue is left out.
        case unreadableTiming = "unreadable-timing"
        /// A cue that ends before it starts: left out.
        case endsBeforeStart = "ends-before-start"
        /// A block that is not a cue, a note, a style or a region (WebVTT): left out.
        case notACue = "not-a-cue"
        /// A Dialogue line whose fields do not match the Format line (ASS): left out.
        case unreadableDialogue = "unreadable-dialogue"
        /// A WebVTT file without its "WEBVTT" signature (read as SubRip when it has SubRip's cues).
        case noSignature = "no-signature"
    }
    public var line: Int
    public var code: Code
    public var message: String

    /// "line 7: …".
    public var description: String { "line \(line): \(message)" }

    static func timing(_ line: Int, _ text: Substring) -> SubtitleProblem {
        SubtitleProblem(line: line, code: .unreadableTiming,
                        message: "the timing line “\(text.trimmingSpaces.prefix(60))” cannot be read; its cue is left out")
    }

    static func backwards(_ line: Int) -> SubtitleProblem {
        SubtitleProblem(line: line, code: .endsBeforeStart, message: "the cue ends before it starts; it is left out")
    }
}
