import Foundation
import ReelCore
import ReelDesktop
import ReelEngine
import ReelGLib
import ReelUI

/// A playback session with a window: builds the `PlayerWindow`, a `Player` drawing into its video
/// area and a `QueueSequencer` over the command line's queue; turns queue events into a
/// `PlayerViewState` and window actions into queue and player commands; and runs the GTK main
/// loop (which also runs the engine's bus watch and timers).
@MainActor
final class WindowSession {
    let options: PlaybackOptions
    private(set) var window: PlayerWindow!
    /// Reel's parts, as every front end has them (`SessionCore`).
    private(set) var core: SessionCore!
    var player: Player! { core?.player }
    var controller: QueueSequencer! { core?.sequencer }
    /// The one set of playback commands, the socket's and MPRIS's too.
    private var commands: QueueCommandTarget { core.commands }
    private(set) var state = PlayerViewState()
    /// A paused live item's window slides on: its labels and badge are refreshed every second.
    private var pausedLiveRefresh = false
    private(set) var exitStatus: Int32 = 0
    private(set) var quitRequested = false
    private let screensaver = ScreenSaverInhibitor()
    /// Where `s` and Ctrl+s write PNGs: $REEL_CAPTURE_DIR, else ~/Pictures (or ~).
    /// The recent files list the window adds to and reads (nil path: the desktop's).
    var recentFilesPath: String?
    private var recentFiles: RecentFiles?
    /// The document portal's drop targets, added after the first frame (`acceptPortalDrops`).
    private var portalDrops: AfterFirstFrame?
    /// The item to add to the recent files when it has opened.
    private var itemToRemember: QueueItem.ID?
    var captureDirectory: URL
    /// The window's road to commands and properties, its key bindings and what UI tests drive it by.
    private var input: WindowCommands!
    var dispatcher: IPCDispatcher { input.dispatcher }
    /// `reel review`: the review this window hosts (`WindowSession+Review`).
    var review: ReviewSession?
    /// mpv's stats panel: shown for 5 s (`i`) or until asked again (`I`), refreshed twice a second.
    private lazy var stats = StatsDisplay { [weak self] lines in
        guard let self else { return }
        self.state.stats = lines
        self.render()
    } snapshot: { [weak self] in self?.commands.snapshot }
    /// The last capture written (for QA logs and tests).
    var lastCapture: URL?
    /// The video sink description in use, and why it was chosen.
    private(set) var videoSink = ""
    /// No sink can draw into the window (`VideoOutput.chooseSink`): the banner says so for good.
    private var noVideoOutput: String?

    /// The queue's URIs, in order.
    var items: [String] { controller?.queue.items.map(\.uri) ?? [] }
    /// The current item's index in the queue.
    var index: Int { controller?.currentIndex ?? 0 }

    init(options: PlaybackOptions) {
        self.options = options
        let env = ProcessInfo.processInfo.environment
        if let dir = env["REEL_CAPTURE_DIR"], !dir.isEmpty {
            captureDirectory = URL(fileURLWithPath: dir, isDirectory: true)
        } else {
            let home = FileManager.default.homeDirectoryForCurrentUser
            let pictures = home.appendingPathComponent("Pictures", isDirectory: true)
            captureDirectory = FileManager.default.fileExists(atPath: pictures.path) ? pictures : home
        }
    }

    /// Runs a windowed session to its end. nil when there is no display (the caller plays headless).
    static func run(options: PlaybackOptions, instance: SingleInstance? = nil) -> Int32? {
        var options = options
        // The sound output chosen in the window last time, unless the command line says one.
        if options.audioDevice == nil, options.rememberWindow { options.audioDevice = AudioOutputMemory.recall() }
        let session = WindowSession(options: options)
        // Files another `reel` handed over: after the item playing, the first of them playing (as
        // Totem does), or only queued at the end with --enqueue.
        instance?.onOpen = { [weak session] uris, enqueue in
            guard let session, session.core != nil else { return }
            session.core.intake.add(uris, enqueue ? .append : .playNext)
            session.window?.present()
        }
        instance?.onActivate = { [weak session] in session?.window?.present() }
        let kept = options.rememberWindow ? WindowSizeMemory.recall() : nil
        guard let started = session.start(width: kept?.width ?? 960, height: kept?.height ?? 600, position: kept.flatMap { k in k.x.flatMap { x in k.y.map { (x, $0) } } })
        else { return nil }
        guard started else { return 2 }
        instance?.ready()
        UIRuntime.run()
        StartupTrace.mark("loop-ended")
        ExitDeadline.arm(status: session.exitStatus)
        if options.rememberWindow, !session.state.isFullscreen, let window = session.window { WindowSizeMemory.remember(window.size, position: window.position) }
        // Exiting: nothing the user could see is left to wait for (the X server drops the window
        // with the connection), so what is pending is handled and the process goes.
        session.shutdown(settle: false, processEnding: true)
        StartupTrace.mark("shut-down")
        return session.review?.exitStatus ?? session.exitStatus
    }

    /// Opens the window and starts playing. nil without a display; false when the player could not
    /// be built (the reason is on stderr).
    /// - Parameter position: where the window was left, on X11 (`WindowSizeMemory`).
    func start(width: Int = 960, height: Int = 600, position: (x: Int, y: Int)? = nil) -> Bool? {
        guard UIRuntime.start() else { return nil }
        StartupTrace.mark("gtk-init")
        if ProcessInfo.processInfo.environment["REEL_PIN_APPEARANCE"] == "1" { UIRuntime.pinAppearance() }
        let sink = VideoOutput.chooseSink(for: UIRuntime.isWayland ? .wayland : .x11, forced: options.videoSink)
        videoSink = sink.description
        noVideoOutput = sink.drawsInWindow ? nil : sink.message
        StartupTrace.mark("sink-chosen")
        switch SessionCore.assemble(options, videoSink: videoSink, window: true) {
        case .success(let c): core = c
        case .failure: return false
        }
        StartupTrace.mark("assembled")
        // Wayland: the sink draws on GTK's connection, on a subsurface of the window (`VideoOutput`).
        if let display = UIRuntime.waylandDisplay { player.useWaylandDisplay(display) }
        // The pipeline starts before the window is built and prerolls while it is: its first
        // frame waits (on a streaming thread) for the window's handle, not the other way round.
        player.expectWindowHandle()
        core.onIntakeErrors = { [weak self] errors in
            guard let self, let last = errors.last else { return }
            self.state.errorBanner = last.message
            self.render()
        }
        core.onEvent = { [weak self] event, item in self?.handle(event, item: item) }  // renders once there is a window
        commands.windowCapture = { [weak self] path in try self?.captureWindow(to: path) }
        commands.fullscreen = (get: { [weak self] in self?.state.isFullscreen ?? false },
                               set: { [weak self] on in self?.setFullscreen(on) })
        commands.onQuit = { [weak self] status in
            self?.exitStatus = status
            self?.quit()
        }
        if let last = core.playlistErrors.last { state.errorBanner = last.message }
        guard openReview() else { return false }
        if let noVideoOutput {
            // Never a detached window: the sound plays and the window says why there is no picture.
            state.errorBanner = noVideoOutput
            Diagnostics.say(noVideoOutput)
        }
        if controller.queue.isEmpty {  // nothing to play yet: "Open recent" is the way in
            recentFiles = RecentFiles(file: recentFilesPath)
            state.recent = recentFiles?.entries() ?? []
        }
        core.start()
        StartupTrace.mark("started")
        var size = (width: width, height: height), place = position
        if let geometry = options.geometry {
            // mpv's --geometry: the size on this screen, the place where asked (X11; Wayland places windows itself).
            size = geometry.size(screen: UIRuntime.screenSize ?? (1920, 1080), default: (960, 600))
            place = geometry.x.flatMap { x in geometry.y.map { (x, $0) } }
        }
        if !options.animations { UIRuntime.setAnimations(false) }
        window = PlayerWindow(width: size.width, height: size.height)
        window.fixedTitle = options.windowTitle
        window.onAction = { [weak self] in self?.perform($0) }
        input = WindowCommands(options: options, commands: commands, captureDirectory: captureDirectory, registry: core.commandRegistry,
                               window: window)
        attachReview()
        attachSeekPreviews()
        window.onVideoAreaResized = { [weak self] width, height in self?.player.setVideoArea(width: width, height: height) }
        window.onVideoRectangleChanged = { [weak self] x, y, width, height in
            self?.player.setVideoRectangle(x: x, y: y, width: width, height: height)
        }
        StartupTrace.mark("window-built")
        portalDrops = AfterFirstFrame { [weak self] in self?.acceptPortalDrops() }
        if controller.queue.isEmpty { portalDrops?.run() }  // no first frame to wait for
        if let place { window.move(to: place) }
        window.show()
        StartupTrace.mark("window-shown")
        giveWindowToSink()
        let shown = commands.snapshot
        state.volume = shown.volume
        state.volumeMax = options.volumeMax
        state.isMuted = shown.muted
        state.meteredPolicy = shown.meteredPolicy
        refreshRows()
        syncIntent()
        render()
        return true
    }

    /// - Parameter settle: wait for the X server to have drawn the closed window (a session that
    ///   goes on in the same process: tests); else only what is pending is handled.
    func shutdown(settle: Bool = true, processEnding: Bool = false) {
        screensaver.update(playing: false)
        portalDrops?.cancel()
        review?.stop()
        core?.shutdown(processEnding: processEnding)
        window?.close()
        if settle { UIRuntime.settle() } else { UIRuntime.flush() }
    }

    /// The video sink gets the window to draw into (`VideoOutput`): the video area's X11 window,
    /// or on Wayland the toplevel's surface and the area's place in it.
    private func giveWindowToSink() {
        if let r = window.videoRectangle { player.setVideoRectangle(x: r.x, y: r.y, width: r.width, height: r.height) }
        let handle = window.videoWindowHandle
        if handle == 0 || !player.setWindowHandle(handle) {
            player.windowHandleUnavailable()
            Diagnostics.say(String(format: tr("the video sink “%@” cannot draw into the window; it may open its own"), videoSink))
        }
    }

    /// The window fills the screen (or not): `F`, the button, the socket's `fullscreen`.
    func setFullscreen(_ on: Bool) {
        guard state.isFullscreen != on else { return }
        perform(.toggleFullscreen)
    }

    /// The window as the user sees it, to a PNG. On Wayland the window's own pixels lack the
    /// video (it is on a subsurface no client can read back): the frame on screen goes in.
    func captureWindow(to path: String) throws {
        let wayland = UIRuntime.isWayland
        try window.capturePNG(to: path, composed: wayland, videoFrame: wayland && noVideoOutput == nil ? player.snapshotPNG() : nil)
        try input.mask(png: path, in: window)
    }


    /// Files dropped from sandboxed apps come through the document portal, whose drop targets
    /// GTK finds by asking the session bus synchronously: that waits for the first frame, as
    /// MPRIS does, and never happens without a session bus (GLib would autolaunch a dbus-daemon
    /// to ask). Plain URI drops work from the start.
    private func acceptPortalDrops() {
        if SessionBus.isAvailable() { window.acceptDrops(documentPortal: true) }
    }

    // MARK: Queue rows

    /// The queue version and current index the rows were made for (made again only on a change).
    /// Their titles are the command target's entries' (`queueEntries`, made once per list layout:
    /// a name is made from a URI once, not at every item change of a 100,000-entry queue).
    private var rowsMade: (version: Int, current: Int?)?

    private func refreshRows() {
        guard let controller else { return }
        let queue = controller.queue
        let current = queue.currentIndex, count = queue.count
        state.canGoPrevious = (current ?? 0) > 0
        state.canGoNext = current.map { $0 + 1 < count } ?? false || controller.repeatMode == .all
        let key = (version: queue.version, current: current)
        if let made = rowsMade, made.version == key.version, made.current == key.current { return }
        rowsMade = key
        let entries = commands.queueEntries
        state.playlist = queue.items.indices.map { i in
            let item = queue.items[i]
            return PlaylistRow(title: entries[i].title ?? item.displayTitle, duration: item.duration, isCurrent: i == current,
                               failure: item.state.error.map { Redactor.redactText($0.message) })
        }
    }

    // MARK: Player events → view state

    /// The queue item now playing joins the desktop's recent files (`RecentRule`: never with a
    /// credential) and the window's "Open recent".
    private func rememberRecent(_ index: Int?) {
        guard let index, controller.queue.items.indices.contains(index) else { return }
        let item = controller.queue.items[index]
        let credentials = !item.headers.isEmpty || options.protected.hasCredentials
        guard let uri = RecentRule.uri(for: item.uri, hasCredentials: credentials) else { return }
        if recentFiles == nil { recentFiles = RecentFiles(file: recentFilesPath) }
        recentFiles?.add(uri, title: item.displayTitle)
        state.recent = recentFiles?.entries() ?? []
    }

    /// One event: the view state follows (`PlayerViewState.apply`, a pure reducer over the
    /// socket's snapshot), then what the session does besides.
    private func handle(_ event: PlayerEvent, item: Int?) {
        portalDrops?.handle(event)
        review?.handle(event, item: item)
        state.apply(event, item: item, now: commands.snapshot,
                    context: ViewStateContext(noVideoOutput: noVideoOutput, maxRetries: controller.retryPolicy.maxRetries))
        switch event {
        case .itemChanged:
            // Joins the recent files once it has opened (its first frame): GtkRecentManager's
            // update (about 12 ms) would otherwise delay the start of every item.
            itemToRemember = item.flatMap { controller.queue.items.indices.contains($0) ? controller.queue.items[$0].id : nil }
        case .status(.readyToPlay):
            input.firstFrame(window)
            if let remembered = itemToRemember {
                itemToRemember = nil
                rememberRecent(controller.queue.index(of: remembered))
            }
        case .timeControl(let status):
            if status == .paused, state.live != nil { refreshPausedLive() }
            screensaver.update(playing: status == .playing)
        case .error(let problem), .warning(let problem):
            Diagnostics.say("\(state.itemName(item, now: commands.snapshot)): \(problem.message)")
        case .finished:
            exitStatus = core.exitStatusAtEnd
            if options.exitAtEnd { quit() }
        default:
            break
        }
        refreshRows()
        render()
    }

    private func syncIntent() {
        let shown = commands.snapshot
        state.wantsToPlay = shown.wantsToPlay
        state.meteredPolicy = shown.meteredPolicy  // the socket may have changed it
        state.hardwareDecoding = shown.hardwareDecoding
    }

    private func render() { window?.render(state) }

    /// While a live item is paused, its position falls back in the window (which slides on) and
    /// the badge's distance grows: shown once a second until it plays again.
    private func refreshPausedLive() {
        guard !pausedLiveRefresh else { return }
        pausedLiveRefresh = true
        MainQueueClock().after(1) { [weak self] in
            guard let self else { return }
            self.pausedLiveRefresh = false
            guard self.state.timeControl == .paused, let live = self.commands.snapshot.live else { return }
            self.state.live = live
            self.state.position = live.position
            self.render()
            self.refreshPausedLive()
        }
    }

    // MARK: Actions → commands

    /// A widget's action or a key's command: what is a command or a property goes the socket's
    /// road (`IPCDispatcher` over the session's registry), the rest is the window's own.
    func perform(_ action: UIAction) {
        if case .setAudioOutput(let name) = action, options.rememberWindow { AudioOutputMemory.remember(name) }
        if case .command(let text) = action {
            for part in InputBindings.parts(of: text) { run(part) }
        } else if let command = Self.command(for: action, snapshot: commands.snapshot) {
            for c in command { run(c) }
        } else {
            performInWindow(action)
        }
        let shown = commands.snapshot
        state.meteredPolicy = shown.meteredPolicy
        state.hardwareDecoding = shown.hardwareDecoding
        switch action {
        case .seek, .skip: state.position = shown.position
        case .command(let text) where text.hasPrefix("seek"): state.position = shown.position
        default: break
        }
        syncIntent()
        refreshRows()
        render()
    }

    /// The commands a widget's action is (nil: the window's own, `performInWindow`).
    static func command(for action: UIAction, snapshot s: PlaybackSnapshot) -> [IPCCommand]? {
        func track(_ kind: MediaTrack.Kind, _ id: String?) -> IPCCommand {
            .setProperty(kind == .audio ? "audio-track" : "subtitle-track", s.tracks.filter { $0.kind == kind }.firstIndex { $0.id == id }.map { .int($0) } ?? .string("no"))
        }
        return switch action {
        case .playPause: [.cycle("pause", backwards: false)]
        case .seek(let to): [.seek(to, .absolute, .accurate)]
        case .skip(let by): [.skip(by)]
        // Dragging the slider up unmutes.
        case .setVolume(let v): [.setProperty("volume", .double(v * 100))] + (s.muted && v > 0 ? [.setProperty("mute", .bool(false))] : [])
        case .toggleMute: [.cycle("mute", backwards: false)]
        case .setRate(let r): [.setProperty("speed", .double(r))]
        case .next: [.next]
        case .previous: [.previous]  // like most players: back to the start first, the previous item within the first 3 s
        case .playIndex(let i): [.jump(i)]
        case .moveItem(let from, let to): [.move(from: from, to: to)]  // `to`: GTK's drop position, an insertion point
        case .selectAudioTrack(let id): [track(.audio, id)]
        case .selectSubtitleTrack(let id): [track(.subtitle, id)]
        // mpv's id: from 1 among the subtitle tracks, as track-list numbers them.
        case .selectSecondarySubtitleTrack(let id):
            [.setProperty("secondary-sid", s.tracks.filter { $0.kind == .subtitle }.firstIndex { $0.id == id }.map { .int($0 + 1) } ?? .string("no"))]
        case .setMeteredPolicy(let policy): [.setProperty("metered-policy", .string(policy.rawValue))]
        case .setHardwareDecoding(let mode): [.setProperty("hwdec", .string(mode.rawValue))]
        case .setAudioOutput(let name): [.setProperty("audio-device", .string(name))]  // remembered by `perform`
        case .setQuality(let text): [.setProperty("rendition", .string(text))]
        case .goLive: [.registered("live-edge", [])]
        default: nil
        }
    }

    /// Runs one command on the socket's road; what fails is said in the log (a key pressed
    /// where it does nothing: End on a film, PgUp without chapters).
    func run(_ command: IPCCommand) {
        dispatcher.run(IPCRequest(command: command)) { reply in
            guard !reply.contains(#""error":"success""#) else { return }
            Log.debug(.app, .info, "window: \(command.name): \(reply)")
        }
    }

    private func run(_ text: String) {
        switch IPCRequest.parseText(text, registered: core.commandRegistry.names) {
        case .success(let request): run(request.command)
        case .failure(let f): Log.debug(.app, .info, "window: \(text): \(f.error.message)")
        }
    }

    /// What the window does itself: its panel, fullscreen, captures, files, the stats overlay.
    private func performInWindow(_ action: UIAction) {
        switch action {
        case .toggleFullscreen: state.isFullscreen.toggle()
        case .togglePlaylist: state.isPlaylistVisible.toggle()
        case .captureFrame, .captureWindow:
            let kind = action == .captureFrame ? "frame" : "window"
            (action == .captureFrame ? commands.captureFrame : commands.captureWindow) { [weak self] result in
                switch result {
                case .success(let frame): self?.saveCapture(frame.png, kind: kind)
                case .failure(let error): Diagnostics.say(String(format: tr("screenshot: %@"), error.message))
                }
            }
        case .openFiles(let paths): append(paths)
        case .openURL(let url): append([url])
        case .removeItem(let i):
            guard commands.removeItem(at: i), controller.queue.isEmpty else { break }
            state = PlayerViewState()
            let shown = commands.snapshot
            state.volume = shown.volume
            state.isMuted = shown.muted
        case .playAnyway: _ = commands.playAnyway()
        case .startOver:
            core.resume?.startOver()
            state.resumedAt = nil
        case .forgetFile:
            core.resume?.forgetCurrent()
            state.resumedAt = nil
        case .openPreferences: window.showPreferences(preferences)
        case .setPreference(let key, let value): setPreference(key, value)
        case .videoMenuOpening:
            // The sound outputs as the sound server has them now (one look, when the menu opens).
            let list = (try? dispatcher.properties.get("audio-device-list")) ?? .array([])
            if case .array(let items) = list {
                state.audioOutputs = items.compactMap { item in
                    guard case .object(let f) = item, case .string(let name)? = f.first(where: { $0.0 == "name" })?.1 else { return nil }
                    let description = f.first { $0.0 == "description" }.flatMap { if case .string(let d) = $0.1 { d } else { nil } } ?? name
                    return PlayerViewState.AudioOutputEntry(name: name, description: description)
                }
            }
            if case .string(let current)? = try? dispatcher.properties.get("audio-device") { state.audioOutput = current }
        case .showStats(let sticky): stats.show(sticky: sticky)
        case .quit: quit()
        default: break
        }
    }

    /// Opened or dropped files and URLs join the queue, and the first of them plays; subtitle
    /// files (`.srt`, `.vtt`, `.ass`, `.ssa`) go with the item playing instead, and show, as in
    /// mpv and Totem.
    private func append(_ inputs: [String]) {
        var media: [String] = []
        for input in inputs {
            if let path = MediaLocator.localPath(of: MediaLocator.uri(for: input)), SubtitleFile.Format(fileName: path) != nil,
               (try? dispatcher.execute(.registered("sub-add", [.string(path)]))) != nil { continue }
            media.append(input)
        }
        if !media.isEmpty { core.intake.add(media, .appendAndPlay) }
    }

    func quit() {
        quitRequested = true
        controller?.userQuit()
        UIRuntime.quit()
    }
}
