/// The one place where failures become `PlaybackError`s (Totem's single error-mapping function).
/// It speaks GStreamer's vocabulary as plain values so that it stays pure and table-testable.
public enum ErrorMapper {
    /// GStreamer's error domains, known by their quarks' names ("gst-resource-error-quark").
    public enum Domain: Sendable, CaseIterable {
        case core, library, resource, stream, other

        /// The domain's quark name ("" for `other`).
        public var quark: String { self == .other ? "" : "gst-\(self)-error-quark" }

        /// The domain a quark name is (`other` for any that is not GStreamer's four).
        public init(quark: String) { self = Self.allCases.first { $0.quark == quark } ?? .other }
    }

    /// What the engine knows about a failure, besides the GError itself.
    public struct Context: Sendable {
        public var uri: String?
        /// For local files: the size in bytes, or nil when the file does not exist.
        public var localFileSize: Int64?
        /// For local files: a folder or a pipe or device is named as such, not as missing or empty.
        public var localFileKind: LocalFileFacts.Kind?
        public var isLocalFile: Bool
        /// An HTTP status seen by the engine (error details) or by the gateway.
        public var httpStatus: Int?
        /// The error was posted by the item's network source element itself (souphttpsrc). It
        /// then says "Internal data stream error" whatever happened on the wire.
        public var networkSourceFailed: Bool
        /// Seconds the network source had gone without data when it failed, and the read
        /// timeout it was given: silence for the whole timeout means the server stalled.
        public var sourceSilence: Double?
        public var networkTimeout: Double?
        public init(uri: String? = nil, isLocalFile: Bool = false, localFileSize: Int64? = nil, httpStatus: Int? = nil,
                    networkSourceFailed: Bool = false, sourceSilence: Double? = nil, networkTimeout: Double? = nil) {
            self.uri = uri
            self.isLocalFile = isLocalFile
            self.localFileSize = localFileSize
            self.httpStatus = httpStatus
            self.networkSourceFailed = networkSourceFailed
            self.sourceSilence = sourceSilence
            self.networkTimeout = networkTimeout
        }

        /// The context of a local file: what is at its path.
        public mutating func describeLocalFile(_ facts: LocalFileFacts) {
            isLocalFile = true
            localFileKind = facts.kind
            localFileSize = facts.kind == .regular ? facts.size : nil
        }
    }

    // GstResourceError, GstStreamError, GstCoreError codes (gst/gsterror.h).
    enum Resource: Int { case failed = 1, tooLazy, notFound, busy, openRead, openWrite, openReadWrite, close, read, write, seek, sync, settings, noSpaceLeft, notAuthorized }
    enum Stream: Int { case failed = 1, tooLazy, notImplemented, typeNotFound, wrongType, codecNotFound, decode, encode, demux, mux, format, decrypt, decryptNoKey }
    static let coreMissingPlugin = 12

    public static func map(domain: String, code: Int, message: String, debug: String?, context: Context) -> PlaybackError {
        if let refused = refusedContent(message) {
            return PlaybackError(kind: .unsupportedFormat, message: refusedMessage(refused), debug: "\(domain):\(code) \(message)",
                                 httpStatus: context.httpStatus, uri: context.uri, refusedContent: refused)
        }
        let kind = classify(domain: Domain(quark: domain), code: code, message: message, debug: debug, context: context)
        // souphttpsrc's "Server does not accept Range HTTP header" / "does not support seeking":
        // the answer was there, but a seek (or a resumed download) cannot be served from it.
        let text = (message + " " + (debug ?? "")).lowercased()
        let words = text.contains("does not accept range") || text.contains("does not support seeking")
            ? tr("The server cannot seek in this file (it ignores HTTP Range requests): it plays from its start only.")
            : userMessage(kind, context: context)
        return PlaybackError(kind: kind, message: words, debug: debug.map { "\(domain):\(code) \(message) | \($0)" } ?? "\(domain):\(code) \(message)",
                             httpStatus: context.httpStatus, uri: context.uri)
    }

    /// The content guard's refusal (`reel_content_guard.h`: "reel-content-guard: N").
    static func refusedContent(_ message: String) -> SniffedContent? {
        let prefix = "reel-content-guard: "
        guard message.hasPrefix(prefix), let code = Int(message.dropFirst(prefix.count)) else { return nil }
        return SniffedContent(rawValue: code)
    }

    /// Plain words for a resource refused by its first bytes.
    public static func refusedMessage(_ content: SniffedContent) -> String {
        switch content {
        case .webPage: tr("This address is a web page, not media: Reel plays media files, playlists and streams.")
        case .dashManifest: tr("This is a DASH manifest that did not come through Reel's gateway, which bounds what GStreamer reads of it: it was not opened.")
        case .hlsPlaylist: tr("This is an HLS playlist that did not come through Reel's gateway, which bounds what GStreamer reads of it: it was not opened.")
        }
    }

    /// An HTTP status seen on the wire (by the gateway or a fetch) as an error.
    public static func http(status: Int, uri: String?) -> PlaybackError {
        let context = Context(uri: uri, httpStatus: status)
        let kind = kindForHTTP(status) ?? .unknown
        return PlaybackError(kind: kind, message: userMessage(kind, context: context), httpStatus: status, uri: uri)
    }

    public static func kindForHTTP(_ status: Int) -> PlaybackErrorKind? {
        switch status {
        case 401, 403, 407: .notAuthorized
        case 404, 410: .notFound
        case 408, 504: .timeout
        case 500...599: .serverError
        case 400...499: .unknown
        default: nil
        }
    }

    static func classify(domain: Domain, code: Int, message: String, debug: String?, context: Context) -> PlaybackErrorKind {
        if context.isLocalFile {
            if context.localFileKind == .directory || context.localFileKind == .special { return .unsupportedFormat }
            guard let size = context.localFileSize else { return .notFound }
            if size == 0 { return .emptyFile }
        }
        if let status = context.httpStatus, status >= 400, let kind = kindForHTTP(status), kind != .unknown { return kind }
        let text = (message + " " + (debug ?? "")).lowercased()
        if context.networkSourceFailed {
            // souphttpsrc reports a reset, a non-HTTP answer and a stalled read alike, as a
            // STREAM/FAILED flow error: only the silence before it tells a stall apart.
            if let silence = context.sourceSilence, let timeout = context.networkTimeout, timeout > 0,
               silence >= timeout - min(0.5, timeout / 4) { return .timeout }
            if text.contains("timed out") || text.contains("timeout") { return .timeout }
            if domain == .stream && code == Stream.failed.rawValue { return .network }
        }
        switch domain {
        case .resource:
            switch Resource(rawValue: code) {
            case .notFound:
                // hlsdemux2 reports any failed download as NOT_FOUND with the answer's status: after
                // a 2xx the answer was there and its transfer broke (seen under load: "no such
                // stream (HTTP 200)"), a network failure, which is retried.
                if let status = context.httpStatus, (200..<300).contains(status) { return .network }
                return context.isLocalFile ? .notFound : (looksLikeNetwork(text) ? .network : .notFound)
            case .notAuthorized: return .notAuthorized
            case .openRead, .read, .openReadWrite, .seek, .failed:
                if text.contains("timed out") || text.contains("timeout") { return .timeout }
                if looksLikeNetwork(text) || !context.isLocalFile { return .network }
                return .notFound
            case .busy, .openWrite, .settings:
                return text.contains("display") || text.contains("xv") || text.contains("x11") ? .output : .unknown
            default: return .unknown
            }
        case .stream:
            switch Stream(rawValue: code) {
            case .typeNotFound, .wrongType, .notImplemented: return .unsupportedFormat
            case .codecNotFound: return .missingCodec
            case .demux, .format: return .corrupt
            case .decode, .decrypt, .decryptNoKey: return .decode
            case .failed: return text.contains("not-linked") || text.contains("not negotiated") ? .unsupportedFormat : .corrupt
            default: return .unknown
            }
        case .core:
            return code == coreMissingPlugin ? .missingCodec : .unknown
        case .library:
            return text.contains("display") ? .output : .unknown
        case .other:
            return looksLikeNetwork(text) ? .network : .unknown
        }
    }

    static func looksLikeNetwork(_ text: String) -> Bool {
        ["could not connect", "connection refused", "connection reset", "resolve", "socket", "tls", "network", "connection terminated", "host"]
            .contains { text.contains($0) }
    }

    /// Plain words for the error banner and reports, in the user's language (`tr`).
    public static func userMessage(_ kind: PlaybackErrorKind, context: Context) -> String {
        let status = context.httpStatus.map { " (HTTP \($0))" } ?? ""
        switch kind {
        case .notFound: return context.isLocalFile ? tr("The file does not exist.") : String(format: tr("The server has no such stream%@."), status)
        case .notAuthorized: return String(format: tr("Access was refused: the stream needs valid credentials%@."), status)
        case .network: return tr("The network connection failed.")
        case .timeout: return String(format: tr("The server stopped answering%@."), status)
        case .serverError: return String(format: tr("The server had an internal error%@."), status)
        case .emptyFile: return tr("The file is empty (0 bytes).")
        case .unsupportedFormat:
            switch context.localFileKind {
            case .directory: return tr("This is a folder with no media files in it (Reel plays a folder's video and audio files).")
            case .special: return tr("This is not a regular file (a pipe, a device or a socket): Reel plays files, URLs and playlists.")
            default: return tr("This is not a media format Reel can play.")
            }
        case .corrupt: return tr("The file is damaged: its data could not be read.")
        case .missingCodec: return tr("A decoder needed for this media is not installed.")
        case .decode: return tr("The media could not be decoded.")
        case .output: return tr("The video or audio output could not be opened.")
        case .invalidPlaylist: return tr("The playlist could not be read.")
        case .preventedByPolicy: return tr("Not played: the metered-network policy forbids it.")
        case .behindLiveWindow: return tr("Playback fell out of the live window: it resumed at the window's start.")
        case .liveProgram: return tr("The programme asked for is not in the stream.")
        case .subtitleFile: return tr("The subtitle file could not be read.")
        case .hwdecFallback: return tr("The hardware decoder failed: the item goes on with software decoding.")
        case .unknown: return String(format: tr("Playback failed%@."), status)
        }
    }
}
