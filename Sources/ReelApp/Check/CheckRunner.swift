import Foundation
import ReelCore
import ReelEngine
import ReelUI
import ReelGLib

/// `reel check`: every item is loaded into a fresh headless player whose sinks do not sync to the
/// clock, so nothing plays in real time. Per item: time to the first frame (preroll), the media
/// facts, frames at the requested positions (accurate seeks while paused; the frame's own PTS is
/// recorded), then, unless `--frames-only`, a decode to the end as fast as the CPU allows, which
/// catches damage past the moov atom. Writes report.json, contact-sheet.png and index.html.
@MainActor
final class CheckRunner {
    struct Options {
        var inputs: [String]
        var reportDirectory: URL
        var positions: [CapturePosition]
        var template: String
        var decodeToEnd: Bool
        var itemTimeout: Double
        /// How long a local file may take to open (probe, first frame) before it counts as damaged.
        var openTimeout: Double
        /// Headers, tokens and the rest for network items (through the gateway when active).
        var protected: ProtectedStreamSettings
        var log: (String) -> Void
        /// Only this shard's items (`--shard K/N`); nil: all.
        var shard: CheckShard?
        /// Also write the report as JUnit XML here (`--junit FILE`).
        var junit: URL?
        /// Every variant of an HLS master as an item of its own (`--renditions all`).
        var allRenditions = false
        /// `--picture-audit`: every item's photographed frames checked for black and frozen and its
        /// sound for silence, as `--renditions all` checks each rendition (`RenditionAudit`).
        var pictureAudit = false
        /// `--hwdec`.
        var hardwareDecoding: HardwareDecodingMode = .auto
        /// `--video-sink`: the sink decoded into (a fakesink that keeps its last frame otherwise).
        var videoSink: String?
        /// `--golden DIR` (with `--golden-threshold`, `--update-golden`).
        var golden: GoldenComparison.Options?
        /// `--watch SECONDS`: follow each live HLS item that long (`LiveWatcher`), photographing
        /// it every `watchFrames` seconds (0: never).
        var watch: Double?
        var watchFrames: Double = 10
        /// `--scenario`: the first whose `items` patterns match an item is played on it.
        var scenarios: [CheckScenario] = []
        /// `--max-startup` and the rest (an entry's own options over them).
        var thresholds = CheckThresholds()
        /// `--known FILE`.
        var known: KnownProblems?
        /// `--plan FILE`: which items the shard checks (else by modulo).
        var plan: CheckPlan?
    }

    let options: Options
    private let router: GatewayRouter
    /// With `--record`: each item's player events, in `--events`' form, into the recording's
    /// events.jsonl (a check prints no event stream of its own).
    private let recordedEvents: EventPrinter?

    init(options: Options) {
        self.options = options
        router = GatewayRouter(settings: options.protected)
        recordedEvents = router.recorder.map { recorder in EventPrinter(includeFineProgress: false, write: { recorder.recordEvent($0) }) }
    }

    func run() throws -> CheckReport {
        let started = Date()
        defer { router.shutdown() }
        let dir = options.reportDirectory
        let framesDir = dir.appendingPathComponent("frames", isDirectory: true)
        try FileManager.default.createDirectory(at: framesDir, withIntermediateDirectories: true)
        var items: [CheckReport.Item] = []
        let entries = CheckInputs.expand(options.inputs, router: router, renditions: options.allRenditions)
        if let plan = options.plan, plan.inputs.count != entries.count {
            throw CheckReport.DecodingError(description: "the plan is for \(plan.inputs.count) items, the inputs expand to \(entries.count)")
        }
        for (index, entry) in entries.enumerated() where owns(index) {
            let item = check(entry, index: index, framesDir: framesDir)
            let firstProblem = item.problems.first { $0.severity == .error }
            options.log(item.ok ? "ok      \(index) \(item.title)"
                        : "FAILED  \(index) \(item.title): \(item.error?.code ?? firstProblem?.code ?? "?"): \(item.error?.message ?? firstProblem?.message ?? "")")
            items.append(item)
        }
        if let golden = options.golden, !golden.update {
            items = try GoldenComparison.compare(items, reportDirectory: dir, options: golden)
            for item in items {
                for f in item.frames {
                    guard let g = f.golden else { continue }
                    options.log(String(format: "golden  %d %@ at %@: SSIM %.3f, worst tile %.3f%@", item.index, item.title, f.requested, g.ssim, g.worstTile, g.same ? "" : " — DIFFERS"))
                }
            }
        }
        var report = CheckReport(items: items, positions: options.positions.map(\.description), generated: started)
        report.wallSeconds = Date().timeIntervalSince(started)
        try Self.write(report, to: dir, junit: options.junit, log: options.log)
        if let golden = options.golden, golden.update {
            try GoldenComparison.store(reportDirectory: dir, options: golden, shard: options.shard)
            options.log("golden  frames stored in \(golden.directory.path)")
        }
        return report
    }

    private func owns(_ index: Int) -> Bool {
        guard let shard = options.shard else { return true }
        if let plan = options.plan { return plan.shard(of: index) == shard.index }
        return shard.owns(index)
    }

    /// Writes report.json, the contact sheet, index.html and (when asked) the JUnit file.
    static func write(_ report: CheckReport, to dir: URL, junit: URL?, log: (String) -> Void) throws {
        var report = report
        let sheetName = "contact-sheet.png"
        if report.contactSheet == nil {
            do {
                try ContactSheetRenderer.render(report.items.map { row(for: $0, in: dir) }, to: dir.appendingPathComponent(sheetName).path)
                report.contactSheet = sheetName
            } catch {
                log("reel check: the contact sheet could not be drawn: \(error)")
            }
        }
        try Data(report.jsonText.utf8).write(to: dir.appendingPathComponent("report.json"), options: .atomic)
        try Data(CheckReportHTML.render(report).utf8).write(to: dir.appendingPathComponent("index.html"), options: .atomic)
        if let junit { try Data(CheckJUnit.render(report).utf8).write(to: junit, options: .atomic) }
    }

    static func row(for item: CheckReport.Item, in dir: URL) -> ContactSheetRenderer.Row {
        var details: [String] = ["#\(item.index)  \(TimeFormat.clock(item.duration))"]
        if let w = item.width, let h = item.height { details[0] += "  \(w)×\(h)" }
        if let v = item.videoCodec { details.append("video: \(v)") }
        if let a = item.audioCodec { details.append("audio: \(a)") }
        if let t = item.timeToFirstFrame { details.append(String(format: "first frame: %.0f ms", t * 1000)) }
        details.append(Redactor.redactURL(item.input))
        let thumbs = item.frames.flatMap { f in
            var row = [ContactSheetRenderer.Thumbnail(path: f.file.map { dir.appendingPathComponent($0).path },
                                                      caption: f.time.map { "\(f.requested) · \(TimeFormat.clock($0)) (\(String(format: "%.3f", $0)) s)" } ?? "\(f.requested): \(f.problem ?? "no frame")")]
            // A frame that differs from its golden one: the golden frame and the diff beside it.
            if let g = f.golden, !g.same {
                row.append(.init(path: dir.appendingPathComponent(g.file).path, caption: "\(f.requested) · golden"))
                row.append(.init(path: g.diff.map { dir.appendingPathComponent($0).path }, caption: String(format: "DIFFERS · SSIM %.3f, worst tile %.3f", g.ssim, g.worstTile)))
            }
            return row
        }
        return .init(title: item.title, details: details.joined(separator: "\n"),
                     failure: item.error.map { "\($0.code): \(Redactor.redactText($0.message))" }
                        ?? item.problems.first { $0.severity == .error }.map { "\($0.code): \(Redactor.redactText($0.message))" },
                     thumbnails: thumbs)
    }

    private func check(_ entry: CheckInputs.Entry, index: Int, framesDir: URL) -> CheckReport.Item {
        let started = Date()
        var item = checkItem(entry, index: index, framesDir: framesDir)
        item.checkSeconds = Date().timeIntervalSince(started)
        return options.known?.apply(to: item) ?? item
    }

    private func checkItem(_ entry: CheckInputs.Entry, index: Int, framesDir: URL) -> CheckReport.Item {
        let uri = MediaLocator.uri(for: entry.input)
        var item = CheckReport.Item(index: index, input: entry.input, uri: uri, title: entry.title ?? CaptureFileName.title(for: uri))
        if let error = entry.error {
            item.error = error
            item.frames = options.positions.map { .init(requested: $0.description, problem: "not checked") }
            return item
        }
        // The probe first (GstDiscoverer, a few ms locally): what cannot be opened at all fails
        // here with a typed error. It also sidesteps a playbin3 race in which a demuxer's error
        // during autoplugging is lost and the pipeline never prerolls. Items that need headers
        // and tokens go through the gateway, the probe's requests too.
        let entryOptions: ProtectedEntryOptions
        do { entryOptions = try ProtectedEntryOptions(options: entry.options) } catch {
            item.error = PlaybackError(kind: .invalidPlaylist, message: error.description, uri: uri)
            return item
        }
        var playURI: String
        do { playURI = try router.uri(for: entry.input, arrival: entry.arrival, entry: entryOptions, representation: entry.representation) } catch {
            item.error = PlaybackError(kind: .network, message: "The protected-stream gateway could not start: \(error)", uri: uri)
            return item
        }
        defer { router.release(playURI) }  // its gateway URLs stop working once it is checked
        // What the player fetches says which rendition plays (items through the gateway); bound
        // before the probe, whose request for the master is the one the renditions come with.
        let renditions = CheckRenditions(router: router, playURI: playURI)
        defer { renditions.stop() }
        let probeTimeout = MediaLocator.localPath(of: uri) != nil ? options.openTimeout : min(options.itemTimeout, 20)
        var probe = MediaProbe.probe(playURI, timeout: probeTimeout)
        // A manifest told by its bytes (whatever its name) goes through the gateway's bounds; the
        // discoverer is never given a DASH one (its legacy dashdemux): the player's facts serve.
        if let content = probe.error?.refusedContent, content.isManifest {
            if !GatewayAddresses.contains(playURI), router.canRoute(content, uri: entry.input) {
                router.release(playURI)
                router.routeByContent(content, uri: entry.input)
                do { playURI = try router.uri(for: entry.input, arrival: entry.arrival, entry: entryOptions, representation: entry.representation) } catch {
                    item.error = PlaybackError(kind: .network, message: "The protected-stream gateway could not start: \(error)", uri: uri)
                    return item
                }
                renditions.rebind(playURI)
                probe = content == .hlsPlaylist ? MediaProbe.probe(playURI, timeout: probeTimeout) : MediaProbeResult(uri: playURI)
            } else if GatewayAddresses.contains(playURI) {
                probe = MediaProbeResult(uri: playURI)
            }
        }
        item.container = probe.container
        if let error = probe.error {
            item.error = router.refine(error, uri: playURI)
            item.duration = probe.duration
            item.frames = options.positions.map { .init(requested: $0.description, problem: "not captured: the item failed") }
            return item
        }
        let player: Player
        do {
            var configuration = PlayerConfiguration(audioSink: "fakesink sync=false", videoSink: options.videoSink ?? "fakesink sync=false qos=true enable-last-sample=true",
                                                    progressInterval: 0.1, endAction: .pause)
            configuration.preferences.hardwareDecoding = options.hardwareDecoding
            configuration.unroutedManifests = GatewayRouter.unroutedManifests
            player = try Player(configuration: configuration)
            if options.videoSink != nil { player.setSinksSync(false) }  // a given sink decodes as fast as the fake one
        } catch {
            item.error = (error as? PlaybackError) ?? PlaybackError(kind: .unknown, message: "\(error)")
            return item
        }
        defer { player.shutdown() }
        var readyAt: Date?
        var ended = false
        var qoe = QoEMeter()
        var seen: [String: Int] = [:]
        let clock = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
        renditions.player = player
        renditions.onEvent = { event in
            seen["rendition", default: 0] += 1
            if case .rendition(let index, _, let bandwidth, _, _) = event {
                qoe.rendition(index, bandwidth: bandwidth, top: renditions.topBandwidth, at: clock())
            }
        }
        player.addObserver { [recordedEvents] event in
            recordedEvents?.print(event, item: index)
            seen[event.name, default: 0] += 1
            switch event {
            case .status(.readyToPlay):
                if readyAt == nil { readyAt = Date() }
                qoe.firstFrame(at: clock())
            case .playedToEnd: ended = true
            case .timeControl(let status): qoe.timeControl(status, at: clock())
            default: break
            }
        }
        qoe.loaded(at: clock())
        let loadedAt = Date()
        player.load(playURI, title: entry.title)
        // A rendition (`--renditions all`) is also looked at and listened to.
        let audits = entry.variant != nil || options.pictureAudit
        let meter = audits ? player.startAudioMeter() : nil
        var lumas: [[UInt8]] = []
        // Local files preroll in milliseconds; a stall is damage (see the probe above), not a slow network.
        let isLocal = MediaLocator.localPath(of: uri) != nil
        let startTimeout = isLocal ? min(options.itemTimeout, max(10, options.openTimeout)) : options.itemTimeout
        let settled = GLibMainLoop.run(until: { player.status != .unknown }, timeout: startTimeout)
        if !settled {
            item.error = isLocal
                ? PlaybackError(kind: .corrupt, message: String(format: "No frame within %.0f s of opening the file: it is probably damaged.", startTimeout), uri: uri)
                : PlaybackError(kind: .timeout, message: String(format: "The item did not start within %.0f s.", startTimeout), uri: uri)
        }
        record(player, into: &item)
        if let readyAt, item.width != nil { item.timeToFirstFrame = readyAt.timeIntervalSince(loadedAt) }
        if case .failed(let e) = player.status { item.error = router.refine(e, uri: playURI) }
        if let tag = player.mediaInfo.title, !tag.isEmpty, entry.title == nil { item.title = tag }

        // Frames at the requested positions.
        for position in options.positions {
            var frame = CheckReport.Frame(requested: position.description)
            defer { item.frames.append(frame) }
            guard item.error == nil else { frame.problem = "not captured: the item failed"; continue }
            guard item.width != nil else { frame.problem = "no video"; continue }
            guard let target = position.resolve(duration: item.duration) else { frame.problem = "no duration for a percentage"; continue }
            frame.target = target
            switch player.captureFrame(at: target, timeout: options.itemTimeout) {
            case .failure(let e):
                if case .failed = player.status { item.error = e }
                frame.problem = e.message
            case .success(let captured):
                if audits, let luma = player.snapshotLuma() { lumas.append(luma) }
                frame.time = captured.time
                frame.width = captured.size?.width
                frame.height = captured.size?.height
                do {
                    let name = try CaptureFileName.render(options.template, index: index, title: item.title, position: captured.time ?? target)
                    try captured.png.write(to: framesDir.appendingPathComponent(name), options: .atomic)
                    frame.file = "frames/" + name
                } catch {
                    frame.problem = "could not write the frame: \(error.localizedDescription)"
                }
            }
        }

        // The scenario, once the positions are photographed.
        if let scenario = options.scenarios.first(where: { $0.applies(to: entry.input) }), item.error == nil {
            let registry = IPCCommandRegistry()
            player.declare(into: registry)
            registry.properties.snapshot = { Self.snapshot(of: player) }
            let runner = ScenarioRunner(player: player, renditions: renditions, registry: registry, capture: { [options] name, at in
                self.capture(player, requested: name, at: at, index: index, title: item.title, framesDir: framesDir, template: options.template)
            }, timeout: options.itemTimeout, events: { seen }, ended: { ended })
            // Waits and pauses are seconds of playing: the sinks keep to the clock meanwhile.
            player.setSinksSync(true)
            let (run, frames) = runner.run(scenario, duration: item.duration)
            player.setSinksSync(false)
            item.scenario = run
            item.frames += frames
            item.problems += run.problems
            if case .failed(let e) = player.status { item.error = router.refine(e, uri: playURI) }
        }

        // A live stream over time; one that failed to play too (what it did over time says why).
        if let seconds = options.watch, item.error == nil || item.live || MediaLocator.isNetwork(uri), Self.isHLS(uri) || DASHManifest.isDASH(uri) {
            watch(seconds, item: &item, player: player, uri: uri, input: entry.input, playURI: playURI, index: index, framesDir: framesDir)
        }

        // A replayed live stream plays on the clock, as it was recorded, to where the recording
        // ends (its playlist is closed there, `RecordingIndex.closing`): its stalls and
        // failures over time are the check, and a second replay gives the same report.
        if options.protected.replay != nil, item.live, item.error == nil, !ended {
            player.setSinksSync(true)
            player.play()
            let done = GLibMainLoop.run(until: {
                if case .failed = player.status { return true }
                return ended
            }, timeout: options.itemTimeout)
            player.setSinksSync(false)
            if case .failed(let e) = player.status {
                item.error = router.refine(e, uri: playURI)
            } else if !done {
                item.error = PlaybackError(kind: .timeout, message: String(format: "The replay did not reach the recording's end within %.0f s (--item-timeout).", options.itemTimeout), uri: uri)
            } else {
                item.decodedToEnd = true
            }
        }

        // Decode to the end, as fast as possible (a scenario that played to the end did).
        if ended, item.scenario != nil, item.error == nil, !item.live {
            item.decodedToEnd = true
        } else if options.decodeToEnd, item.error == nil, !item.live {
            player.seek(to: 0, mode: .accurate)
            player.play()
            let done = GLibMainLoop.run(until: {
                if case .failed = player.status { return true }
                return ended
            }, timeout: options.itemTimeout)
            if case .failed(let e) = player.status {
                item.error = e
            } else if !done {
                item.error = PlaybackError(kind: .timeout, message: String(format: "Decoding did not reach the end within %.0f s.", options.itemTimeout), uri: uri)
            } else {
                item.decodedToEnd = true
                // A file cut short (damage past the index) can end cleanly long before its duration.
                if let last = player.displayedFrameTime, let duration = item.duration, item.width != nil, EarlyEnd.isEarly(reached: last, duration: duration) {
                    item.decodedToEnd = false
                    item.error = EarlyEnd.error(reached: last, duration: duration, uri: uri)
                }
            }
        }
        var played = qoe.snapshot(at: clock())
        (played.renderedFrames, played.droppedFrames) = player.videoFrameCounts
        item.qoe = played
        if item.error == nil {
            do { item.problems += try options.thresholds.overridden(by: entry.options).problems(played) } catch {
                item.problems.append(HLSProblem(line: nil, severity: .error, code: "bad-threshold", message: "\(error)"))
            }
        }
        if audits, item.error == nil {
            item.problems += RenditionAudit.problems(
                frames: lumas, audioPeak: meter?.peak, declared: entry.variant?.resolution,
                decoded: item.width.flatMap { w in item.height.map { (w, $0) } }, name: item.title)
        }
        // HLS: the playlists and segments themselves, as mediastreamvalidator checks them.
        // A local stream is read where it is; a network one as it is played (through the gateway
        // when protected, so that its credentials go with every request).
        let readFrom = MediaLocator.localPath(of: uri) != nil ? uri : playURI
        if Self.isHLS(uri), let problems = HLSStreamCheck.problems(uri: readFrom, width: item.width, height: item.height,
                                                                   frameRate: probe.video.first?.framerate, videoCodec: probe.video.first?.codec ?? item.videoCodec,
                                                                   timeout: min(options.itemTimeout, 20), variant: entry.variant) {
            item.problems += problems
        }
        if DASHManifest.isDASH(uri), let problems = DASHStreamCheck.problems(uri: readFrom, timeout: min(options.itemTimeout, 20), only: entry.representation) {
            item.problems += problems
            if entry.representation != nil {
                item.problems += DASHStreamCheck.resolutionProblems(declared: entry.variant?.resolution, width: item.width, height: item.height, name: item.title)
            }
        }
        return item
    }

    /// A frame captured at `at` and stored as the positions' frames are (a scenario's `frame`).
    private func capture(_ player: Player, requested: String, at: Double, index: Int, title: String, framesDir: URL, template: String) -> CheckReport.Frame {
        var frame = CheckReport.Frame(requested: requested, target: at)
        switch player.captureFrame(at: at, timeout: options.itemTimeout) {
        case .failure(let e): frame.problem = e.message
        case .success(let captured):
            frame.time = captured.time
            frame.width = captured.size?.width
            frame.height = captured.size?.height
            let rendered = (try? CaptureFileName.render(template, index: index, title: title, position: captured.time ?? at)) ?? "\(index)-\(Int(at)).png"
            let name = (rendered as NSString).deletingPathExtension + "-" + CaptureFileName.title(for: requested) + ".png"
            if (try? captured.png.write(to: framesDir.appendingPathComponent(name), options: .atomic)) != nil { frame.file = "frames/" + name } else {
                frame.problem = "could not write the frame"
            }
        }
        return frame
    }

    /// What a scenario's `expect` reads through the properties: the player's state in a snapshot.
    static func snapshot(of player: Player) -> PlaybackSnapshot {
        var s = PlaybackSnapshot(items: [.init(uri: player.currentURI ?? "")], index: 0, position: player.position, duration: player.duration,
                                 status: player.status, timeControl: player.timeControlStatus, wantsToPlay: player.intent == .playing,
                                 rate: player.rate, volume: player.volume, muted: player.isMuted, mediaInfo: player.mediaInfo, isSeeking: player.isSeeking)
        player.readout(into: &s)
        s.reachedEnd = player.isAtEnd
        return s
    }

    nonisolated static func isHLS(_ uri: String) -> Bool {
        let path = URL(string: uri)?.path.lowercased() ?? uri.lowercased()
        return path.hasSuffix(".m3u8") || path.hasSuffix(".m3u8/")
    }

    private func record(_ player: Player, into item: inout CheckReport.Item) {
        item.duration = player.duration
        let info = player.mediaInfo
        item.width = info.width
        item.height = info.height
        item.videoCodec = info.videoCodec
        item.audioCodec = info.audioCodec
        item.videoDecoder = info.videoDecoder
        item.audioDecoder = info.audioDecoder
        item.hardwareDecoding = info.hardwareDecoding
        item.seekable = info.isSeekable
        item.live = info.isLive
    }
}
