import Foundation

/// A session recording (`reel --record DIR`, issue 63): a folder that a replay serves again as
/// the origin answered, at the same offsets from its start.
///
///     DIR/recording.json   RecordingManifest: the wall clock at start, the inputs (redacted)
///     DIR/requests.jsonl   a RecordedRequest per upstream request, in the order they were asked
///     DIR/bodies/HASH      each body once, named by its SHA-256 (segments are often asked twice)
///     DIR/events.jsonl     Reel's own event stream (`--events`'s lines)
///
/// Nothing the user gave as a credential is in it: URLs and playlists are redacted by the log's
/// rules (`Redactor`), request headers are never kept. Files are 0600 in a 0700 folder.
public enum RecordingFolder {
    public static let manifest = "recording.json"
    public static let requests = "requests.jsonl"
    public static let events = "events.jsonl"
    public static let bodies = "bodies"
    public static let version = 1
}

/// One upstream request and what came back, with its times in seconds from the recording's
/// start: asked, first byte (the answer's head), last byte.
public struct RecordedRequest: Codable, Sendable, Equatable {
    public var seq: Int
    public var method: String
    /// Redacted as the logs redact it.
    public var url: String
    /// The request's Range header, when it had one (an answer is matched by URL and range).
    public var range: String?
    /// Nil when no answer came (`error` says why: refused, reset, timed out).
    public var status: Int?
    public var error: String?
    /// The answer's headers that matter for playback (`RecordedRequest.keptHeaders`), lowercased names.
    public var headers: [String: String]
    /// The body's file under `bodies/` (nil for an empty body).
    public var body: String?
    public var bytes: Int
    public var asked: Double
    public var firstByte: Double?
    public var lastByte: Double?
    /// A playlist or manifest (its text redacted), answered by the version live at the moment of
    /// the replayed request; other bodies by the order they were asked.
    public var playlist: Bool
    /// The body did not end: "upstream" (the connection failed mid-body), "reader" (Reel stopped
    /// reading it: a seek, a switch), "exit" (Reel stopped while it came, or before any answer
    /// did). A replay ends it the same way, at the same byte; after "reader" and "exit" it waits.
    public var cut: String?
    /// Asked by the recorder, not the player: a segment the origin failed (5xx), asked once more
    /// a moment later so that a faults file's `ok` has an answer to serve in its place. Never
    /// served as itself; nil for the player's own requests.
    public var probe: Bool?

    /// One of the player's own requests (not a recorder's probe).
    public var isPlayers: Bool { probe != true }

    public init(seq: Int, method: String, url: String, range: String? = nil, status: Int?, error: String? = nil, headers: [String: String] = [:], body: String? = nil,
                bytes: Int = 0, asked: Double, firstByte: Double? = nil, lastByte: Double? = nil, playlist: Bool = false) {
        self.seq = seq; self.method = method; self.url = url; self.range = range; self.status = status; self.error = error; self.headers = headers
        self.body = body; self.bytes = bytes; self.asked = asked; self.firstByte = firstByte; self.lastByte = lastByte; self.playlist = playlist
    }

    /// Content type, length, range, date, age, cache control, validators: what a player's
    /// behaviour can depend on. Never a cookie or another credential.
    public static let keptHeaders = ["content-type", "content-length", "content-range", "accept-ranges", "date", "age",
                                     "cache-control", "expires", "last-modified", "etag"]

    /// Whether a body is a playlist or manifest, by its type or its name.
    public static func isPlaylist(contentType: String?, url: String) -> Bool {
        let type = (contentType ?? "").lowercased()
        if type.contains("mpegurl") || type.contains("dash+xml") { return true }
        let path = URLComponents(string: url)?.path.lowercased() ?? url.lowercased()
        return path.hasSuffix(".m3u8") || path.hasSuffix(".m3u") || path.hasSuffix(".mpd")
    }

    /// The seconds from asking to the first byte, and from the first byte to the last.
    public var latency: Double { max(0, (firstByte ?? asked) - asked) }
    public var transfer: Double { max(0, (lastByte ?? firstByte ?? asked) - (firstByte ?? asked)) }
}

/// `recording.json`.
public struct RecordingManifest: Codable, Sendable, Equatable {
    public var version = RecordingFolder.version
    /// The wall clock when the recording started (seconds since 1970): a replay's live labels
    /// and `epoch-time` can be read at it.
    public var started: Double
    public var inputs: [String]
    /// The size bound (`--record-max`), in bytes.
    public var maximumBytes: Int?
    /// Why recording stopped before the session ended ("size": the bound was reached).
    public var stopped: String?
    public var stoppedAt: Double?

    public init(started: Double, inputs: [String], maximumBytes: Int? = nil) {
        self.started = started
        self.inputs = inputs.map(Redactor.redactURL)
        self.maximumBytes = maximumBytes
    }
}

/// What a replay matches a request by: its URL as recorded (redacted), without the masked
/// values (a token the recording never kept, which a replay does not send).
public enum RecordingKey {
    public static func of(_ url: String) -> String {
        let redacted = Redactor.redactURL(url)
        guard var components = URLComponents(string: redacted) else { return redacted }
        if let items = components.percentEncodedQueryItems {
            let kept = items.filter { $0.value != Redactor.mask }
            components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
        }
        components.fragment = nil
        return components.string ?? redacted
    }
}
