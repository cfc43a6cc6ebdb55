import Foundation

/// The queue as a sequencer: commands (play, load, next, previous, edits) and engine events in,
/// engine commands out, time from an injected clock. It drives any `PlaybackEngine` through a
/// `PlayQueue`: AVQueuePlayer-like explicit controls, the advance on end and on failure, gapless
/// preparation of the next item (`GaplessAdvisor`) and retries of failed network items
/// (`RetryScheduler`). Pure (Foundation only): ReelApp gives it the real `Player`, the gateway's
/// router, GLib's clock and GstDiscoverer's prober; tests give `FakeEngine` and `ManualClock`.
///
/// Events: every engine event is passed on with the queue index of the item it is about (the
/// engine names the item); `.itemChanged` carries that index and the queue item's title. A failed
/// item is marked `.failed(error)` and the queue moves on. When the queue runs out,
/// `.finished(played:failed:reason:)` follows (item nil). Queue-only events (`.retrying`,
/// `.finished`) are the sequencer's own.
@MainActor
public final class QueueSequencer {
    public typealias Observer = @MainActor (_ event: PlayerEvent, _ item: Int?) -> Void

    /// The engine the queue drives (ReelEngine's `Player`, or a test's fake).
    public let engine: any PlaybackEngine
    public let clock: any SequencerClock
    /// Opens local files to decide gapless switches; nil: local items are loaded at the end.
    public let prober: (any StreamLayoutProbing)?
    /// Routes items (the gateway for protected streams); nil plays every item as it is.
    public var router: (any ItemRouting)?
    /// Looks up the videos of a web page (yt-dlp); nil: a web page fails as one.
    public var pageResolver: (any PageResolving)?
    public internal(set) var queue: PlayQueue
    /// How the run has gone: played, failed, finished (`QueueTally`).
    var tally = QueueTally()
    /// Items played to their end / failed since the start (repeats count again).
    public internal(set) var playedCount: Int { get { tally.played } set { tally.played = newValue } }
    public internal(set) var failedCount: Int { get { tally.failed } set { tally.failed = newValue } }
    /// True once the queue ran out (until something is played again).
    public internal(set) var isFinished: Bool { get { tally.finished } set { tally.finished = newValue } }
    var userExited: Bool { get { tally.userExited } set { tally.userExited = newValue } }
    /// Prepare the next item for gapless transitions.
    public var gapless = true {
        didSet { refreshPreroll() }
    }
    public var gaplessAdvisor = GaplessAdvisor()
    public var retries = RetryScheduler()
    /// When and how often a failed network item is tried again (`RetryPolicy.none`: never).
    /// A failed item stays current (its error said) instead of the queue moving on: `reel
    /// review`, where a person judges every item, failed ones too.
    public var holdsFailedItem = false
    /// The rest of a big playlist, still being read while its first entries play (`+Tail`).
    var tail: PendingTail?

    public var retryPolicy: RetryPolicy {
        get { retries.policy }
        set { retries.policy = newValue }
    }

    /// What the network lets the current item do (`NetworkGate`; carried out in `+Network`).
    var gate = NetworkGate()
    /// The desktop's view of the network (`networkChanged`).
    public var network: NetworkState { gate.network }
    /// What Reel does with it: the metered policy and cap.
    public var networkRule: NetworkRule {
        get { gate.rule }
        set {
            gate.rule = newValue
            applyNetwork()
            refreshPreroll()
        }
    }
    /// Seconds an item started without a network waits for one before it fails (`network`).
    public var offlineWait: Double {
        get { gate.offlineWait }
        set { gate.offlineWait = newValue }
    }
    /// The last item the metered policy refused (what "Play anyway" plays).
    public var lastRefusedID: QueueItem.ID? { gate.lastRefusedID }

    /// Adaptive quality of the current item: the choice, the renditions, Reel's rule, what the
    /// rendition events say (`QualityController`; the sequencer tells it what happens).
    public private(set) lazy var qualityControl = QualityController(
        engine: engine, now: { [unowned self] in self.qualityNow }, say: { [unowned self] in self.emit($0, item: self.eventIndex) })

    var observers = ObserverList<Observer>()
    var engineObserver: Int?
    /// The item the engine's events are about now (the engine says).
    public internal(set) var eventItemID: QueueItem.ID?
    /// The item last handed to `engine.load` until its `.itemChanged` arrives: any other change
    /// is a gapless switch.
    var loadAwaitingChange: QueueItem.ID?
    /// What the engine plays for each item (the router's URI), registered once per item.
    var playedURIs: [QueueItem.ID: String] = [:]

    public init(engine: any PlaybackEngine, queue: PlayQueue = PlayQueue(), clock: any SequencerClock,
                prober: (any StreamLayoutProbing)? = nil) {
        self.engine = engine
        self.queue = queue
        self.clock = clock
        self.prober = prober
        engine.endAction = .advance
        engineObserver = engine.addItemObserver { [weak self] event, item in self?.handle(event, engineItem: item) }
    }

    /// Stops listening to the engine (the engine itself is left to its owner).
    public func detach() {
        if let engineObserver { engine.removeItemObserver(engineObserver) }
        engineObserver = nil
        engine.prepareNext(item: nil)
    }

    // MARK: Observers

    @discardableResult
    public func addObserver(_ observer: @escaping Observer) -> Int {
        observers.add(observer)
    }

    public func removeObserver(_ id: Int) { observers.remove(id) }

    func emit(_ event: PlayerEvent, item: Int?) {
        for o in observers.all { o(event, item) }
    }

    // MARK: Reading

    public var current: QueueItem? { queue.current }
    public var currentIndex: Int? { queue.currentIndex }
    /// What a playlist panel shows.
    public var rows: [QueueRow] { queue.rows }
    var eventIndex: Int? { eventItemID.flatMap(queue.index(of:)) }

    // MARK: Explicit controls

    /// Plays the item `id`. When it is already the current item it is not reloaded: a paused
    /// engine resumes, a playing one carries on.
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

    /// The user quit (q, the window closed, the socket's or MPRIS's quit, SIGTERM): the last
    /// event is `finished` with reason `user-exited`, unless the queue had finished already.
    public func userQuit() {
        guard !userExited else { return }
        userExited = true
        if isFinished { return }
        isFinished = true
        emit(.finished(played: playedCount, failed: failedCount, reason: .userExited), item: nil)
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
            if changed, queue.current != nil { loadCurrent() } else { unloadEngine() }
        }
        releaseRouting(id)
        gaplessAdvisor.forget(id)
        refreshPreroll()
    }

    public func move(_ id: QueueItem.ID, to index: Int) {
        queue.move(id: id, to: index)
        refreshPreroll()
    }

    /// mpv's `playlist-clear`: every item but the current one leaves the queue (the current one
    /// plays on); with no current item, the whole queue.
    public func clearAllButCurrent() {
        discardTail()
        guard let current = queue.currentID else { clear(); return }
        for id in queue.keepOnly(current) {
            releaseRouting(id)
            gaplessAdvisor.forget(id)
        }
        refreshPreroll()
    }

    /// mpv's `playlist-shuffle`: a new random order (the current item first); shuffle is on after.
    public func reshuffle() {
        queue.reshuffle()
        refreshPreroll()
    }

    public func clear() {
        discardTail()
        queue.clear()
        unloadEngine()
        for id in Array(playedURIs.keys) { releaseRouting(id) }
        gaplessAdvisor.forgetAll()
    }

    public var repeatMode: RepeatMode {
        get { queue.repeatMode }
        set { queue.repeatMode = newValue; refreshPreroll() }
    }

    public var isShuffled: Bool {
        get { queue.isShuffled }
        set { queue.setShuffle(newValue); refreshPreroll() }
    }
}

/// How a run of the queue has gone so far: what the `finished` event and a check report count.
struct QueueTally {
    /// Items played to their end / failed since the start (repeats count again).
    var played = 0
    var failed = 0
    /// The queue ran out (until something is played again).
    var finished = false
    /// The user quit: nothing more is reported after the `finished` that says so.
    var userExited = false
}
