import Foundation
import ReelCore
import ReelEngine
import ReelGLib

/// Drives a `Player` through a `PlayQueue`: AVQueuePlayer-like explicit controls, the automatic
/// advance on end and on failure, and gapless pre-roll of the next item through playbin3's
/// about-to-finish (`Player.prepareNext`).
///
/// Events: every player event is passed on with the queue index of the item it belongs to;
/// `.itemChanged` carries that index and the queue item's title. A failed item is marked
/// `.failed(error)` in the queue and the queue moves on. When the queue runs out,
/// `.finished(played:failed:)` follows (item nil).
///
/// Gapless pre-roll is skipped (the item is loaded at the end instead) when either side has
/// per-entry headers, since the HTTP source's headers cannot change inside a gapless switch,
/// for local files that are missing or empty, which fail at once on load, and for local files
/// that a probe finds unplayable or with other kinds of streams than the current item (see
/// `refreshPreroll`).
///
/// A network item that fails with a network or server error is loaded again after a back-off
/// (`retryPolicy`, reported as `.retrying`), resuming where it stopped when it had started;
/// only the last failure is reported as `.error` and counted.
///
/// A damaged local file whose demuxer error GStreamer 1.22 loses never prerolls: the player's
/// own preroll watchdog (`PlayerConfiguration.localPrerollTimeout`) fails it as `corrupt`, and
/// the queue moves on as for any other failure.
@MainActor
public final class QueueController {
    public typealias Observer = @MainActor (_ event: PlayerEvent, _ item: Int?) -> Void

    /// The engine the queue drives (a real `Player`, or a test's fake).
    public let engine: any PlaybackEngine
    /// The engine as ReelEngine's `Player`, for what only it has (captures, volume, the window):
    /// set when the controller was made with one (every session), nil with a fake engine.
    public let player: Player!
    public private(set) var queue: PlayQueue
    /// Items played to their end / failed since the start (repeats count again).
    public private(set) var playedCount = 0
    public private(set) var failedCount = 0
    /// True once the queue ran out (until something is played again).
    public private(set) var isFinished = false
    /// The user quit: nothing more is reported after the `finished` that says so.
    var userExited = false
    /// Pre-roll the next item for gapless transitions.
    public var gapless = true {
        didSet { refreshPreroll() }
    }
    /// When and how often a failed network item is tried again (`RetryPolicy.none`: never).
    public var retryPolicy = RetryPolicy()

    var observers = ObserverList<Observer>()
    var playerObserver: Int?
    /// Items handed to `engine.load` whose `.itemChanged` has not arrived yet, in order.
    var pendingLoads: [QueueItem.ID] = []
    /// The item the player's events are about now.
    public private(set) var eventItemID: QueueItem.ID?
    /// Routes protected network items through the loopback gateway (issue 5); nil plays every
    /// item as it is. Events are refined so that they name the item's own URL and the gateway's
    /// account of a refusal.
    var router: GatewayRouter?
    var playableURIs: [QueueItem.ID: String] = [:]
    /// Retries made for the current item since it was last loaded by anything but a retry.
    var retries: (id: QueueItem.ID, count: Int, resumeAt: Double?)?
    /// Bumped by every load that is not a retry: a retry scheduled before it is void.
    var loadGeneration = 0
    /// A retry's load: its `.itemChanged` is not passed on (the item did not change).
    var retryLoad: QueueItem.ID?

    public convenience init(player: Player, queue: PlayQueue = PlayQueue()) {
        self.init(engine: player, player: player, queue: queue)
    }

    /// A controller over any engine (tests give a `FakeEngine`).
    public convenience init(engine: any PlaybackEngine, queue: PlayQueue = PlayQueue()) {
        self.init(engine: engine, player: nil, queue: queue)
    }

    private init(engine: any PlaybackEngine, player: Player?, queue: PlayQueue) {
        self.engine = engine
        self.player = player
        self.queue = queue
        engine.endAction = .advance
        // The engine says which item each event is about (a gapless switch names the item that
        // `prepareNext(item:)` gave it); queue items and engine items share their ids.
        playerObserver = engine.addItemObserver { [weak self] event, item in self?.handle(event, engineItem: item) }
    }

    /// Stops listening to the player (the player itself is left to its owner).
    public func detach() {
        if let playerObserver { engine.removeItemObserver(playerObserver) }
        playerObserver = nil
        engine.prepareNext(item: nil)
    }

    // MARK: Observers

    @discardableResult
    public func addObserver(_ observer: @escaping Observer) -> Int {
        observers.add(observer)
    }

    public func removeObserver(_ id: Int) { observers.remove(id) }

    func emit(_ event: PlayerEvent, item: Int?) {
        let event = router?.refine(event, uri: engine.currentURI) ?? event
        for o in observers.all { o(event, item) }
    }

    // MARK: Reading

    public var current: QueueItem? { queue.current }
    public var currentIndex: Int? { queue.currentIndex }
    /// What a playlist panel shows.
    public var rows: [QueueRow] { queue.rows }

    // MARK: Explicit controls

    /// Plays the item `id`. When it is already the current item it is not reloaded: a paused
    /// player resumes, a playing one carries on.
    public func play(_ id: QueueItem.ID) {
        guard queue.item(id) != nil else { return }
        if isLoadedCurrent(id) {
            engine.play()
            return
        }
        queue.jump(to: id)
        loadCurrent()
        engine.play()
    }

    /// Makes the item `id` current, prepared and buffered but paused. The current item is not
    /// reloaded, only paused.
    public func load(_ id: QueueItem.ID) {
        guard queue.item(id) != nil else { return }
        engine.pause()
        if isLoadedCurrent(id) { return }
        queue.jump(to: id)
        loadCurrent()
    }

    /// Pauses the item `id` when it is the playing current item, plays it otherwise.
    public func toggle(_ id: QueueItem.ID) {
        if isLoadedCurrent(id) { engine.toggle() } else { play(id) }
    }

    /// Plays the item at `index` (see `play(_:)`).
    public func play(at index: Int) {
        guard queue.items.indices.contains(index) else { return }
        play(queue.items[index].id)
    }

    /// Plays the queue from its current item (the first when none).
    public func play() {
        if let id = queue.currentID { play(id) } else if let first = queue.items.first { play(first.id) }
    }

    public func pause() { engine.pause() }

    /// The user's next: the following item (repeat one does not hold it).
    public func next() {
        guard let item = queue.next() else { return }
        if isLoadedCurrent(item.id) { engine.seek(to: 0, mode: .accurate); return }
        loadCurrent()
    }

    /// The user's previous, the same from every front end (keys, buttons, the socket, MPRIS):
    /// restarts the current item when more than 3 s in or when it is the first, else the item
    /// before (`PlayQueue.previous`). Returns false only when nothing is current.
    @discardableResult
    public func previous() -> Bool {
        guard let (item, restarted) = queue.previous(position: engine.position) else { return false }
        if restarted && isLoadedCurrent(item.id) {
            engine.seek(to: 0, mode: .accurate)
        } else {
            loadCurrent()
        }
        return true
    }

    // MARK: Editing (keeps the gapless successor right)

    public func append(_ items: [QueueItem]) {
        registerSecrets(items)
        queue.append(items)
        refreshPreroll()
    }

    public func insert(_ items: [QueueItem], after id: QueueItem.ID?) {
        registerSecrets(items)
        queue.insert(items, after: id)
        refreshPreroll()
    }

    /// Removes an item; removing the playing item plays the one that took its place.
    public func remove(_ id: QueueItem.ID) {
        let wasCurrent = queue.currentID == id
        let changed = queue.remove(id: id)
        if wasCurrent {
            if changed, queue.current != nil { loadCurrent() } else { unloadPlayer() }
        }
        releaseRouting(id)
        layouts[id] = nil
        refreshPreroll()
    }

    public func move(_ id: QueueItem.ID, to index: Int) {
        queue.move(id: id, to: index)
        refreshPreroll()
    }

    public func clear() {
        queue.clear()
        unloadPlayer()
        for id in Array(playableURIs.keys) { releaseRouting(id) }
        layouts.removeAll()
    }

    /// An item left the queue: its gateway registration goes too (its URLs answer 404 from now on).
    func releaseRouting(_ id: QueueItem.ID) {
        guard let uri = playableURIs.removeValue(forKey: id) else { return }
        router?.release(uri)
    }

    public var repeatMode: RepeatMode {
        get { queue.repeatMode }
        set { queue.repeatMode = newValue; refreshPreroll() }
    }

    public var isShuffled: Bool {
        get { queue.isShuffled }
        set { queue.setShuffle(newValue); refreshPreroll() }
    }

    // MARK: Loading

    func isLoadedCurrent(_ id: QueueItem.ID) -> Bool {
        guard queue.currentID == id, let item = queue.current,
              engine.currentURI == playableURIs[id] ?? MediaLocator.uri(for: item.uri) else { return false }
        if case .failed = engine.status { return false }
        return true
    }

    func loadCurrent(retry: Bool = false) {
        guard let item = queue.current else { return }
        if retry {
            retryLoad = item.id
        } else {
            loadGeneration += 1
            retries = nil
            retryLoad = nil
        }
        isFinished = false
        pendingLoads.append(item.id)
        let uri: String
        do { uri = try playableURI(item) } catch {
            // A bad per-entry option fails this item clearly; the queue goes on.
            pendingLoads.removeLast()
            eventItemID = item.id
            let failure = PlaybackError(kind: .invalidPlaylist, message: error.description, uri: item.uri)
            emit(.itemChanged(index: eventIndex, uri: Redactor.redactURL(item.uri), title: item.displayTitle), item: eventIndex)
            emit(.error(failure), item: eventIndex)
            failedCount += 1
            advance(.failed(failure))
            return
        }
        // Routed items get their headers from the gateway; the source must not add them again.
        let routed = uri != MediaLocator.uri(for: item.uri)
        engine.load(PlaybackItem(id: item.id, uri: item.uri, playedURI: uri, headers: routed ? [] : item.headers.map { (name: $0.0, value: $0.1) },
                                 title: item.displayTitle, options: item.options))
        refreshPreroll()
    }

    func unloadPlayer() {
        pendingLoads.removeAll()
        eventItemID = nil
        engine.prepareNext(item: nil)
        engine.unload()
    }

    /// The URI the player gets for an item: the gateway's for protected items (registered once
    /// per item). Throws when the item's playlist options are invalid.
    func playableURI(_ item: QueueItem) throws(ProtectedEntryOptions.OptionError) -> String {
        if let known = playableURIs[item.id] { return known }
        guard let router else { return MediaLocator.uri(for: item.uri) }
        let uri = router.loadURI(for: item.uri, arrival: item.arrival, entry: try ProtectedEntryOptions(options: item.options))
        playableURIs[item.id] = uri
        return uri
    }

    /// Probed items (nil value: the probe failed), and those being probed now.
    var layouts: [QueueItem.ID: Layout?] = [:]
    var probing: Set<QueueItem.ID> = []

    func registerSecrets(_ items: [QueueItem]) {
        for item in items {
            for (name, values) in item.options {
                for value in values where PlaylistOptions.isSecret(name: name, value: value) {
                    if name == PlaylistOptions.header, let (_, v) = PlaylistOptions.splitHeader(value) {
                        Redactor.register(secret: v)
                        if let space = v.firstIndex(of: " ") { Redactor.register(secret: String(v[v.index(after: space)...])) }
                    } else {
                        Redactor.register(secret: value)
                    }
                }
            }
        }
    }

    // MARK: Player events

    var eventIndex: Int? { eventItemID.flatMap(queue.index(of:)) }

    func handle(_ event: PlayerEvent, engineItem: PlaybackItem.ID?) {
        switch event {
        case .itemChanged(_, let uri, let title):
            let id: QueueItem.ID?
            if !pendingLoads.isEmpty {
                id = pendingLoads.removeFirst()
            } else if let switched = engineItem, queue.item(switched) != nil {
                // A gapless switch: the engine names the prepared item that has started.
                id = switched
                if queue.currentID != switched { queue.jump(to: switched) }
                refreshPreroll()
            } else {
                id = nil
            }
            eventItemID = id
            if let id, id == retryLoad {
                retryLoad = nil
                return  // the same item again, after a `.retrying`
            }
            let item = id.flatMap(queue.item)
            emit(.itemChanged(index: eventIndex, uri: uri, title: item?.displayTitle ?? title), item: eventIndex)
        case .playedToEnd:
            emit(event, item: eventIndex)
            playedCount += 1
            if engine.isAtEnd {
                advance(.played)
            } else if queue.currentID != nil {
                // The gapless switch's stream has started (its `.itemChanged` follows): the
                // queue moves without reloading.
                queue.finishCurrent(.played)
            }
        case .status(.failed(let error)) where nextRetry(after: error) != nil:
            break  // the `.retrying` that follows the error says it all
        case .error(let error) where scheduleRetry(after: error):
            break
        case .status(.readyToPlay):
            emit(event, item: eventIndex)
            resumeAfterRetry()
        case .mediaInfo:
            emit(event, item: eventIndex)
            // The current item's streams are known now: a gapless switch may be prepared.
            if let current = queue.current, MediaLocator.localPath(of: current.uri) == nil, eventItemID == current.id { refreshPreroll() }
        case .error(let error):
            emit(event, item: eventIndex)
            failedCount += 1
            if let id = eventItemID, id != queue.currentID, queue.item(id) != nil {
                queue.setState(.failed(error), for: id)
            } else {
                advance(.failed(error))
            }
        case .duration(let d):
            if let id = eventItemID, let d { queue.update(id: id, duration: d) }
            emit(event, item: eventIndex)
        default:
            emit(event, item: eventIndex)
        }
    }

    /// The current item ended (or failed): the next one, or the end of the queue.
    func advance(_ outcome: ItemOutcome) {
        guard queue.currentID != nil else { return }
        if queue.finishCurrent(outcome) != nil {
            loadCurrent()
        } else {
            isFinished = true
            engine.prepareNext(item: nil)
            // After the player's own reaction to the end (it pauses): `.finished` is the last
            // event of the queue.
            let played = playedCount, failed = failedCount
            let reason: EndReason = if case .failed = outcome { .error } else { .ended }
            MainQueue.shared.async { [weak self] in
                guard let self, self.isFinished, !self.userExited else { return }
                self.emit(.finished(played: played, failed: failed, reason: reason), item: nil)
            }
        }
    }

    /// The user quit (q, the window closed, the socket's or MPRIS's quit, SIGTERM): the last
    /// event is `finished` with reason `user-exited`, unless the queue had finished already.
    public func userQuit() {
        guard !userExited else { return }
        userExited = true
        if isFinished { return }
        isFinished = true
        emit(.finished(played: playedCount, failed: failedCount, reason: .userExited), item: nil)
    }
}
