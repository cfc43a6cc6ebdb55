import Foundation

/// Runs control-socket requests against a `PlaybackCommandTarget` and writes the replies:
/// `{"request_id":…,"error":"success","data":…}` or `{"request_id":…,"error":"<code>","message":"…"}`.
/// Never throws and never traps on input: every line gets exactly one reply.
@MainActor
public final class IPCDispatcher {
    public let target: PlaybackCommandTarget
    /// Where `["screenshot"]` writes, named by `template` (see `CaptureFileName`).
    public var screenshotDirectory: URL
    public var template: String

    /// Commands components added (`IPCCommandRegistry`), shared by every dispatcher of a session.
    public let registry: IPCCommandRegistry

    public init(target: PlaybackCommandTarget, screenshotDirectory: URL, template: String = CaptureFileName.defaultTemplate,
                registry: IPCCommandRegistry = IPCCommandRegistry()) {
        self.target = target
        self.registry = registry
        self.screenshotDirectory = screenshotDirectory
        self.template = template
    }

    nonisolated public static func successLine(id: JSONValue, data: JSONValue = .null) -> String {
        JSONValue.object([("request_id", id), ("error", .string("success")), ("data", data)]).serialized()
    }

    nonisolated public static func errorLine(id: JSONValue, error: IPCError) -> String {
        JSONValue.object([("request_id", id), ("error", .string(error.code.rawValue)), ("message", .string(Redactor.redactText(error.message)))]).serialized()
    }

    /// Handles one line; `reply` is called exactly once (later, for screenshots).
    public func handle(_ line: String, reply: @escaping @MainActor (String) -> Void) {
        switch IPCRequest.parse(line, registered: registry.names) {
        case .failure(let f):
            reply(Self.errorLine(id: f.id, error: f.error))
        case .success(let request):
            run(request, reply: reply)
        }
    }

    public func run(_ request: IPCRequest, reply: @escaping @MainActor (String) -> Void) {
        let id = request.id
        do {
            switch request.command {
            case .screenshot(let path, let source):
                screenshot(path: path, source: source) { result in
                    switch result {
                    case .success(let data): reply(Self.successLine(id: id, data: data))
                    case .failure(let e): reply(Self.errorLine(id: id, error: e))
                    }
                }
            case .quit(let status):
                reply(Self.successLine(id: id))
                target.quit(status: status)
            default:
                reply(Self.successLine(id: id, data: try execute(request.command)))
            }
        } catch let e as IPCError {
            reply(Self.errorLine(id: id, error: e))
        } catch {
            reply(Self.errorLine(id: id, error: IPCError(.unavailable, "\(error)")))
        }
    }

    /// Runs a synchronous command; returns the reply's data.
    func execute(_ command: IPCCommand) throws -> JSONValue {
        let t = target
        switch command {
        case .load(let uri, let options): t.load(uri, options: options)
        case .append(let uri, let options): t.append(uri, options: options)
        case .play: t.play()
        case .pause: t.pause()
        case .toggle: t.toggle()
        case .stop: t.stop()
        case .seek(let value, let reference, let mode):
            let s = t.snapshot
            guard s.index != nil else { throw IPCError(.unavailable, "Nothing is loaded.") }
            let target: Double
            switch reference {
            case .absolute: target = value
            case .relative: target = s.position + value
            case .absolutePercent, .relativePercent:
                guard let d = s.duration, d > 0 else { throw IPCError(.unavailable, "The item has no known duration: seek by seconds instead.") }
                target = reference == .absolutePercent ? d * value / 100 : s.position + d * value / 100
            }
            t.seek(to: target, mode: mode)
        case .skip(let delta):
            guard t.snapshot.index != nil else { throw IPCError(.unavailable, "Nothing is loaded.") }
            t.skip(by: delta)
        case .liveEdge:
            guard t.seekToLiveEdge() else { throw IPCError(.unavailable, "The item is not live (or has no seekable window yet).") }
        case .frameStep(let forward):
            guard t.stepFrame(forward: forward) else { throw IPCError(.unavailable, "Nothing has started playing yet: there is no frame to step from.") }
        case .subAdd(let path):
            guard t.addSubtitleFile(path) else { throw IPCError(.unavailable, "Nothing is loaded (or this session draws no subtitles): the file was not added.") }
        case .rate(let r):
            guard t.setRate(r) else { throw IPCError(.unavailable, "The rate \(r) was refused (nothing loaded yet, or the source cannot play at it).") }
        case .volume(let v): t.setVolume(v / 100)
        case .mute(let m): t.setMuted(m ?? !t.snapshot.muted)
        case .next:
            guard t.next() else { throw IPCError(.unavailable, "There is no next item.") }
        case .previous:
            guard t.previous() else { throw IPCError(.unavailable, "There is no previous item.") }
        case .jump(let i):
            guard t.jump(to: i) else { throw IPCError(.unavailable, "There is no item \(i) (the queue has \(t.snapshot.items.count)).") }
        case .move(let from, let to):
            let count = t.snapshot.items.count
            guard from < count, to <= count else { throw IPCError(.unavailable, "There is no item \(max(from, to)) (the queue has \(count)).") }
            guard t.moveItem(from: from, to: to) else { throw IPCError(.unavailable, "This session has no queue to edit.") }
        case .remove(let index):
            let count = t.snapshot.items.count
            guard let i = index ?? t.snapshot.index, i < count else {
                throw IPCError(.unavailable, index == nil ? "Nothing is current." : "There is no item \(index ?? 0) (the queue has \(count)).")
            }
            guard t.removeItem(at: i) else { throw IPCError(.unavailable, "This session has no queue to edit.") }
        case .item(let action, let reference):
            let items = t.snapshot.items
            let index: Int? = switch reference {
            case .index(let i): items.indices.contains(i) ? i : nil
            case .id(let id): items.firstIndex { $0.id == id }
            }
            guard let index, t.item(action, at: index) else {
                throw IPCError(.unavailable, "There is no such item (the queue has \(items.count); give an index or an id from “playlist”).")
            }
        case .getProperty(let name):
            return try property(name)
        case .setProperty(let name, let value):
            try setProperty(name, value)
        case .cycle(let name, let backwards):
            try cycle(name, backwards: backwards)
        case .add(let name, let step):
            try add(name, step)
        case .multiply(let name, let factor):
            try multiply(name, factor)
        case .cycleValues(let name, let values):
            let current = try property(name)
            let i = values.firstIndex { Self.sameValue($0, current) }
            try setProperty(name, i.map { values[($0 + 1) % values.count] } ?? values[0])
        case .abLoop:
            guard t.cycleABLoop() else { throw IPCError(.unavailable, "The A-B loop is not available in this session.") }
        case .registered(let name, let args):
            guard let run = registry.command(name) else { throw IPCError(.unknownCommand, "Unknown command “\(name)”.") }
            return try run(args)
        case .screenshot, .quit:
            break  // handled in run
        }
        return .null
    }

    /// The most entries `playlist` answers in one reply.
    public static let playlistWholeLimit = 10_000

    /// One queue entry as `playlist` and `playlist/N` give it.
    static func entry(_ s: PlaybackSnapshot, _ i: Int) -> JSONValue {
        let e = s.items[i]
        return .object([("index", .int(i)), ("id", .optional(e.id)), ("uri", .string(Redactor.redactURL(e.uri))), ("title", .optional(e.title)),
                        ("current", .bool(i == s.index))])
    }

    public func property(_ name: String) throws -> JSONValue {
        let s = target.snapshot
        // `playlist/N` (mpv's paging): one entry; `playlist/N/filename`, `…/title`, `…/current`, `…/id`.
        if let page = IPCCommand.playlistEntry(name) {
            guard s.items.indices.contains(page.index) else { throw IPCError(.invalidArgument, "No entry \(page.index): the playlist has \(s.items.count).") }
            let entry = Self.entry(s, page.index)
            guard let field = page.field else { return entry }
            guard case .object(let pairs) = entry, let value = pairs.first(where: { $0.0 == (field == "filename" ? "uri" : field) })?.1 else { return .null }
            return value
        }
        switch name {
        case "position", "time-pos": return .double(s.position)
        case "duration": return .optional(s.duration)
        case "pause": return .bool(!s.wantsToPlay)
        case "volume": return .double(s.volume * 100)
        case "mute": return .bool(s.muted)
        case "speed", "rate": return .double(s.rate)
        case "status": return .string(s.status.name)
        case "time-control": return .string(s.timeControl.name)
        case "index", "playlist-pos": return .optional(s.index)
        case "count", "playlist-count": return .int(s.items.count)
        case "playlist":
            // Whole only up to `playlistWholeLimit` entries: past it one reply would hold the
            // client (and the main thread) for seconds; paging is `playlist/N` (mpv's name).
            guard s.items.count <= Self.playlistWholeLimit else {
                throw IPCError(.unavailable, "The playlist has \(s.items.count) entries, more than \(Self.playlistWholeLimit) in one reply: ask playlist-count, then playlist/N for each entry.")
            }
            return .array(s.items.indices.map { Self.entry(s, $0) })
        case "uri", "path": return s.current.map { .string(Redactor.redactURL($0.uri)) } ?? .null
        case "title": return .optional(s.mediaInfo.title ?? s.current?.title)
        case "media-info":
            let m = s.mediaInfo
            return .object([("width", .optional(m.width)), ("height", .optional(m.height)), ("videoCodec", .optional(m.videoCodec)),
                            ("audioCodec", .optional(m.audioCodec)), ("title", .optional(m.title)), ("live", .bool(m.isLive)),
                            ("seekable", .bool(m.isSeekable)), ("videoDecoder", .optional(m.videoDecoder)),
                            ("audioDecoder", .optional(m.audioDecoder)), ("hardware", .optional(m.hardwareDecoding)), ("rendition", s.renditions.isEmpty ? .null : Self.rendition(s))])
        case "seekable": return .bool(s.mediaInfo.isSeekable)
        case "behind-live-edge": return .optional(s.behindLiveEdge)
        case "live-window": return s.liveWindow.map(EventEncoder.windowObject) ?? .null
        case "epoch-time": return .optional(s.epochTime)
        case "live-mode": return s.liveMode.map { .string($0.rawValue) } ?? .null
        case "program":
            guard let program = s.program, let start = program.isoStart else { return .null }
            return .object([("start", .string(start)), ("end", .optional(program.isoEnd))])
        case "seeking": return .bool(s.isSeeking)
        case "idle": return .bool(s.index == nil)
        case "loop": return .string(s.loop.rawValue)
        case "shuffle": return .bool(s.shuffle)
        case "network":
            return .object([("available", .bool(s.network.available)), ("metered", .bool(s.network.metered)),
                            ("connectivity", .string(s.network.connectivity.rawValue))])
        case "metered-policy": return .string(s.meteredPolicy.rawValue)
        case "aspect": return .string(s.aspectMode.rawValue)
        case "chapter-list": return EventEncoder.chapterList(s.chapters)
        case "chapter": return .optional(s.chapter)
        case "chapters": return .int(s.chapters.count)
        case "ab-loop-a": return s.abLoop.a.map(JSONValue.double) ?? .string("no")
        case "ab-loop-b": return s.abLoop.b.map(JSONValue.double) ?? .string("no")
        case "loop-file": return .string(s.loop == .track ? "inf" : "no")
        case "audio-delay": return .double(s.audioDelay)
        case "stats": return PlaybackStats(s).json
        case "video-rotate": return .int(s.videoGeometry.rotate)
        case "video-zoom": return .double(s.videoGeometry.zoom)
        case "video-pan-x": return .double(s.videoGeometry.panX)
        case "video-pan-y": return .double(s.videoGeometry.panY)
        case "volume-max": return .double((s.volumeMax * 100).rounded())
        case "brightness", "contrast", "saturation", "gamma", "hue":
            return .int(PictureAdjustments.Control(rawValue: name).map { s.picture[$0] } ?? 0)
        case "hwdec": return .string(s.hardwareDecoding.rawValue)
        case "fullscreen": return target.isFullscreen.map(JSONValue.bool) ?? .null
        case "tracks": return EventEncoder.trackList(s.tracks, selected: s.selectedStreams)
        case "audio-track": return .optional(s.tracks.filter { $0.kind == .audio }.firstIndex { $0.id == s.audioTrack })
        case "subtitle-track": return .optional(s.tracks.filter { $0.kind == .subtitle }.firstIndex { $0.id == s.subtitleTrack })
        case "sub-visibility": return .bool(s.subtitlesShown)
        case "sub-scale": return .double(s.subtitleLook.scale)
        case "sub-delay": return .double(s.subtitleLook.delay)
        case "sub-pos": return .int(s.subtitleLook.position)
        case "sub-text": return .optional(s.subtitleText)
        case "qoe": return s.index == nil ? .null : s.qoe.json
        case "renditions":
            return .array(s.renditions.enumerated().map { i, v in
                .object([("index", .int(i)), ("width", .optional(v.resolution?.width)), ("height", .optional(v.resolution?.height)),
                         ("bandwidth", .optional(v.bandwidth)), ("averageBandwidth", .optional(v.averageBandwidth)),
                         ("codecs", .array(v.codecs.map(JSONValue.string))), ("frameRate", .optional(v.frameRate))])
            })
        case "rendition": return Self.rendition(s)
        default: throw IPCError(.unknownProperty, "No property “\(name)”.")
        }
    }

    /// The rendition playing (`rendition`, and inside `media-info`): the one pinned by the user
    /// or by Reel's adaptive rule, and the mode.
    static func rendition(_ s: PlaybackSnapshot) -> JSONValue {
        let pinned = s.pinnedRendition.flatMap { s.renditions.indices.contains($0) ? s.renditions[$0] : nil }
        return .object([("index", .optional(s.pinnedRendition)), ("height", .optional(pinned?.resolution?.height)),
                        ("bandwidth", .optional(pinned?.bandwidth)), ("mode", .string(s.quality.isManual ? "manual" : "auto")),
                        ("choice", .string(s.quality.description))])
    }

    public func setProperty(_ name: String, _ value: JSONValue) throws {
        func number() throws -> Double {
            guard let d = value.ipcNumber, d.isFinite else { throw IPCError(.invalidArgument, "“\(name)” takes a number.") }
            return d
        }
        func bool() throws -> Bool {
            // mpv's flags, as input.conf writes them: yes/no (true/false too).
            let word: Bool? = switch value.ipcString?.lowercased() {
            case "yes", "true": true
            case "no", "false": false
            default: nil
            }
            guard let b = value.ipcBool ?? word else { throw IPCError(.invalidArgument, "“\(name)” takes true or false.") }
            return b
        }
        switch name {
        case "position", "time-pos": _ = try execute(.seek(try number(), .absolute, .accurate))
        case "pause": try bool() ? target.pause() : target.play()
        case "volume": _ = try execute(.volume(try IPCNumbers.volume(try number())))
        case "mute": target.setMuted(try bool())
        case "speed", "rate":
            let r = try number()
            guard BoundedNumber.isPlayableRate(r) else { throw IPCError(.invalidArgument, "“\(name)” must be from 1/64 to 64 in size (negative plays backwards).") }
            _ = try execute(.rate(r))
        case "index", "playlist-pos":
            guard let i = BoundedNumber.wholeNumber(try number()) else {
                throw IPCError(.invalidArgument, "“\(name)” takes a whole number from 0 to \(Int32.max).")
            }
            _ = try execute(.jump(i))
        case "loop":
            guard let text = value.ipcString, let mode = PlaybackSnapshot.LoopMode.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
                throw IPCError(.invalidArgument, "“loop” takes None, Track or Playlist.")
            }
            guard target.setLoop(mode) else { throw IPCError(.unavailable, "Looping is not available in this session.") }
        case "shuffle":
            guard target.setShuffle(try bool()) else { throw IPCError(.unavailable, "Shuffle is not available in this session.") }
        case "rendition":
            let text = value.ipcString ?? value.ipcNumber.flatMap { BoundedNumber.wholeNumber($0) }.map { String($0) } ?? ""
            guard let choice = QualityChoice(text) else {
                throw IPCError(.invalidArgument, "“rendition” takes auto, a height such as 720p, an index, max-height=N or max-bitrate=BPS.")
            }
            guard target.setQuality(choice) else { throw IPCError(.unavailable, "Renditions cannot be chosen in this session.") }
        case "metered-policy":
            guard let text = value.ipcString?.lowercased(), let policy = MeteredPolicy(rawValue: text) else {
                throw IPCError(.invalidArgument, "“metered-policy” takes allow, cap or block.")
            }
            guard target.setMeteredPolicy(policy) else { throw IPCError(.unavailable, "The metered policy is not available in this session.") }
        case "audio-track", "subtitle-track":
            let kind: MediaTrack.Kind = name == "audio-track" ? .audio : .subtitle
            let index: Int?
            if kind == .subtitle, value == .null || ["no", "off"].contains(value.ipcString?.lowercased() ?? "") || value.ipcNumber == -1 {
                index = nil
            } else if let n = value.ipcNumber, let i = BoundedNumber.wholeNumber(n) {
                index = i
            } else {
                throw IPCError(.invalidArgument, "“\(name)” takes a track index from “tracks”\(kind == .subtitle ? " or no" : "").")
            }
            guard target.selectTrack(kind, index: index) else { throw IPCError(.unavailable, "There is no such \(kind.rawValue) track (see “tracks”).") }
        case "sub-visibility":
            guard target.setSubtitlesShown(try bool()) else { throw IPCError(.unavailable, "Subtitles are not available in this session.") }
        case "sub-scale":
            guard target.setSubtitleScale(try number()) else { throw IPCError(.unavailable, "Subtitles are not available in this session.") }
        case "sub-delay":
            let delay = try number()
            guard SubtitleStyle.delayRange.contains(delay) else { throw IPCError(.invalidArgument, "“sub-delay” takes seconds within ±600.") }
            guard target.setSubtitleDelay(delay) else { throw IPCError(.unavailable, "Subtitles are not available in this session.") }
        case "sub-pos":
            let position = try IPCNumbers.subtitlePosition(try number())
            guard target.setSubtitlePosition(position) else { throw IPCError(.unavailable, "Subtitles are not available in this session.") }
        case "fullscreen":
            guard target.setFullscreen(try bool()) else { throw IPCError(.unavailable, "There is no window in this session (headless).") }
        case "aspect":
            guard let text = value.ipcString?.lowercased(), let mode = AspectMode(rawValue: text) else {
                throw IPCError(.invalidArgument, "“aspect” takes fit, fill or stretch.")
            }
            guard target.setAspectMode(mode) else { throw IPCError(.unavailable, "The aspect mode is not available in this session.") }
        case "ab-loop-a", "ab-loop-b":
            let point: Double?
            if value == .null || value.ipcString?.lowercased() == "no" {
                point = nil
            } else if let n = value.ipcNumber, let seconds = BoundedNumber.seconds(n) {
                point = seconds
            } else {
                throw IPCError(.invalidArgument, "“\(name)” takes seconds from 0, or no.")
            }
            var loop = target.snapshot.abLoop
            if name == "ab-loop-a" { loop.a = point } else { loop.b = point }
            guard target.setABLoop(loop) else { throw IPCError(.unavailable, "The A-B loop is not available in this session.") }
        case "loop-file":
            let on: Bool
            switch value.ipcString?.lowercased() {
            case "inf", "yes": on = true
            case "no": on = false
            default:
                guard let b = value.ipcBool else { throw IPCError(.invalidArgument, "“loop-file” takes inf or no.") }
                on = b
            }
            guard target.setLoop(on ? .track : .none) else { throw IPCError(.unavailable, "Looping is not available in this session.") }
        case "video-rotate":
            guard let n = value.ipcNumber, let r = BoundedNumber.wholeNumber(n), VideoGeometry.rotations.contains(r) else {
                throw IPCError(.invalidArgument, "“video-rotate” takes 0, 90, 180 or 270.")
            }
            var g = target.snapshot.videoGeometry
            g.rotate = r
            guard target.setVideoGeometry(g) else { throw IPCError(.unavailable, "The picture cannot be turned in this session.") }
        case "video-zoom", "video-pan-x", "video-pan-y":
            let n = try number()
            let range = name == "video-zoom" ? VideoGeometry.zoomRange : VideoGeometry.panRange
            guard range.contains(n) else { throw IPCError(.invalidArgument, "“\(name)” takes \(range.lowerBound) to \(range.upperBound).") }
            var g = target.snapshot.videoGeometry
            switch name {
            case "video-zoom": g.zoom = n
            case "video-pan-x": g.panX = n
            default: g.panY = n
            }
            guard target.setVideoGeometry(g) else { throw IPCError(.unavailable, "The picture cannot be zoomed in this session.") }
        case "audio-delay":
            let delay = try number()
            guard (-600...600).contains(delay) else { throw IPCError(.invalidArgument, "“audio-delay” takes seconds within ±600.") }
            guard target.setAudioDelay(delay) else { throw IPCError(.unavailable, "The audio delay is not available in this session.") }
        case "brightness", "contrast", "saturation", "gamma", "hue":
            guard let control = PictureAdjustments.Control(rawValue: name), let n = value.ipcNumber, let v = BoundedNumber.wholeNumber(abs(n)),
                  PictureAdjustments.range.contains(n < 0 ? -v : v) else {
                throw IPCError(.invalidArgument, "“\(name)” takes a whole number from -100 to 100.")
            }
            guard target.setPicture(control, to: n < 0 ? -v : v) else { throw IPCError(.unavailable, "Picture controls are not available in this session.") }
        case "chapter":
            guard let i = value.ipcNumber.flatMap({ BoundedNumber.wholeNumber($0) }) else {
                throw IPCError(.invalidArgument, "“chapter” takes a chapter index from “chapter-list”.")
            }
            guard target.selectChapter(i) else { throw IPCError(.unavailable, "There is no such chapter (see “chapter-list”).") }
        case "hwdec":
            guard let text = value.ipcString, let mode = HardwareDecodingMode(argument: text) else {
                throw IPCError(.invalidArgument, "“hwdec” takes auto or no.")
            }
            guard target.setHardwareDecoding(mode) else { throw IPCError(.unavailable, "Hardware decoding cannot be chosen in this session.") }
        default:
            throw IPCError(.readOnlyProperty, "The property “\(name)” is read-only.")
        }
    }

    private func screenshot(path: String?, source: IPCCommand.CaptureSource, completion: @escaping @MainActor (Result<JSONValue, IPCError>) -> Void) {
        let before = target.snapshot
        guard before.index != nil || source == .window else { completion(.failure(IPCError(.unavailable, "Nothing is loaded."))); return }
        let directory = screenshotDirectory
        let template = self.template
        let capture: (@escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void) -> Void =
            source == .window ? target.captureWindow : target.captureFrame
        capture { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let e):
                completion(.failure(IPCError(.captureFailed, e.message)))
            case .success(let frame):
                let s = self.target.snapshot
                let file: URL
                if let path {
                    file = URL(fileURLWithPath: path)
                } else {
                    do {
                        let title = CaptureFileName.title(for: s.current?.uri ?? "", tagTitle: s.mediaInfo.title)
                        let position = frame.time ?? s.position
                        let name = source == .window
                            ? try CaptureFileName.renderWindow(template, index: s.index, title: title, position: position)
                            : try CaptureFileName.render(template, index: s.index, title: title, position: position)
                        file = directory.appendingPathComponent(name)
                    } catch {
                        completion(.failure(IPCError(.invalidArgument, "\(error)")))
                        return
                    }
                }
                do {
                    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try frame.png.write(to: file, options: .atomic)
                } catch {
                    completion(.failure(IPCError(.ioError, "Could not write \(file.path): \(error.localizedDescription)")))
                    return
                }
                let size = frame.size
                completion(.success(.object([("file", .string(file.path)), ("time", .optional(frame.time)),
                                             ("width", .optional(size?.width)), ("height", .optional(size?.height)),
                                             ("index", .optional(s.index))])))
            }
        }
    }
}
