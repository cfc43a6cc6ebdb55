import Foundation
import ReelCore
import ReelEngine

/// What remote controls (the control socket, MPRIS) drive: the session's `QueueSequencer`.
/// Window capture and quitting belong to the session, which supplies them.
@MainActor
final class QueueCommandTarget: PlaybackCommandTarget {
    let controller: QueueSequencer
    /// The current item's QoE (the session counts it: `SessionCore.currentQoE`).
    var qoe: () -> PlaybackQoE = { PlaybackQoE() }
    var player: Player { controller.player }
    /// Captures the window (PNG to the given path); nil in headless sessions.
    var windowCapture: ((String) throws -> Void)?
    /// The window's fullscreen state (a windowed session sets it).
    var fullscreen: (get: () -> Bool, set: (Bool) -> Void)?
    var onQuit: (Int32) -> Void = { _ in }
    private var stopped = false

    /// Where loaded and appended inputs join the queue (shared with the window's open and drop).
    let intake: QueueIntake

    init(controller: QueueSequencer, intake: QueueIntake) {
        self.controller = controller
        self.intake = intake
    }

    /// The queue's entries as the snapshot has them, made again only when the list changed
    /// (`PlayQueue.layoutVersion`: not on an item's state): a snapshot is taken for every event.
    private var entries: (version: Int, items: [PlaybackSnapshot.Entry]) = (-1, [])

    /// The queue's entries in order (the snapshot's `items`; the window's rows take their titles).
    var queueEntries: [PlaybackSnapshot.Entry] {
        let queue = controller.queue
        if entries.version != queue.layoutVersion {
            entries = (queue.layoutVersion, queue.items.map { PlaybackSnapshot.Entry(uri: $0.uri, title: $0.displayTitle, id: $0.id.lowercaseText) })
        }
        return entries.items
    }

    var snapshot: PlaybackSnapshot {
        let items = queueEntries
        let loop: PlaybackSnapshot.LoopMode = switch controller.repeatMode {
        case .off: .none
        case .one: .track
        case .all: .playlist
        }
        var snapshot = PlaybackSnapshot(items: items, index: controller.currentIndex, position: player.position, duration: player.duration,
                                status: player.status, timeControl: player.timeControlStatus, wantsToPlay: player.intent == .playing,
                                isStopped: stopped || player.intent == .stopped, rate: player.rate, volume: player.volume,
                                muted: player.isMuted, mediaInfo: player.mediaInfo, isSeeking: player.isSeeking,
                                loop: loop, shuffle: controller.isShuffled)
        player.readout(into: &snapshot)
        snapshot.network = controller.network
        snapshot.meteredPolicy = controller.networkRule.policy
        snapshot.renditions = controller.currentRenditions
        snapshot.quality = controller.effectiveQuality
        snapshot.pinnedRendition = controller.playingRendition
        snapshot.volumeMax = volumeMax
        snapshot.fileBitrate = fileBitrate()
        snapshot.qoe = qoe()
        return snapshot
    }

    /// A local file's average bitrate: its size over its duration (nil otherwise).
    private func fileBitrate() -> Int? {
        guard let uri = player.currentURI, let path = MediaLocator.localPath(of: uri), let duration = player.duration, duration > 0,
              let size = LocalFileFacts(path: path).size, size > 0 else { return nil }
        return Int(Double(size) * 8 / duration)
    }

    func selectChapter(_ index: Int) -> Bool { player.selectChapter(index) }
    func stepChapter(_ step: Int) -> Bool { player.stepChapter(step) }
    func setABLoop(_ loop: ABLoop) -> Bool { player.setABLoop(loop); return true }
    func cycleABLoop() -> Bool { player.cycleABLoop(); return true }
    func setAudioDelay(_ seconds: Double) -> Bool { player.setAudioDelay(seconds); return true }
    func setVideoGeometry(_ geometry: VideoGeometry) -> Bool { player.setVideoGeometry(geometry); return true }
    func setPicture(_ control: PictureAdjustments.Control, to value: Int) -> Bool { player.setPicture(control, to: value); return true }

    func seekToLiveEdge() -> Bool {
        guard player.canGoLive else { return false }
        player.seekToLiveEdge()
        return true
    }

    func play() {
        stopped = false
        controller.play()
    }

    func pause() { controller.pause() }
    func toggle() { player.intent == .playing ? pause() : play() }

    func stop() {
        stopped = true
        player.stop()
    }

    func seek(to seconds: Double, mode: SeekMode) { player.seek(to: seconds, mode: mode) }
    func skip(by seconds: Double) { player.skip(by: seconds) }
    func setRate(_ rate: Double) -> Bool { player.setRate(rate) }
    /// The most the volume goes to (`--volume-max`); the socket, MPRIS and the window are held to it.
    var volumeMax = 1.3
    func setVolume(_ volume: Double) { player.volume = min(volumeMax, max(0, volume)) }
    func setMuted(_ muted: Bool) { player.isMuted = muted }

    func next() -> Bool {
        guard let i = controller.currentIndex, i + 1 < controller.queue.count || controller.repeatMode == .all else { return false }
        controller.next()
        return true
    }

    func previous() -> Bool { controller.previous() }

    func jump(to index: Int) -> Bool {
        guard controller.queue.items.indices.contains(index) else { return false }
        controller.play(at: index)
        return true
    }

    func moveItem(from: Int, to: Int) -> Bool {
        let items = controller.queue.items
        guard items.indices.contains(from), (0...items.count).contains(to) else { return false }
        controller.move(items[from].id, to: to > from ? to - 1 : to)
        return true
    }

    func removeItem(at index: Int) -> Bool {
        guard controller.queue.items.indices.contains(index) else { return false }
        controller.remove(controller.queue.items[index].id)
        return true
    }

    func item(_ action: IPCCommand.ItemAction, at index: Int) -> Bool {
        guard controller.queue.items.indices.contains(index) else { return false }
        let id = controller.queue.items[index].id
        stopped = false
        switch action {
        case .play: controller.play(id)
        case .load: controller.load(id)
        case .toggle: controller.toggle(id)
        }
        return true
    }

    func load(_ input: String) { intake.add([input], .replace) }
    func append(_ input: String) { intake.add([input], .append) }
    func load(_ input: String, options: [String: [String]]) { intake.add([input], .replace, options: options) }
    func append(_ input: String, options: [String: [String]]) { intake.add([input], .append, options: options) }

    func setLoop(_ mode: PlaybackSnapshot.LoopMode) -> Bool {
        controller.repeatMode = switch mode {
        case .none: .off
        case .track: .one
        case .playlist: .all
        }
        return true
    }

    func setQuality(_ choice: QualityChoice) -> Bool {
        controller.setQuality(choice)
        return true
    }

    func selectTrack(_ kind: MediaTrack.Kind, index: Int?) -> Bool {
        let ofKind = player.tracks.filter { $0.kind == kind }
        guard let index else { return selectTrack(kind, id: nil) }
        guard ofKind.indices.contains(index) else { return false }
        return selectTrack(kind, id: ofKind[index].id)
    }

    func selectTrack(_ kind: MediaTrack.Kind, id: String?) -> Bool {
        guard let id else {
            guard kind == .subtitle else { return false }
            player.selectSubtitleTrack(nil)
            return true
        }
        guard player.tracks.contains(where: { $0.id == id && $0.kind == kind }) else { return false }
        if kind == .audio { player.selectAudioTrack(id) } else { player.selectSubtitleTrack(id) }
        return true
    }

    func cycleTrack(_ kind: MediaTrack.Kind) -> Bool {
        guard player.tracks.contains(where: { $0.kind == kind }) else { return false }
        switch kind {
        case .audio: player.cycleAudioTrack()
        case .subtitle: player.cycleSubtitleTrack()
        default: return false
        }
        return true
    }

    func stepFrame(forward: Bool) -> Bool {
        guard player.isPrerolled else { return false }
        player.stepFrame(forward: forward)
        return true
    }

    func setSubtitlesShown(_ shown: Bool) -> Bool { player.setSubtitlesShown(shown); return true }
    func setSubtitleScale(_ scale: Double) -> Bool { player.setSubtitleScale(scale); return true }
    func setSubtitleDelay(_ delay: Double) -> Bool { player.setSubtitleDelay(delay); return true }
    func setSubtitlePosition(_ position: Int) -> Bool { player.setSubtitlePosition(position); return true }

    func addSubtitleFile(_ path: String) -> Bool { player.addSubtitleFile(path) }

    func setAspectMode(_ mode: AspectMode) -> Bool {
        player.setAspectMode(mode)
        return true
    }

    func setHardwareDecoding(_ mode: HardwareDecodingMode) -> Bool {
        player.hardwareDecoding = mode
        return true
    }

    var isFullscreen: Bool? { fullscreen?.get() }

    func setFullscreen(_ on: Bool) -> Bool {
        guard let fullscreen else { return false }
        fullscreen.set(on)
        return true
    }

    func setMeteredPolicy(_ policy: MeteredPolicy) -> Bool {
        controller.networkRule.policy = policy
        return true
    }

    /// Plays the item the metered policy refused last, this once (the window's "Play anyway").
    func playAnyway() -> Bool {
        stopped = false
        return controller.playAnyway()
    }

    func setShuffle(_ on: Bool) -> Bool {
        controller.isShuffled = on
        return true
    }

    func captureFrame(_ completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void) {
        player.captureFrameWhenSettled(timeout: 10, completion)
    }

    func captureWindow(_ completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void) {
        guard let windowCapture else {
            completion(.failure(PlaybackError(kind: .output, message: "There is no window in this session (headless): only the video frame can be captured.")))
            return
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-window-\(UUID().uuidString).png").path
        do {
            try windowCapture(path)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            try? FileManager.default.removeItem(atPath: path)
            completion(.success(CapturedFrame(png: data, time: player.position)))
        } catch {
            completion(.failure(PlaybackError(kind: .output, message: "The window could not be captured: \(error)")))
        }
    }

    func quit(status: Int32) { onQuit(status) }
}
