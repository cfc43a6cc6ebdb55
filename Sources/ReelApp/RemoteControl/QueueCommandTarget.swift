import Foundation
import ReelCore
import ReelEngine
import ReelGLib

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

    /// The snapshot of this main-loop turn: made once, and again after any change (an event, a
    /// command, a property set) or at the next turn, never per read (a key press read it three
    /// times, an event eleven for MPRIS).
    private var cached: PlaybackSnapshot?
    private var invalidationQueued = false

    var snapshot: PlaybackSnapshot {
        if let cached { return cached }
        let made = freshSnapshot()
        cached = made
        if !invalidationQueued {
            invalidationQueued = true
            MainQueue.shared.async { [weak self] in
                self?.invalidationQueued = false
                self?.cached = nil
            }
        }
        return made
    }

    /// Something changed: the next read makes the snapshot anew.
    func invalidate() { cached = nil }

    private func freshSnapshot() -> PlaybackSnapshot {
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
        snapshot.reachedEnd = player.isAtEnd
        snapshot.network = controller.network
        snapshot.meteredPolicy = controller.networkRule.policy
        snapshot.renditions = controller.currentRenditions
        snapshot.quality = controller.effectiveQuality
        snapshot.pinnedRendition = controller.playingRendition
        snapshot.fileBitrate = fileBitrate()
        snapshot.qoe = qoe()
        return snapshot
    }

    /// The session's properties that the queue owns (its loop, shuffle, metered policy, quality)
    /// and the window's fullscreen (through `fullscreen`, set by a windowed session).
    func declareProperties(in table: PropertyTable) {
        table.declare("QueueSequencer", [
            .choice("loop", PlaybackSnapshot.LoopMode.allCases.map(\.rawValue), "What repeats: None, Track or Playlist (MPRIS's words).",
                    get: { $0.loop.rawValue }) { [weak self] word in
                self?.setLoop(PlaybackSnapshot.LoopMode(rawValue: word) ?? .none)
            },
            .choice("loop-file", ["no", "inf"], "mpv's: the item repeats (inf) or not.", synonyms: ["yes": "inf", "true": "inf", "false": "no"],
                    get: { $0.loop == .track ? "inf" : "no" }) { [weak self] word in self?.setLoop(word == "inf" ? .track : .none) },
            .flag("shuffle", "The queue plays in a random order.", get: { $0.shuffle }) { [weak self] in self?.controller.isShuffled = $0 },
            .choice("metered-policy", ["allow", "cap", "block"], "What network items do on a metered connection.",
                    get: { $0.meteredPolicy.rawValue }) { [weak self] word in
                self?.controller.networkRule.policy = MeteredPolicy(rawValue: word) ?? .default
            },
            PlaybackProperties.rendition { [weak self] in self?.controller.setQuality($0) },
        ])
        table.declare("WindowSession", [
            .flag("fullscreen", "The window fills the screen (null: no window).", get: { [weak self] _ in self?.fullscreen?.get() }) { [weak self] on in
                guard let fullscreen = self?.fullscreen else { throw IPCError(.unavailable, "There is no window in this session (headless).") }
                fullscreen.set(on)
            },
        ])
        table.onChange = { [weak self] in self?.invalidate() }
    }

    /// A local file's average bitrate: its size over its duration (nil otherwise).
    private func fileBitrate() -> Int? {
        guard let uri = player.currentURI, let path = MediaLocator.localPath(of: uri), let duration = player.duration, duration > 0,
              let size = LocalFileFacts(path: path).size, size > 0 else { return nil }
        return Int(Double(size) * 8 / duration)
    }

    func play() {
        stopped = false
        controller.play()
        invalidate()
    }

    func pause() { controller.pause(); invalidate() }
    func toggle() { player.intent == .playing ? pause() : play() }

    func stop() {
        stopped = true
        player.stop()
        invalidate()
    }

    func seek(to seconds: Double, mode: SeekMode) { player.seek(to: seconds, mode: mode); invalidate() }
    func skip(by seconds: Double) { player.skip(by: seconds); invalidate() }

    func next() -> Bool {
        defer { invalidate() }
        guard let i = controller.currentIndex, i + 1 < controller.queue.count || controller.repeatMode == .all else { return false }
        controller.next()
        return true
    }

    func previous() -> Bool {
        defer { invalidate() }
        return controller.previous()
    }

    func jump(to index: Int) -> Bool {
        defer { invalidate() }
        guard controller.queue.items.indices.contains(index) else { return false }
        controller.play(at: index)
        return true
    }

    func moveItem(from: Int, to: Int) -> Bool {
        defer { invalidate() }
        let items = controller.queue.items
        guard items.indices.contains(from), (0...items.count).contains(to) else { return false }
        controller.move(items[from].id, to: to > from ? to - 1 : to)
        return true
    }

    func removeItem(at index: Int) -> Bool {
        defer { invalidate() }
        guard controller.queue.items.indices.contains(index) else { return false }
        controller.remove(controller.queue.items[index].id)
        return true
    }

    func item(_ action: IPCCommand.ItemAction, at index: Int) -> Bool {
        defer { invalidate() }
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

    func load(_ input: String, options: [String: [String]] = [:]) { intake.add([input], .replace, options: options) }
    func append(_ input: String, options: [String: [String]] = [:]) { intake.add([input], .append, options: options) }

    func setLoop(_ mode: PlaybackSnapshot.LoopMode) {
        controller.repeatMode = switch mode {
        case .none: .off
        case .track: .one
        case .playlist: .all
        }
    }

    /// Plays the item the metered policy refused last, this once (the window's "Play anyway").
    func playAnyway() -> Bool {
        defer { invalidate() }
        stopped = false
        return controller.playAnyway()
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
