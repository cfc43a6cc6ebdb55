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
    /// The track of a media file this is (`reel inspect --track`): "2" for its own second text
    /// stream, "file:0" for the first file beside it; nil for a subtitle file inspected itself.
    public var track: String?
    /// Whether the cues are a media file's own stream as GStreamer decodes it (not Reel's parser).
    public var embedded = false

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
                                                          ("id", .string(cue.identifier)), ("text", .string(cue.text)),
                                                          ("settings", .string(cue.settings)), ("markup", .string(cue.markup)),
                                                          ("placement", cue.placement.map(Self.placementJSON) ?? .null)])
                                             }))]
        if let track {
            fields.insert(("track", .string(track)), at: 2)
            fields.insert(("source", .string(embedded ? "embedded" : "file")), at: 3)
        }
        fields.append(("problems", .array(problems.map { p in
            .object([("line", .int(p.line)), ("severity", .string("warning")), ("code", .string(p.code.rawValue)), ("message", .string(p.message))])
        })))
        if let error { fields.append(("error", .object([("code", .string(error.code)), ("message", .string(error.message))]))) }
        return .object(fields)
    }

    public var text: String {
        guard error == nil else { return "\(fileName): \(error!.message)" }
        let what = embedded ? "track \(track ?? "?"), the media's own subtitles" : "\(format?.rawValue ?? "?") subtitles"
        var lines = ["\(fileName): \(what), \(encoding), \(cues.count) cue\(cues.count == 1 ? "" : "s")"]
        for cue in cues {
            lines.append("  \(Self.clock(cue.start)) --> \(Self.clock(cue.end))  \(cue.text.replacingOccurrences(of: "\n", with: " / "))")
        }
        for problem in problems { lines.append("  warning: \(problem.description)") }
        return lines.joined(separator: "\n")
    }

    /// `{"vertical": "top", "horizontal": "left"}`, with `x`, `y` (where that edge is, 0…1 of the
    /// picture) and `width` (where the text wraps) when the file says.
    static func placementJSON(_ p: SubtitlePlacement) -> JSONValue {
        let v = switch p.vertical { case .top: "top"; case .middle: "middle"; case .bottom: "bottom" }
        let h = switch p.horizontal { case .left: "left"; case .center: "center"; case .right: "right" }
        var fields: [(String, JSONValue)] = [("vertical", .string(v)), ("horizontal", .string(h))]
        if let x = p.x { fields.append(("x", .double(x))) }
        if let y = p.y { fields.append(("y", .double(y))) }
        if let width = p.width { fields.append(("width", .double(width))) }
        return .object(fields)
    }

    /// "01:02:03.456"; a time before 0 (a cue moved back by a delay) with its sign: "-00:00:00.250".
    static func clock(_ t: Double) -> String {
        let ms = BoundedNumber.milliseconds(abs(t))
        let sign = t < 0 && ms > 0 ? "-" : ""
        return sign + String(format: "%02d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
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
