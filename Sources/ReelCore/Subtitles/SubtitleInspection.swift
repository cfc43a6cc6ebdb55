import Foundation

/// What Reel's own parser reads in a subtitle file (`reel inspect FILE.srt|.vtt|.ass`): its format,
/// encoding and cues, as the overlay will show them. The same parser the overlay uses
/// (`SubtitleFile.parse`), so a QA engineer checks a file with the tool that plays it.
public struct SubtitleInspection: Sendable {
    public let fileName: String
    public let format: SubtitleFile.Format?
    public let encoding: String
    public let cues: [SubtitleCue]
    /// Why nothing could be read (no format, no cue), nil when cues were read.
    public let error: PlaybackError?
    /// What the parser left out, with lines.
    public var problems: [SubtitleProblem] = []

    public var ok: Bool { error == nil }

    public init(fileName: String, format: SubtitleFile.Format?, encoding: String, cues: [SubtitleCue], error: PlaybackError?) {
        self.fileName = fileName
        self.format = format
        self.encoding = encoding
        self.cues = cues
        self.error = error
    }

    public static func inspect(_ bytes: [UInt8], fileName: String) -> SubtitleInspection {
        let text = SubtitleFile.decode(bytes)
        let format = SubtitleFile.format(of: text, fileName: fileName)
        let read = SubtitleFile.read(bytes, fileName: fileName)
        var inspection = switch read.timeline {
        case .success(let timeline):
            SubtitleInspection(fileName: fileName, format: format, encoding: SubtitleFile.encoding(of: bytes), cues: timeline.cues, error: nil)
        case .failure(let error):
            SubtitleInspection(fileName: fileName, format: format, encoding: SubtitleFile.encoding(of: bytes), cues: [], error: error)
        }
        inspection.problems = read.problems
        return inspection
    }

    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [("type", .string("subtitles")), ("name", .string(fileName)),
                                             ("format", format.map { .string($0.rawValue) } ?? .null), ("encoding", .string(encoding)),
                                             ("cues", .array(cues.map { cue in
                                                 .object([("start", .double(cue.start)), ("end", .double(cue.end)),
                                                          ("text", .string(cue.text)), ("markup", .string(cue.markup)),
                                                          ("placement", cue.placement.map(Self.placementJSON) ?? .null)])
                                             }))]
        fields.append(("problems", .array(problems.map { p in
            .object([("line", .int(p.line)), ("severity", .string("warning")), ("code", .string(p.code.rawValue)), ("message", .string(p.message))])
        })))
        if let error { fields.append(("error", .object([("code", .string(error.code)), ("message", .string(error.message))]))) }
        return .object(fields)
    }

    public var text: String {
        guard error == nil else { return "\(fileName): \(error!.message)" }
        var lines = ["\(fileName): \(format?.rawValue ?? "?") subtitles, \(encoding), \(cues.count) cue\(cues.count == 1 ? "" : "s")"]
        for cue in cues {
            lines.append("  \(Self.clock(cue.start)) --> \(Self.clock(cue.end))  \(cue.text.replacingOccurrences(of: "\n", with: " / "))")
        }
        for problem in problems { lines.append("  warning: \(problem.description)") }
        return lines.joined(separator: "\n")
    }

    /// `{"vertical": "top", "horizontal": "left"}`.
    static func placementJSON(_ p: SubtitlePlacement) -> JSONValue {
        let v = switch p.vertical { case .top: "top"; case .middle: "middle"; case .bottom: "bottom" }
        let h = switch p.horizontal { case .left: "left"; case .center: "center"; case .right: "right" }
        return .object([("vertical", .string(v)), ("horizontal", .string(h))])
    }

    static func clock(_ t: Double) -> String {
        let ms = Int((t * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }
}

extension SubtitleFile {
    /// How `decode` reads these bytes: "utf-8-bom", "utf-16le", "utf-16be", "utf-8" or "windows-1252".
    public static func encoding(of bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return "utf-8-bom" }
        if bytes.starts(with: [0xFF, 0xFE]) { return "utf-16le" }
        if bytes.starts(with: [0xFE, 0xFF]) { return "utf-16be" }
        return String(validatingUTF8Bytes: bytes) != nil ? "utf-8" : "windows-1252"
    }
}
