import Foundation
import ReelCore
import ReelGateway
import ReelGLib
import ReelDesktop
import ReelEngine

/// Reel assembled once for every front end: the gateway's router, the command line's queue, a
/// playbin3 `Player`, the `QueueSequencer` over them, the intake for inputs that arrive later,
/// the one set of playback commands (`QueueCommandTarget`: the window's keys and buttons, the
/// socket and MPRIS all go through it, so a command means the same everywhere), the remote
/// controls and the `--events` printer. `PlaybackSession` (headless) and `WindowSession` each
/// add only what is theirs: a main loop, a window, how the end and errors are shown.
@MainActor
final class SessionCore {
    let options: PlaybackOptions
    let router: GatewayRouter
    let player: Player
    let sequencer: QueueSequencer
    let intake: QueueIntake
    /// The one set of playback commands.
    let commands: QueueCommandTarget
    let remote: RemoteControl
    /// Commands components add to the socket and to input.conf (`reel review`'s verdict and mark).
    let commandRegistry = IPCCommandRegistry()
    /// The desktop's network monitor (GIO), feeding the sequencer's `NetworkRule`.
    let network: NetworkWatcher
    /// Playlists on the command line that could not be read (each names the playlist and line).
    let playlistErrors: [PlaybackError]
    private let printer: EventPrinter?
    /// Where items were left (`--resume`, on by default for the `reel` command).
    let resume: ResumeKeeper?
    /// Reads the current HLS item's playlist: a warning on stderr for what breaks RFC 8216, the
    /// renditions for the quality choice.
    let playlistReader = PlaylistReader()
    /// How the current item plays (`qoe`): counted from the queue's events.
    private(set) var qoe = QoEMeter()

    /// The rest of a big playlist, read once the first item started (`QueueTail`).
    private var tail: QueueTail?
    /// The item to start with instead of the queue's first (`reel review` resumes at the first
    /// item not yet judged).
    var startItem: QueueItem.ID?
    /// Every queue event, after the `--events` printer and the remote controls have seen it.
    var onEvent: (PlayerEvent, Int?) -> Void = { _, _ in }
    /// Playlists added while Reel runs that could not be read (already printed as events).
    var onIntakeErrors: ([PlaybackError]) -> Void = { _ in }

    private init(options: PlaybackOptions, router: GatewayRouter, player: Player, prepared: QueuePreparation.Prepared,
                 network: NetworkWatcher) throws {
        self.options = options
        self.network = network
        self.router = router
        self.player = player
        playlistErrors = prepared.errors
        tail = prepared.tail
        // `--events` on stdout, and with `--record` into the recording.
        let recorder = router.recorder, printEvents = options.printEvents
        printer = printEvents || recorder != nil
            ? EventPrinter(includeFineProgress: options.printProgress, includeSubtitles: options.printSubtitles, write: { line in
                if printEvents { EventPrinter.writeToStandardOutput(line) }
                recorder?.recordEvent(line)
            }) : nil
        sequencer = QueueSequencer(player: player, queue: prepared.queue)
        resume = options.resumeFile.map { ResumeKeeper(file: ResumeFile(path: $0), player: player) }
        sequencer.retryPolicy = options.retryPolicy
        sequencer.networkRule = options.networkRule
        sequencer.throughputMemory = options.throughputFile.map(ThroughputFile.init(path:))
        if let path = ProcessInfo.processInfo.environment["REEL_ABR_TRACE"], let trace = AdaptiveTraceFile(path: path) {
            sequencer.onAdaptiveSample = { sample, rendition in trace.record(sample, rendition: rendition) }
        }
        sequencer.setQuality(options.quality)
        if prepared.tail != nil { sequencer.expectTail() }  // before anything plays: the first entries may all fail at once
        sequencer.offlineWait = options.offlineWait
        sequencer.router = router
        if options.ytdl.enabled { sequencer.pageResolver = YTDLHelper(settings: options.ytdl) }
        intake = QueueIntake(controller: sequencer)
        commands = QueueCommandTarget(controller: sequencer, intake: intake)
        SessionDeclarations.declare(in: commandRegistry, commands: commands)
        do {
            remote = try RemoteControl(options: options.remote, target: commands, registry: commandRegistry)
        } catch {
            sequencer.detach()
            throw error
        }
        resume?.onResumed = { [weak self] position, index in
            guard let self else { return }
            self.printer?.print(.resumed(position: position), item: index)
            self.onEvent(.resumed(position: position), index)
        }
        commands.qoe = { [weak self] in self?.currentQoE ?? PlaybackQoE() }
        playlistReader.onRenditions = { [weak self] variants, id in self?.sequencer.renditionsFound(variants, for: id) }
        // The pin (or the rule's start) is on the demuxer before it reads the master: the gateway
        // holds the master's first answer until the sequencer has the renditions.
        router.onRenditions.withLock {
            $0 = { [weak self] item, renditions, done in
                MainQueue.shared.async {
                    self?.sequencer.renditionsFound(renditions, for: item)
                    done()
                }
            }
        }
        // What plays is what the player fetches (the gateway sees it): rendition events follow.
        router.onVariantFetched.withLock {
            $0 = { [weak self] item, variant in
                MainQueue.shared.async { MainActor.assumeIsolated { self?.sequencer.renditionFetched(variant, for: item) } }
            }
        }
        intake.onErrors = { [weak self] errors in
            guard let self else { return }
            for error in errors { self.printer?.print(.error(error), item: nil) }
            self.onIntakeErrors(errors)
        }
        sequencer.addObserver { [weak self] event, item in
            guard let self else { return }
            self.commands.invalidate()  // before anyone reads the snapshot of this event
            switch event {
            case .status(.readyToPlay): StartupTrace.mark("prerolled")  // the first frame is on screen (show-preroll-frame)
            case .timeControl(.playing): StartupTrace.mark("playing")
            case .playedToEnd: StartupTrace.mark("end")
            default: break
            }
            self.countQoE(event)
            self.printer?.print(event, item: item)
            self.remote.handle(event, item: item)
            if case .itemChanged = event {
                let current = item.flatMap { self.sequencer.queue.items.indices.contains($0) ? self.sequencer.queue.items[$0] : nil }
                let played = self.player.currentURI
                self.playlistReader.itemChanged(current, playedURI: played, routed: played.map(self.router.isRouted) ?? false)
                self.onEvent(event, item)
                self.resume?.itemChanged(index: current == nil ? nil : item, uri: current?.uri)
                return
            }
            self.resume?.handle(event)
            self.onEvent(event, item)
        }
    }

    /// The current item's QoE now (the video sink's frame counts read from the player).
    var currentQoE: PlaybackQoE {
        var q = qoe.snapshot(at: Self.monotonicNow)
        let frames = player.videoFrameCounts
        q.renderedFrames = frames.rendered
        q.droppedFrames = frames.dropped
        return q
    }

    private static var monotonicNow: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    private func countQoE(_ event: PlayerEvent) {
        let now = Self.monotonicNow
        switch event {
        case .itemChanged: qoe.loaded(at: now)
        case .status(.readyToPlay): qoe.firstFrame(at: now)
        case .timeControl(let status): qoe.timeControl(status, at: now)
        case .rendition(let index, _, let bandwidth, _, _):
            qoe.rendition(index, bandwidth: bandwidth, top: sequencer.currentRenditions.compactMap(\.bandwidth).max(), at: now)
        default: break
        }
    }

    /// Reads the command line's inputs and builds the parts; a failure says why on stderr and
    /// gives the exit status.
    /// - Parameter videoSink: where the video goes (the window's sink, or a fake one headless).
    /// - Parameter window: a window shows the video (the aspect modes' filter is built).
    static func assemble(_ options: PlaybackOptions, videoSink: String, window: Bool = false) -> Result<SessionCore, ExitStatus> {
        // The monitor is made off the main thread while the rest is assembled.
        let network = NetworkWatcher()
        network.start()
        let router = GatewayRouter(settings: options.protected)
        router.defaultLive.withLock { $0 = options.live }
        let prepared: QueuePreparation.Prepared
        switch QueuePreparation.prepare(options, router: router) {
        case .success(let p): prepared = p
        case .failure(let status):
            router.shutdown()
            return .failure(status)
        }
        var config = PlayerConfiguration(audioSink: options.audioSink, videoSink: videoSink,
                                         progressInterval: options.progressInterval, endAction: .advance)
        config.aspectModes = window
        config.preferences = options.preferences
        config.clockAt = options.clockAt
        config.audioDevice = options.audioDevice
        config.audioEffects = options.audioEffects
        config.volumeMax = options.volumeMax
        config.unroutedManifests = GatewayRouter.unroutedManifests
        let player: Player
        do { player = try Player(configuration: config) } catch {
            Diagnostics.say("\(error)")
            router.shutdown()
            return .failure(ExitStatus(code: 2))
        }
        player.liveStreams = { [router] in router.liveStream(for: $0) }  // by the item's id
        do {
            return .success(try SessionCore(options: options, router: router, player: player, prepared: prepared, network: network))
        } catch {
            Diagnostics.say("--ipc: \(error)")
            player.shutdown()
            router.shutdown()
            return .failure(ExitStatus(code: 2))
        }
    }

    /// Reports the command line's playlist errors, applies `--volume`/`--mute`, and plays the
    /// queue from its first (or `--start`) item at `--start-position`.
    func start() {
        for error in playlistErrors {
            Diagnostics.say(error.message)
            printer?.print(.error(error), item: nil)
        }
        if let v = options.volume { player.volume = v }
        if options.mute { player.isMuted = true }
        // The first item is judged on the network as it is: the monitor's first reading is
        // usually in by now (it was started first); it is waited for briefly when not.
        network.onChange = { [weak self] state in self?.sequencer.networkChanged(state) }
        // Waited for only when an item needs the network (a local queue starts at once). The
        // monitor answers in milliseconds; on a busy machine it took over 0.5 s, and once over
        // 2 s (NetworkManager's answer over D-Bus beside four test lanes), and an item was
        // loaded, and fetched, before the reading said offline (NetworkPolicyTests): 5 s at most,
        // then the item goes on as if online (said in the network log).
        // The items that start first are judged now — the first few, for items that fail at once
        // (a queue of 100,000 local files is not walked: issue 51).
        let queue = sequencer.queue
        let from = (startItem.flatMap(queue.index(of:)) ?? queue.currentIndex ?? 0)
        let needsNetwork = queue.items[min(from, queue.count)...].prefix(8).contains { options.networkRule.needsNetwork(MediaLocator.uri(for: $0.uri)) }
        let reading = needsNetwork ? network.waitForFirstReading(timeout: Self.firstReadingWait) : network.state
        if needsNetwork && reading == nil {
            Log.debug(.network, .warning, "the network monitor gave no reading within \(Self.firstReadingWait) s: going on as if online")
        }
        if let reading { sequencer.networkChanged(reading) }
        guard !sequencer.queue.isEmpty else { return }
        if options.startPaused, let id = startItem ?? sequencer.queue.currentID ?? sequencer.queue.items.first?.id {
            sequencer.load(id)
        } else if let startItem {
            sequencer.play(startItem)
        } else {
            sequencer.play()
        }
        if let start = options.startPosition { player.seek(to: start, mode: .accurate) }
        readTail()
    }

    /// Appends the rest of a big playlist (`items` from `from` on) a slice a main-loop turn (the
    /// window draws between).
    private func appendTail(_ items: [QueueItem], from: Int) {
        let end = min(from + QueueTail.slice, items.count)
        sequencer.appendTail(Array(items[from..<end]), complete: end == items.count)
        if end == items.count {
            // The read's transient copies (the text, the whole list before its head was dropped)
            // were freed in the reading thread's malloc arena, which glibc keeps.
            MemoryTrim.giveBack()
        } else {
            MainQueue.shared.after(0) { [weak self] in self?.appendTail(items, from: end) }
        }
    }

    /// Reads the rest of a big playlist on a background thread and appends it (`QueueTail`).
    private func readTail() {
        guard let tail else { return }
        self.tail = nil
        DispatchQueue.global(qos: .userInitiated).async {
            let rest = tail.read()
            let items = rest.items, errors = rest.errors
            MainQueue.shared.async { [weak self] in
                guard let self else { return }
                for error in errors {
                    Diagnostics.say(error.message)
                    self.printer?.print(.error(error), item: nil)
                }
                // In slices, one a main-loop turn: 100,000 entries at once held the window ~0.3 s.
                self.appendTail(items, from: 0)
            }
        }
    }

    /// How long the first item that needs the network waits for the monitor's first reading.
    static let firstReadingWait = 5.0

    /// Prints an event that is not the queue's (the end of an empty queue, say).
    func print(_ event: PlayerEvent) { printer?.print(event, item: nil) }

    /// True when every item played to its end, nothing failed and every playlist read cleanly.
    /// The exit status of a run that reached the queue's end, in every mode (window, headless):
    /// what `finished` says — 0 when no item failed and every playlist read cleanly, 1 otherwise.
    /// Items the run never reached (before `--start`, before the file autoload started from,
    /// skipped) are not failures.
    var exitStatusAtEnd: Int32 {
        let failed = sequencer.failedCount > 0 || sequencer.queue.items.contains { if case .failed = $0.state { true } else { false } }
        return failed || !playlistErrors.isEmpty ? 1 : 0
    }

    /// - Parameter processEnding: the process ends next (`ProcessEnd`): what the user keeps is
    ///   saved (resume positions) and the outside let go (the socket's file, MPRIS's name), but the
    ///   pipeline and the gateway are not torn down — their threads may be mid-work, and tearing
    ///   them down then once aborted the process in the gateway's playlist rewrite (a crash
    ///   report and 2 s of backtracing after `quit`, QuitDeadlineTests); the kernel frees them.
    func shutdown(processEnding: Bool = false) {
        resume?.finish()
        network.stop()
        remote.stop()
        (sequencer.pageResolver as? YTDLHelper)?.stopAll()
        sequencer.detach()
        guard !processEnding else {
            // A recording keeps what was under way (the gateway's transfers are not ended here).
            router.recorder?.close()
            Log.debug(.app, .info, "exit: the pipeline and the gateway are left to the process's end")
            return
        }
        player.shutdown()
        router.shutdown()
    }
}
