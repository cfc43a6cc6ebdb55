import Foundation
import ReelCore

/// A scripted `PlaybackEngine` for queue rules tested in milliseconds (in addition to the
/// real-pipeline tests, never instead). It does what it is told and nothing more: a test loads
/// through the queue, then says when the item is ready, reaches its end, switches gaplessly to the
/// prepared item, or fails. Events are delivered like `Player`'s: in order, re-entrant emits
/// queued behind the current one, each with the id of the item current when it was emitted.
@MainActor
public final class FakeEngine: PlaybackEngine {
    public private(set) var currentURI: String?
    public private(set) var currentItem: PlaybackItem?
    /// What `prepareNext(item:)` last gave (the queue's gapless choice).
    public private(set) var nextItem: PlaybackItem?
    public private(set) var status: ItemStatus = .unknown
    public var mediaInfo = MediaInfo()
    public var position: Double = 0
    public private(set) var isAtEnd = false
    public var endAction: EndAction = .pause
    public var isWaitingForNetwork = false
    public var bitrateCap: Int?
    public var bitrateFloor: Int?
    public var bufferingLimit: Double?
    /// What the next `adaptiveStats` reads return (a test scripts the demuxer's buffer).
    public var adaptiveStats: AdaptiveStats?
    public private(set) var trackChoiceNeedsLoad = false
    public private(set) var isPlaying = false
    /// Every item loaded, in order (a gapless switch is not a load).
    public private(set) var loads: [PlaybackItem] = []
    /// Every seek's target, in order.
    public private(set) var seeks: [Double] = []

    private var observers: [Int: @MainActor (PlayerEvent, PlaybackItem?) -> Void] = [:]
    private var nextObserver = 0
    private var pending: [(PlayerEvent, PlaybackItem?)] = []
    private var delivering = false

    public init() {}

    // MARK: PlaybackEngine

    public func load(_ item: PlaybackItem) {
        currentItem = item
        currentURI = MediaLocator.uri(for: item.playedURI)
        status = .unknown
        isAtEnd = false
        position = 0
        loads.append(item)
        emit(.itemChanged(index: nil, uri: currentURI!, title: item.title))
        emit(.status(.unknown))
    }

    public func unload() {
        currentItem = nil
        currentURI = nil
        nextItem = nil
        status = .unknown
        isAtEnd = false
    }

    public func prepareNext(item: PlaybackItem?) { nextItem = item }
    public func play() { isPlaying = true; if isAtEnd { isAtEnd = false; position = 0 } }
    public func pause() { isPlaying = false }
    public func toggle() { isPlaying ? pause() : play() }

    public func seek(to time: Double, mode: SeekMode) {
        position = max(0, time)
        isAtEnd = false
        seeks.append(position)
        emit(.seeked(position: position))
    }

    @discardableResult
    public func addItemObserver(_ observer: @escaping @MainActor (PlayerEvent, PlaybackItem?) -> Void) -> Int {
        nextObserver += 1
        observers[nextObserver] = observer
        return nextObserver
    }

    public func removeItemObserver(_ id: Int) { observers[id] = nil }

    // MARK: Scripts

    /// The current item prerolled: ready, with its duration and what it contains.
    public func becomeReady(duration: Double = 10, info: MediaInfo = MediaInfo(width: 640, height: 360, videoCodec: "H.264", audioCodec: "AAC", isSeekable: true)) {
        status = .readyToPlay
        mediaInfo = info
        emit(.status(.readyToPlay))
        emit(.duration(duration))
        emit(.mediaInfo(info))
    }

    /// The current item reached its end with nothing prepared taken (EOS).
    public func reachEnd() {
        isAtEnd = true
        emit(.playedToEnd)
    }

    /// About-to-finish took the prepared item and its stream started: the old item's end, then
    /// the new item's change, as playbin3 reports a gapless switch. False when nothing was prepared.
    @discardableResult
    public func switchToNext() -> Bool {
        guard let next = nextItem else { return false }
        emit(.playedToEnd)
        nextItem = nil
        currentItem = next
        currentURI = MediaLocator.uri(for: next.playedURI)
        position = 0
        emit(.itemChanged(index: nil, uri: currentURI!, title: next.title))
        status = .readyToPlay
        emit(.status(.readyToPlay))
        return true
    }

    /// Playback moved on to `position` (a fine progress event), the demuxer saying `stats`.
    public func progress(to position: Double, stats: AdaptiveStats?) {
        self.position = position
        adaptiveStats = stats
        emit(.progress(position: position, duration: nil, tick: .fine))
    }

    /// The user (or the preferences) chose other tracks than the defaults, or went back to them.
    public func chooseTracks(needingLoad differ: Bool) {
        trackChoiceNeedsLoad = differ
        emit(.tracks([], selected: [], subtitlesShown: false))
    }

    /// The current item failed.
    public func fail(_ error: PlaybackError) {
        status = .failed(error)
        emit(.status(.failed(error)))
        emit(.error(error))
    }

    private func emit(_ event: PlayerEvent) {
        pending.append((event, currentItem))
        guard !delivering else { return }
        delivering = true
        defer { delivering = false }
        while !pending.isEmpty {
            let (e, id) = pending.removeFirst()
            for key in observers.keys.sorted() { observers[key]?(e, id) }
        }
    }
}
