/// A deviation from RFC 8216 found while parsing leniently: the playlist still parses (as
/// GStreamer, Media3 and hls.js would play it), and the problem is reported with its line.
public struct HLSProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        /// Breaks a MUST of the RFC.
        case error
        /// Breaks a SHOULD, or is something a player has to guess about.
        case warning
        /// `reel check --known`: an error the catalogue accepts for now (it fails nothing).
        case known
    }

    /// 1-based; nil for a problem of the whole playlist.
    public var line: Int?
    public var severity: Severity
    /// A stable name for the kind of problem ("segment-too-long", "undefined-variable", …).
    public var code: String
    public var message: String
    /// What was measured, when the problem is a measure over a bound (`reel check`'s thresholds).
    public var figure: Double?
    /// `reel check --known`: where the known problem is tracked.
    public var link: String?

    public init(line: Int?, severity: Severity, code: String, message: String, figure: Double? = nil) {
        self.line = line
        self.severity = severity
        self.code = code
        self.message = message
        self.figure = figure
    }

    public var description: String { "\(line.map { "line \($0): " } ?? "")\(severity.rawValue): \(message) [\(code)]" }
}

/// A playlist parsed leniently, with what was wrong with it.
public struct HLSParseResult: Sendable, Equatable {
    public var playlist: HLSPlaylist
    public var problems: [HLSProblem]
    /// Variables the playlist defined (`EXT-X-DEFINE`), for its media playlists' `IMPORT`.
    public var variables: [String: String]

    public var errors: [HLSProblem] { problems.filter { $0.severity == .error } }
}
