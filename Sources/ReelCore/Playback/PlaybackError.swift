/// What went wrong with an item, in the few kinds a user (and a QA report) can act on.
public enum PlaybackErrorKind: String, Sendable, Codable, CaseIterable {
    case notFound            // missing file, 404
    case notAuthorized       // 401, 403, token rejected
    case network             // refused, reset, DNS, TLS
    case timeout             // connection or read stalled
    case serverError         // 5xx
    case emptyFile           // zero bytes
    case unsupportedFormat   // not a media type we can recognise
    case corrupt             // recognised container, broken content
    case missingCodec        // recognised, but no decoder installed
    case decode              // decoder failed mid-stream
    case output              // no display, sink could not open
    case invalidPlaylist     // playlist file could not be parsed
    case preventedByPolicy   // the metered-network policy forbids it (never retried)
    case behindLiveWindow    // a live item fell out of its window (paused longer than it): a warning
    case liveProgram         // the programme asked for (restart, catchup) is not in the stream: a warning
    case subtitleFile        // an external subtitle file could not be read: a warning, the item plays
    case hwdecFallback       // a hardware decoder failed: a warning, the item goes on in software
    case unknown
}

/// A typed, user-presentable error. `message` is plain words for people; `debug` is GStreamer's
/// debug text and goes to logs only. `uri` is always redacted.
public struct PlaybackError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public var kind: PlaybackErrorKind
    public var message: String
    public var debug: String?
    public var httpStatus: Int?
    public var uri: String?
    /// What the resource was found to be by its first bytes when that is why it was refused
    /// (`ContentSniff`): a manifest that did not come through the gateway (the queue then
    /// routes it there and loads it again), a web page.
    public var refusedContent: SniffedContent?

    public init(kind: PlaybackErrorKind, message: String, debug: String? = nil, httpStatus: Int? = nil, uri: String? = nil,
                refusedContent: SniffedContent? = nil) {
        self.kind = kind
        self.refusedContent = refusedContent
        self.message = message
        self.debug = debug.map { Redactor.redactText($0) }
        self.httpStatus = httpStatus
        self.uri = uri.map { Redactor.redactURL($0) }
    }

    public var description: String { message }

    /// `kind` as it appears in events and reports ("not-found", …).
    public var code: String {
        switch kind {
        case .notFound: "not-found"
        case .notAuthorized: "not-authorized"
        case .network: "network"
        case .timeout: "timeout"
        case .serverError: "server-error"
        case .emptyFile: "empty-file"
        case .unsupportedFormat: "unsupported-format"
        case .corrupt: "corrupt"
        case .missingCodec: "missing-codec"
        case .decode: "decode"
        case .output: "output"
        case .invalidPlaylist: "invalid-playlist"
        case .preventedByPolicy: "prevented-by-policy"
        case .behindLiveWindow: "behind-live-window"
        case .liveProgram: "live-program"
        case .subtitleFile: "subtitle-file"
        case .hwdecFallback: "hwdec-fallback"
        case .unknown: "unknown"
        }
    }
}
