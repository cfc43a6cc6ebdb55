import Foundation

/// Reel's version, as the metainfo's newest release says it (`ReelVersionTests` holds them together).
public enum ReelVersion {
    public static let current = "0.1"
    /// mpv's `mpv-version`, as Reel answers it: Reel's own, saying what it speaks.
    public static var mpvVersion: String { "reel \(current) (mpv JSON IPC compatible)" }
}

/// The properties of the session as a whole: the transport through the one command target
/// (`time-pos`, `pause`, `playlist-pos`), and what the snapshot says of the queue and the item
/// (read-only: the duration, the playlist, mpv's `filename`, `path`, `media-title`,
/// `percent-pos`, `time-remaining`, `idle-active`, `eof-reached`). The engine's features and the
/// app's components declare the rest.
@MainActor
public enum PlaybackProperties {
    /// The most entries `playlist` answers in one reply.
    public static let playlistWholeLimit = 10_000

    public static func declare(in table: PropertyTable, target: PlaybackCommandTarget) {
        weak let t = target
        func loaded() throws -> PlaybackCommandTarget {
            guard let t, t.snapshot.index != nil else { throw IPCError(.unavailable, "Nothing is loaded.") }
            return t
        }
        table.declare("transport", [
            .number("time-pos", NumberSpec(range: 0...BoundedNumber.maximumSeconds, unit: "s"), "The position (set: an exact seek there).",
                    aliases: ["position"], get: { $0.position }) { try loaded().seek(to: $0, mode: .accurate) },
            .flag("pause", "Paused (or asked to be).", get: { !$0.wantsToPlay }) { $0 ? t?.pause() : t?.play() },
            .number("playlist-pos", NumberSpec(range: 0...Double(Int32.max), whole: true), "The current entry's index (set: play it).",
                    aliases: ["index"], get: { $0.index.map(Double.init) }) { i in
                guard let t, t.jump(to: Int(i)) else {
                    throw IPCError(.unavailable, "There is no item \(Int(i)) (the queue has \(t?.snapshot.items.count ?? 0)).")
                }
            },
        ])
        declareItem(in: table)
        declarePlaylist(in: table)
    }

    /// What the snapshot says of the current item.
    static func declareItem(in table: PropertyTable) {
        table.declare("snapshot", [
            .number("duration", NumberSpec(range: nil, unit: "s"), "The item's duration (null: not known, or live).", get: { $0.duration }),
            .number("percent-pos", NumberSpec(range: 0...100, unit: "%"), "The position as a percentage of the duration.", get: { s in
                s.duration.flatMap { d in d > 0 ? min(100, max(0, s.position / d * 100)) : nil }
            }),
            .number("time-remaining", NumberSpec(range: nil, unit: "s"), "The duration minus the position.", get: { s in
                s.duration.map { max(0, $0 - s.position) }
            }),
            .text("status", "unknown, readyToPlay or failed.", get: { $0.status.name }),
            .text("time-control", "playing, paused or waiting.", get: { $0.timeControl.name }),
            .flag("seeking", "A seek is in flight.", get: { $0.isSeeking }),
            .flag("seekable", "The item can seek.", get: { $0.mediaInfo.isSeekable }),
            .flag("idle", "Nothing is current (Reel's name).", get: { $0.index == nil }),
            .flag("idle-active", "Nothing is current (mpv's name).", get: { $0.index == nil }),
            .flag("eof-reached", "The item played to its end and rests there.", get: { $0.reachedEnd }),
            .text("uri", "The current item's URI (credentials masked).", get: { $0.current.map { Redactor.redactURL($0.uri) } }),
            .text("path", "The current item as mpv says it: a local file's path, else its URL (masked).", get: { $0.current.map { path(of: $0.uri) } }),
            .text("filename", "The current item's file name (a URL's last part).", get: { $0.current.map { MediaLocator.displayName(of: $0.uri) } }),
            .text("title", "The item's title (its tag, else the queue's).", get: { $0.mediaInfo.title ?? $0.current?.title }),
            .text("media-title", "mpv's: the title tag, else the file name.", get: { s in
                s.mediaInfo.title ?? s.current?.title ?? s.current.map { MediaLocator.displayName(of: $0.uri) }
            }),
            .value("media-info", "Size, codecs, decoders, live, seekable, the rendition.", get: { s in
                let m = s.mediaInfo
                return .object([("width", .optional(m.width)), ("height", .optional(m.height)), ("videoCodec", .optional(m.videoCodec)),
                                ("audioCodec", .optional(m.audioCodec)), ("title", .optional(m.title)), ("live", .bool(m.isLive)),
                                ("seekable", .bool(m.isSeekable)), ("videoDecoder", .optional(m.videoDecoder)),
                                ("audioDecoder", .optional(m.audioDecoder)), ("hardware", .optional(m.hardwareDecoding)),
                                ("rendition", s.renditions.isEmpty ? .null : rendition(s))])
            }),
            .number("behind-live-edge", NumberSpec(range: nil, unit: "s"), "How far a live item plays behind its edge.", get: { $0.behindLiveEdge }),
            .value("live-window", "A live item's seekable window on the position scale.", get: { $0.liveWindow.map(EventEncoder.windowObject) ?? .null }),
            .number("epoch-time", NumberSpec(range: nil, unit: "s"), "The wall-clock time of the frame shown (live).", get: { $0.epochTime }),
            .text("live-mode", "live, restart or catchup.", get: { $0.liveMode?.rawValue }),
            .value("program", "A live programme's start and end.", get: { s in
                guard let program = s.program, let start = program.isoStart else { return .null }
                return .object([("start", .string(start)), ("end", .optional(program.isoEnd))])
            }),
            .value("network", "available, metered, connectivity.", get: { s in
                .object([("available", .bool(s.network.available)), ("metered", .bool(s.network.metered)),
                         ("connectivity", .string(s.network.connectivity.rawValue))])
            }),
            .value("stats", "What the stats overlay shows.", get: { PlaybackStats($0).json }),
            .value("qoe", "The item's quality of experience so far.", get: { $0.index == nil ? .null : $0.qoe.json }),
            .value("renditions", "An adaptive stream's renditions.", get: { s in
                .array(s.renditions.enumerated().map { i, v in
                    .object([("index", .int(i)), ("width", .optional(v.resolution?.width)), ("height", .optional(v.resolution?.height)),
                             ("bandwidth", .optional(v.bandwidth)), ("averageBandwidth", .optional(v.averageBandwidth)),
                             ("codecs", .array(v.codecs.map(JSONValue.string))), ("frameRate", .optional(v.frameRate))])
                })
            }),
            .text("mpv-version", "Reel's version, as mpv's clients ask it.", get: { _ in ReelVersion.mpvVersion }),
        ])
    }

    /// The queue: its count, the whole list up to `playlistWholeLimit`, and mpv's paging
    /// `playlist/N` and `playlist/N/filename|title|id|current|playing`.
    static func declarePlaylist(in table: PropertyTable) {
        table.declare("queue", [
            .number("playlist-count", NumberSpec(range: 0...Double(Int.max), whole: true), "The number of entries.", aliases: ["count"],
                    get: { Double($0.items.count) }),
            .value("playlist", "Every entry (up to 10,000; then page with playlist/N).", get: { s in
                // Whole only up to the limit: past it one reply would hold the client (and the
                // main thread) for seconds; paging is `playlist/N` (mpv's name).
                guard s.items.count <= playlistWholeLimit else {
                    throw IPCError(.unavailable, "The playlist has \(s.items.count) entries, more than \(playlistWholeLimit) in one reply: ask playlist-count, then playlist/N for each entry.")
                }
                return .array(s.items.indices.map { entry(s, $0) })
            }),
        ])
        table.declareFamily("playlist") { name, s in
            guard let page = playlistEntry(name) else { return nil }
            guard s.items.indices.contains(page.index) else { throw IPCError(.invalidArgument, "No entry \(page.index): the playlist has \(s.items.count).") }
            let whole = entry(s, page.index)
            guard let field = page.field else { return whole }
            switch field {
            case "filename": return .string(path(of: s.items[page.index].uri))
            case "playing": return .bool(page.index == s.index)
            default:
                guard case .object(let pairs) = whole else { return .null }
                return pairs.first { $0.0 == field }?.1 ?? .null
            }
        }
    }

    /// `playlist/N` and `playlist/N/FIELD`: mpv's paging of the playlist, one entry per request.
    public static func playlistEntry(_ name: String) -> (index: Int, field: String?)? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[0] == "playlist", parts[1].count <= 9, parts[1].allSatisfy(\.isASCII),
              let index = Int(parts[1]), index >= 0 else { return nil }
        guard parts.count == 3 else { return (index, nil) }
        guard ["filename", "title", "id", "current", "playing"].contains(String(parts[2])) else { return nil }
        return (index, String(parts[2]))
    }

    /// One queue entry as `playlist` and `playlist/N` give it (`filename` as mpv's `path`).
    static func entry(_ s: PlaybackSnapshot, _ i: Int) -> JSONValue {
        let e = s.items[i]
        return .object([("index", .int(i)), ("id", .optional(e.id)), ("uri", .string(Redactor.redactURL(e.uri))), ("filename", .string(path(of: e.uri))),
                        ("title", .optional(e.title)), ("current", .bool(i == s.index))])
    }

    /// `rendition`, declared by whoever owns the quality choice (the queue's `QualityController`):
    /// it reads the rendition playing, and takes auto, a height, an index or a limit.
    public static func rendition(set: @escaping (QualityChoice) -> Void) -> Property {
        Property("rendition", kind: .text, summary: "The quality: auto, 720p, an index, max-height=N or max-bitrate=BPS (reads the rendition playing).",
                 read: { rendition($0) }) { value in
            guard let choice = QualityChoice(value.text) else {
                throw IPCError(.invalidArgument, "“rendition” takes auto, a height such as 720p, an index, max-height=N or max-bitrate=BPS.")
            }
            set(choice)
        }
    }

    /// An item as mpv names it: a local file's path (not a `file://` URI), else the URL, masked.
    public static func path(of uri: String) -> String {
        MediaLocator.localPath(of: uri) ?? Redactor.redactURL(uri)
    }

    /// The rendition playing (`rendition`, and inside `media-info`): the one pinned by the user
    /// or by Reel's adaptive rule, and the mode.
    public static func rendition(_ s: PlaybackSnapshot) -> JSONValue {
        let pinned = s.pinnedRendition.flatMap { s.renditions.indices.contains($0) ? s.renditions[$0] : nil }
        return .object([("index", .optional(s.pinnedRendition)), ("height", .optional(pinned?.resolution?.height)),
                        ("bandwidth", .optional(pinned?.bandwidth)), ("mode", .string(s.quality.isManual ? "manual" : "auto")),
                        ("choice", .string(s.quality.description))])
    }
}
