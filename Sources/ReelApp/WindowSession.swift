import Foundation
import ReelCore
import ReelEngine
import ReelUI

/// A playback session with a window: builds the `PlayerWindow`, a `Player` drawing into its video
/// area, turns player events into a `PlayerViewState` and window actions into player commands,
/// and runs the GTK main loop (which also runs the engine's bus watch and timers).
///
/// The item list here is deliberately small (next/previous/jump/move/remove/append); the queue
/// controller replaces it when the lanes merge.
@MainActor
final class WindowSession {
    let options: PlaybackOptions
    private(set) var window: PlayerWindow!
    private(set) var player: Player!
    private(set) var state = PlayerViewState()
    private(set) var items: [String] = []
    private(set) var index = 0
    private var failures: [Int: String] = [:]
    private var durations: [Int: Double] = [:]
    private var played = 0
    private var failed = 0
    private(set) var exitStatus: Int32 = 0
    private(set) var quitRequested = false
    private var printer: EventPrinter?
    private let screensaver = ScreenSaverInhibitor()
    /// Where `s` and Ctrl+s write PNGs: $REEL_CAPTURE_DIR, else ~/Pictures (or ~).
    var captureDirectory: URL
    /// The last capture written (for QA logs and tests).
    private(set) var lastCapture: URL?
    /// The video sink description in use, and why it was chosen.
    private(set) var videoSink = ""

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
    static func run(options: PlaybackOptions) -> Int32? {
        let session = WindowSession(options: options)
        guard let started = session.start() else { return nil }
        guard started else { return 2 }
        UIRuntime.run()
        session.shutdown()
        return session.exitStatus
    }

    /// Opens the window and starts playing. nil without a display; false when the player could not
    /// be built (the reason is on stderr).
    func start(width: Int = 960, height: Int = 600) -> Bool? {
        guard UIRuntime.start() else { return nil }
        if ProcessInfo.processInfo.environment["REEL_PIN_APPEARANCE"] == "1" { UIRuntime.pinAppearance() }
        if options.printEvents { printer = EventPrinter(includeFineProgress: options.printProgress) }
        videoSink = options.videoSink ?? VideoSinkChooser.choose()
        let config = PlayerConfiguration(audioSink: options.audioSink, videoSink: videoSink,
                                         progressInterval: options.progressInterval, endAction: .advance)
        do { player = try Player(configuration: config) } catch {
            FileHandle.standardError.write(Data("reel: \(error)\n".utf8))
            return false
        }
        window = PlayerWindow(width: width, height: height)
        window.onAction = { [weak self] in self?.perform($0) }
        window.show()
        let xid = window.videoWindowHandle
        if xid == 0 || !player.setWindowHandle(xid) {
            FileHandle.standardError.write(Data("reel: the video sink “\(videoSink)” cannot draw into the window; it may open its own\n".utf8))
        }
        player.addObserver { [weak self] event in self?.handle(event) }
        if let v = options.volume { player.volume = v }
        if options.mute { player.isMuted = true }
        state.volume = player.volume
        state.isMuted = player.isMuted
        items = options.inputs
        refreshRows()
        render()
        if !items.isEmpty {
            load(0)
            player.play()
            if let start = options.startPosition { player.seek(to: start, mode: .accurate) }
        }
        syncIntent()
        return true
    }

    func shutdown() {
        screensaver.update(playing: false)
        player?.shutdown()
        window?.close()
        UIRuntime.settle()
    }

    // MARK: Items

    private func load(_ i: Int) {
        guard items.indices.contains(i) else { return }
        index = i
        failures[i] = nil
        state.errorBanner = nil
        player.load(items[i])
        refreshRows()
    }

    private func refreshRows() {
        state.playlist = items.enumerated().map { i, item in
            PlaylistRow(title: MediaLocator.displayName(of: MediaLocator.uri(for: item)), duration: durations[i],
                        isCurrent: i == index && player?.currentURI != nil, failure: failures[i])
        }
        state.canGoPrevious = index > 0
        state.canGoNext = index + 1 < items.count
    }

    private func advance() {
        if index + 1 < items.count {
            load(index + 1)
            render()
            return
        }
        printer?.print(.finished(played: played, failed: failed), item: nil)
        exitStatus = failed == 0 && played == items.count ? 0 : 1
        if options.exitAtEnd { quit() }
    }

    // MARK: Player events → view state

    private func handle(_ event: PlayerEvent) {
        var printed = event
        if case .itemChanged(_, let uri, let title) = event { printed = .itemChanged(index: index, uri: uri, title: title) }
        printer?.print(printed, item: index)
        switch event {
        case .itemChanged(_, _, let title):
            state.title = title
            state.position = 0
            state.duration = nil
            state.rate = 1
            state.isSeekable = true
        case .duration(let d):
            state.duration = d
            if let d { durations[index] = d }
        case .progress(let position, let duration, _):
            state.position = position
            if let duration { state.duration = duration }
        case .seeked(let position):
            state.position = position
        case .timeControl(let status):
            state.timeControl = status
            state.position = player.position
            screensaver.update(playing: status == .playing)
        case .rate(let r):
            state.rate = r
        case .volume(let v, let muted):
            state.volume = v
            state.isMuted = muted
        case .mediaInfo(let info):
            state.isSeekable = info.isSeekable || !info.isLive
        case .error(let error):
            failed += 1
            failures[index] = error.message
            state.errorBanner = PlayerViewState.errorText(item: state.title ?? MediaLocator.displayName(of: items[index]), message: error.message)
            FileHandle.standardError.write(Data("reel: \(MediaLocator.displayName(of: items[index])): \(error.message)\n".utf8))
            syncIntent()
            refreshRows()
            render()
            advanceAfterError()
            return
        case .playedToEnd:
            played += 1
            syncIntent()
            refreshRows()
            render()
            advance()
            return
        default:
            break
        }
        syncIntent()
        refreshRows()
        render()
    }

    /// A failed item stays on screen (banner) while the queue goes on with the next one.
    private func advanceAfterError() {
        guard index + 1 < items.count else { advance(); return }
        let banner = state.errorBanner
        load(index + 1)
        state.errorBanner = banner  // keep saying what went wrong until the next item plays
        render()
    }

    private func syncIntent() {
        state.wantsToPlay = player.intent == .playing
        if state.timeControl == .playing, state.errorBanner != nil, player.status == .readyToPlay { state.errorBanner = nil }
    }

    private func render() { window?.render(state) }

    // MARK: Actions → commands

    func perform(_ action: UIAction) {
        switch action {
        case .playPause:
            player.toggle()
        case .seek(let to):
            player.seek(to: to, mode: .accurate)
            state.position = player.position
        case .skip(let by):
            player.skip(by: by)
            state.position = player.position
        case .setVolume(let v):
            player.volume = v
            if player.isMuted && v > 0 { player.isMuted = false }
        case .toggleMute:
            player.isMuted.toggle()
        case .setRate(let r):
            player.setRate(r)
        case .resetRate:
            player.setRate(1)
        case .frameStep(let forward):
            player.stepFrame(forward: forward)
        case .next:
            if index + 1 < items.count { load(index + 1) }
        case .previous:
            // Like most players: back to the start first, the previous item within the first 3 s.
            if player.position > 3 || index == 0 { player.seek(to: 0, mode: .accurate) } else { load(index - 1) }
        case .toggleFullscreen:
            state.isFullscreen.toggle()
        case .togglePlaylist:
            state.isPlaylistVisible.toggle()
        case .captureFrame:
            if let png = player.snapshotPNG() { saveCapture(png, kind: "frame") }
        case .captureWindow:
            let url = capturePath(kind: "window")
            do { try window.capturePNG(to: url.path); lastCapture = url } catch {
                FileHandle.standardError.write(Data("reel: \(error)\n".utf8))
            }
        case .openFiles(let paths):
            append(paths)
        case .openURL(let url):
            append([url])
        case .playIndex(let i):
            load(i)
            player.play()
        case .moveItem(let from, let to):
            move(from: from, to: to)
        case .removeItem(let i):
            remove(i)
        case .quit:
            quit()
        }
        syncIntent()
        refreshRows()
        render()
    }

    private func append(_ inputs: [String]) {
        guard !inputs.isEmpty else { return }
        let first = items.count
        items.append(contentsOf: inputs)
        load(first)
        player.play()
    }

    private func move(from: Int, to: Int) {
        guard items.indices.contains(from), (0...items.count).contains(to), from != to else { return }
        let item = items.remove(at: from)
        let dest = to > from ? to - 1 : to
        items.insert(item, at: dest)
        func remap(_ i: Int) -> Int {
            if i == from { return dest }
            var j = i
            if i > from { j -= 1 }
            if j >= dest { j += 1 }
            return j
        }
        index = remap(index)
        failures = Dictionary(uniqueKeysWithValues: failures.map { (remap($0.key), $0.value) })
        durations = Dictionary(uniqueKeysWithValues: durations.map { (remap($0.key), $0.value) })
    }

    private func remove(_ i: Int) {
        guard items.indices.contains(i) else { return }
        items.remove(at: i)
        func remap(_ k: Int) -> Int? { k == i ? nil : (k > i ? k - 1 : k) }
        failures = Dictionary(uniqueKeysWithValues: failures.compactMap { k, v in remap(k).map { ($0, v) } })
        durations = Dictionary(uniqueKeysWithValues: durations.compactMap { k, v in remap(k).map { ($0, v) } })
        if i == index {
            if items.isEmpty {
                player.unload()
                state = PlayerViewState()
                state.volume = player.volume
                state.isMuted = player.isMuted
                index = 0
            } else {
                load(min(i, items.count - 1))
            }
        } else if i < index {
            index -= 1
        }
    }

    func quit() {
        quitRequested = true
        UIRuntime.quit()
    }

    // MARK: Captures

    private func capturePath(kind: String) -> URL {
        try? FileManager.default.createDirectory(at: captureDirectory, withIntermediateDirectories: true)
        let name = (state.title ?? "reel").replacingOccurrences(of: "/", with: "_")
        return captureDirectory.appendingPathComponent("\(name)-\(kind)-\(TimeFormat.fileStamp(player.position)).png")
    }

    private func saveCapture(_ png: Data, kind: String) {
        let url = capturePath(kind: kind)
        do {
            try png.write(to: url)
            lastCapture = url
        } catch {
            FileHandle.standardError.write(Data("reel: the capture could not be written to \(url.path): \(error.localizedDescription)\n".utf8))
        }
    }
}
