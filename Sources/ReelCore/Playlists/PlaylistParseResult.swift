/// What reading a playlist gave: the entries that loaded and what went wrong with the others.
public struct PlaylistParseResult: Sendable, Equatable {
    public var format: PlaylistFormat
    /// The entries, in file order. For HLS: exactly one, the playlist itself as a stream.
    public var items: [QueueItem]
    public var diagnostics: [PlaylistDiagnostic]
    /// The playlist's own title (`#PLAYLIST:`, XSPF `<title>`), if any.
    public var title: String?
    /// Only the first entries were read (`firstEntries`); the list has more. Its diagnostics are
    /// then those of what was read, and only the whole list's say everything.
    public var moreEntries = false

    public init(format: PlaylistFormat, items: [QueueItem] = [], diagnostics: [PlaylistDiagnostic] = [], title: String? = nil) {
        self.format = format
        self.items = items
        self.diagnostics = diagnostics
        self.title = title
    }

    /// True when the playlist could not be read at all.
    public var isFatal: Bool { diagnostics.contains { $0.severity == .fatal } }

    /// True when the whole file loaded without a problem.
    public var isClean: Bool { diagnostics.isEmpty }
}
