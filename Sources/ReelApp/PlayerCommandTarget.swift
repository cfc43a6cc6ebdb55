import Foundation
import ReelCore
import ReelEngine

/// `PlaybackCommandTarget` for a plain `Player` and a list of items: what the control socket and
/// MPRIS drive until the queue controller (issue 4) adopts the protocol. It moves on to the next
/// item at the end of one and after a failure (the queue goes on), and reports every event with
/// the index of the item it belongs to.
@MainActor
final class PlayerCommandTarget: PlaybackCommandTarget {
    let player: Player
    private(set) var items: [PlaybackSnapshot.Entry] = []
    private(set) var index: Int?
    private(set) var played = 0
    private(set) var failed = 0
    private var stopped = false
    /// Indices of loads whose `.itemChanged` has not been delivered yet (see PlaybackSession).
    private var pendingLoads: [Int] = []
    private var eventItem: Int?

    /// Every event, with the item it belongs to (`.itemChanged` carries its index).
    var onEvent: (PlayerEvent, Int?) -> Void = { _, _ in }
    /// Called when the last item ended or failed (after `.finished` was reported).
    var onFinished: (_ played: Int, _ failed: Int) -> Void = { _, _ in }
    var onQuit: (Int32) -> Void = { _ in }

    init(player: Player, inputs: [String]) {
        self.player = player
        items = inputs.map { PlaybackSnapshot.Entry(uri: MediaLocator.uri(for: $0), title: CaptureFileName.title(for: MediaLocator.uri(for: $0))) }
        player.endAction = .advance
        player.addObserver { [weak self] event in self?.handle(event) }
    }

    /// Loads the first item (and plays it when `play`).
    func start(play: Bool) {
        if play { player.play() }
        if !items.isEmpty { load(at: 0) }
    }

    private func load(at i: Int) {
        index = i
        stopped = false
        pendingLoads.append(i)
        player.load(items[i].uri, title: items[i].title)
    }

    private func handle(_ event: PlayerEvent) {
        var reported = event
        if case .itemChanged(_, let uri, let title) = event {
            eventItem = pendingLoads.isEmpty ? eventItem : pendingLoads.removeFirst()
            reported = .itemChanged(index: eventItem, uri: uri, title: title)
        }
        onEvent(reported, eventItem)
        switch event {
        case .playedToEnd:
            played += 1
            advanceAfterEnd()
        case .error:
            failed += 1
            advanceAfterEnd()
        default:
            break
        }
    }

    private func advanceAfterEnd() {
        guard let i = index else { return }
        if i + 1 < items.count {
            load(at: i + 1)  // the player keeps the play/pause intent
            return
        }
        onEvent(.finished(played: played, failed: failed), nil)
        onFinished(played, failed)
    }

    // MARK: PlaybackCommandTarget

    var snapshot: PlaybackSnapshot {
        PlaybackSnapshot(items: items, index: index, position: player.position, duration: player.duration, status: player.status,
                         timeControl: player.timeControlStatus, wantsToPlay: player.intent == .playing, isStopped: stopped || player.intent == .stopped,
                         rate: player.rate, volume: player.volume, muted: player.isMuted, mediaInfo: player.mediaInfo,
                         isSeeking: player.isSeeking)
    }

    func play() {
        stopped = false
        if index == nil, !items.isEmpty { player.play(); load(at: 0); return }
        player.play()
    }

    func pause() { player.pause() }
    func toggle() { player.intent == .playing ? pause() : play() }

    func stop() {
        stopped = true
        player.stop()
    }

    func seek(to seconds: Double, mode: SeekMode) { player.seek(to: seconds, mode: mode) }
    func skip(by seconds: Double) { player.skip(by: seconds) }
    func setRate(_ rate: Double) -> Bool { player.setRate(rate) }
    func setVolume(_ volume: Double) { player.volume = volume }
    func setMuted(_ muted: Bool) { player.isMuted = muted }

    func next() -> Bool {
        let i = (index ?? -1) + 1
        guard i < items.count else { return false }
        load(at: i)
        return true
    }

    func previous() -> Bool {
        guard let i = index, i > 0 else { return false }
        load(at: i - 1)
        return true
    }

    func jump(to i: Int) -> Bool {
        guard items.indices.contains(i) else { return false }
        load(at: i)
        return true
    }

    func load(_ input: String) {
        let uri = MediaLocator.uri(for: input)
        items = [PlaybackSnapshot.Entry(uri: uri, title: CaptureFileName.title(for: uri))]
        player.play()
        load(at: 0)
    }

    func append(_ input: String) {
        let uri = MediaLocator.uri(for: input)
        items.append(PlaybackSnapshot.Entry(uri: uri, title: CaptureFileName.title(for: uri)))
        if index == nil { load(at: items.count - 1) }
    }

    func captureFrame(_ completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void) {
        player.captureFrameWhenSettled(timeout: 10, completion)
    }

    func quit(status: Int32) { onQuit(status) }
}
