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
    public internal(set) var queue: PlayQueue
    /// Items played to their end / failed since the start (repeats count again).
    public internal(set) var playedCount = 0
    public internal(set) var failedCount = 0
    /// True once the queue ran out (until something is played again).
    public internal(set) var isFinished = false
    /// The user quit: nothing more is reported after the `finished` that says so.
    var userExited = false
    /// Prepare the next item for gapless transitions.
    public var gapless = true {
        didSet { refreshPreroll() }
    }
    public var gaplessAdvisor = GaplessAdvisor()
    /// The engine's `trackChoiceNeedsLoad` when the gapless switch was last decided: a
    /// `.tracks` event that changes it decides again.
    var trackChoiceNeededLoadAtLastAdvice = false
    public var retries = RetryScheduler()
    /// When and how often a failed network item is tried again (`RetryPolicy.none`: never).
    public var retryPolicy: RetryPolicy {
        get { retries.policy }
        set { retries.policy = newValue }
    }

    /// The desktop's view of the network (`networkChanged`), and what Reel does with it.
    public internal(set) var network = NetworkState.assumed
    public var networkRule = NetworkRule() {
        didSet {
            applyNetwork()
            refreshPreroll()
        }
    }
    /// Seconds an item started without a network waits for one before it fails (`network`).
    public var offlineWait: Double = 30
    /// Items the user chose to play despite the `block` policy ("Play anyway").
    var playAnywayIDs: Set<QueueItem.ID> = []
    /// The last item the metered policy refused (what "Play anyway" plays).
    public internal(set) var lastRefusedID: QueueItem.ID?
    /// The current item has prerolled since it was loaded (an item that never did is bounded by
    /// `offlineWait` while it waits).
    var currentWasReady = false
    /// The current item failed while waiting for the network: it is loaded again (where it had
    /// got to) when the network returns.
    var failedWhileOffline = false
    /// Bumped whenever a wait for the network starts or ends: a bound armed before is void.
    var offlineGeneration = 0

    /// The user's quality choice for adaptive streams (`--quality`, `set_property rendition`).
    public internal(set) var quality: QualityChoice = .auto
    /// The current item's renditions (its master's variants), once read; empty until then.
    public internal(set) var renditions: [HLSVariant] = []
    public internal(set) var renditionsItemID: QueueItem.ID?
    /// The metered cap last reported (`bitrate-cap` events only on change).
    var appliedCap: Int?
    /// The window last given to the engine.
    public internal(set) var limits = RenditionSelector.Limits()
    /// Reel's own rule in auto mode (`AdaptiveRule`), fed from the engine's demuxer at every
    /// progress event; `autoIndex` is the rendition it has chosen for the current item.
    public var adaptiveRule = AdaptiveRule()
    public internal(set) var autoIndex: Int?
    /// What the rendition events say, from what the player fetches (items through the gateway).
    public internal(set) var renditionReport = RenditionReport()
    /// Where the last measured throughput is kept between runs (the start rendition's basis).
    public var throughputMemory: (any ThroughputMemory)?
    /// Sees every sample the rule is given, with the rendition playing (`REEL_ABR_TRACE`: a
    /// recorded trace for the rule's tests and for a QA engineer's questions).
    public var onAdaptiveSample: ((AdaptiveRule.Sample, Int) -> Void)?
    var throughputRememberedAt: Double?

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
        let event = router?.refine(event, uri: engine.currentURI) ?? event
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

    public func clear() {
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
