import Foundation

/// An external subtitle file read into a timeline: its bytes decoded (a BOM's UTF-8 or UTF-16,
/// else UTF-8, else Windows-1252 — the encoding of most older .srt files), its format told by
/// its content first and its name second (a ".srt" that is WebVTT inside is read as WebVTT),
/// and its cues parsed. A file with no cue Reel can read is an error, not an empty track.
public enum SubtitleFile {
    public enum Format: String, Sendable, CaseIterable {
        case srt, webvtt, ass

        /// The format for a file name's extension (".srt", ".vtt", ".ass", ".ssa"), any case.
        public init?(fileName: String) {
            switch (fileName as NSString).pathExtension.lowercased() {
            case "srt": self = .srt
            case "vtt", "webvtt": self = .webvtt
            case "ass", "ssa": self = .ass
            default: return nil
            }
        }
    }

    public static func format(of text: String, fileName: String) -> Format? {
        let head = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.prefix(4096)
        if head.hasPrefix("WEBVTT") { return .webvtt }
        if head.range(of: "[Script Info]", options: .caseInsensitive) != nil || head.range(of: "[Events]", options: .caseInsensitive) != nil {
            return .ass
        }
        // A ".vtt" without the signature is not WebVTT (the W3C parser reads nothing of it): with
        // "-->" lines it is SubRip under the wrong name, as players read it.
        let byName = Format(fileName: fileName)
        if byName == .webvtt, head.contains("-->") { return .srt }
        return byName ?? (head.contains("-->") ? .srt : nil)
    }

    /// The text of a subtitle file's bytes.
    public static func decode(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return String(decoding: bytes.dropFirst(3), as: UTF8.self) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let little = bytes[0] == 0xFF
            let units = stride(from: 2, to: bytes.count - 1, by: 2).map { i -> UInt16 in
                little ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])
            }
            return String(decoding: units, as: UTF16.self)
        }
        if let text = String(validatingUTF8Bytes: bytes) { return text }
        return String(data: Data(bytes), encoding: .windowsCP1252) ?? String(decoding: bytes, as: UTF8.self)
    }

    /// The cues of a file named `fileName` with these bytes.
    public static func parse(_ bytes: [UInt8], fileName: String) -> Result<SubtitleTimeline, PlaybackError> {
        read(bytes, fileName: fileName).timeline
    }

    /// The cues of a file, and what its parser left out (each with its line).
    public static func read(_ bytes: [UInt8], fileName: String) -> (timeline: Result<SubtitleTimeline, PlaybackError>, problems: [SubtitleProblem]) {
        let text = decode(bytes)
        guard let format = format(of: text, fileName: fileName) else {
            return (.failure(PlaybackError(kind: .subtitleFile, message: "“\(fileName)” is not a subtitle file Reel can read (SubRip, WebVTT or SubStation Alpha).")), [])
        }
        var problems: [SubtitleProblem] = []
        if format == .srt, Format(fileName: fileName) == .webvtt {
            problems.append(SubtitleProblem(line: 1, code: .noSignature,
                                            message: "the file does not start with “WEBVTT”; its cues are read as SubRip"))
        }
        let cues: [SubtitleCue] = switch format {
        case .srt: SRTParser.parse(text, problems: &problems)
        case .webvtt: WebVTTParser.parse(text, problems: &problems)
        case .ass: ASSParser.parse(text, problems: &problems)
        }
        let timeline = SubtitleTimeline(cues)
        guard !timeline.cues.isEmpty else {
            let first = problems.first.map { " (\($0.description))" } ?? ""
            return (.failure(PlaybackError(kind: .subtitleFile, message: "“\(fileName)” has no subtitles Reel can read\(first).")), problems)
        }
        return (.success(timeline), problems)
    }

    /// The warning for a file read with problems: the first one, and how many more.
    public static func warning(fileName: String, problems: [SubtitleProblem]) -> PlaybackError? {
        guard let first = problems.first else { return nil }
        let more = problems.count > 1 ? " (and \(problems.count - 1) more: reel inspect lists them)" : ""
        return PlaybackError(kind: .subtitleFile, message: "The subtitle file “\(fileName)”, \(first.description)\(more); the rest plays.")
    }
}

extension String {
    /// The bytes as UTF-8 text, nil when they are not valid UTF-8.
    init?(validatingUTF8Bytes bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        self = text
    }
}
