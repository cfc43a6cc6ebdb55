import Foundation

/// What a media probe (GstDiscoverer) found in a file or URL, for `reel inspect` and `reel check`.
public struct MediaProbeResult: Sendable, Equatable {
    public struct VideoStream: Sendable, Equatable {
        public var codec: String?
        public var width: Int
        public var height: Int
        /// Frames per second, nil when variable or unknown.
        public var framerate: Double?
        public var bitrate: Int?
        public init(codec: String?, width: Int, height: Int, framerate: Double?, bitrate: Int?) {
            self.codec = codec; self.width = width; self.height = height; self.framerate = framerate; self.bitrate = bitrate
        }
    }

    public struct AudioStream: Sendable, Equatable {
        public var codec: String?
        public var channels: Int
        public var sampleRate: Int
        public var bitrate: Int?
        public var language: String?
        public init(codec: String?, channels: Int, sampleRate: Int, bitrate: Int?, language: String?) {
            self.codec = codec; self.channels = channels; self.sampleRate = sampleRate; self.bitrate = bitrate; self.language = language
        }
    }

    public var uri: String
    /// Seconds; nil when unknown (live streams, failures).
    public var duration: Double?
    public var isSeekable: Bool
    public var isLive: Bool
    public var container: String?
    public var title: String?
    public var video: [VideoStream]
    public var audio: [AudioStream]
    public var subtitleCount: Int
    /// Set when the probe failed; the other fields hold whatever was found before.
    public var error: PlaybackError?

    public init(uri: String, duration: Double? = nil, isSeekable: Bool = false, isLive: Bool = false, container: String? = nil,
                title: String? = nil, video: [VideoStream] = [], audio: [AudioStream] = [], subtitleCount: Int = 0,
                error: PlaybackError? = nil) {
        self.uri = uri; self.duration = duration; self.isSeekable = isSeekable; self.isLive = isLive; self.container = container
        self.title = title; self.video = video; self.audio = audio; self.subtitleCount = subtitleCount; self.error = error
    }

    /// The JSON form printed by `reel inspect --json` (documented in docs/QA.md, "reel inspect").
    public var json: JSONValue {
        .object([
            ("type", .string("media")),
            ("uri", .string(Redactor.redactURL(uri))),
            ("ok", .bool(error == nil)),
            ("duration", .optional(duration)),
            ("seekable", .bool(isSeekable)),
            ("live", .bool(isLive)),
            ("container", .optional(container)),
            ("title", .optional(title)),
            ("video", .array(video.map { v in
                .object([("codec", .optional(v.codec)), ("width", .int(v.width)), ("height", .int(v.height)),
                         ("framerate", .optional(v.framerate)), ("bitrate", .optional(v.bitrate))])
            })),
            ("audio", .array(audio.map { a in
                .object([("codec", .optional(a.codec)), ("channels", .int(a.channels)), ("sampleRate", .int(a.sampleRate)),
                         ("bitrate", .optional(a.bitrate)), ("language", .optional(a.language))])
            })),
            ("subtitles", .int(subtitleCount)),
            ("error", error.map(EventEncoder.errorObject) ?? .null),
        ])
    }

    /// The human form printed by `reel inspect`.
    public var text: String {
        var lines = ["\(MediaLocator.displayName(of: uri))"]
        if let error { lines.append("  error:     \(error.code): \(error.message)") }
        lines.append("  duration:  \(duration.map { TimeFormat.clock($0) + String(format: " (%.3f s)", $0) } ?? "unknown")")
        lines.append("  seekable:  \(isSeekable ? "yes" : "no")\(isLive ? ", live" : "")")
        if let container { lines.append("  container: \(container)") }
        if let title { lines.append("  title:     \(title)") }
        for (i, v) in video.enumerated() {
            let fps = v.framerate.map { String(format: ", %.3g fps", $0) } ?? ""
            lines.append("  video #\(i):  \(v.codec ?? "unknown codec"), \(v.width)x\(v.height)\(fps)")
        }
        for (i, a) in audio.enumerated() {
            let lang = a.language.map { ", \($0)" } ?? ""
            lines.append("  audio #\(i):  \(a.codec ?? "unknown codec"), \(a.channels) ch, \(a.sampleRate) Hz\(lang)")
        }
        if subtitleCount > 0 { lines.append("  subtitles: \(subtitleCount)") }
        return lines.joined(separator: "\n")
    }
}
