/// A problem found while reading a playlist: where (1-based line, when known) and what. Texts
/// never carry secrets (URIs are redacted, option values are not quoted).
public struct PlaylistDiagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable, Equatable {
        /// Only an entry (or a line) was lost or changed; the rest loaded.
        case entry
        /// The playlist could not be read at all; nothing loaded.
        case fatal
    }

    public var line: Int?
    public var message: String
    public var severity: Severity

    public init(line: Int?, message: String, severity: Severity = .entry) {
        self.line = line
        self.message = message
        self.severity = severity
    }

    /// "line 4: …" or just the message.
    public var description: String { line.map { String(format: tr("line %@: %@"), "\($0)", message) } ?? message }

    /// As a typed error for the event stream, naming the playlist.
    public func error(playlist name: String) -> PlaybackError {
        PlaybackError(kind: .invalidPlaylist, message: "\(name): \(description)")
    }
}
