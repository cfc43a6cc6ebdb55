import CGStreamer
import Foundation
import ReelCore
import Synchronization

/// One player over playbin3. Owns the pipeline, turns bus messages into `PlayerEvent`s and runs
/// commands. Lives on the main thread (the GLib default main context); every event is delivered
/// there, in order, through `addObserver`. Knows nothing of windows: a UI hands it an X11 window
/// id through `setWindowHandle`.
///
/// Time control follows gst-play.c: the user's intent (`PlayIntent`) is kept apart from the
/// pipeline's state, and `TimeControlStatus` is derived from both, so it cannot drift.
@MainActor
public final class Player: PlaybackEngine {
    public typealias Observer = @MainActor (PlayerEvent) -> Void
    /// An observer told, with each event, the id of the item it is about (nil: no item).
    public typealias ItemObserver = @MainActor (PlayerEvent, PlaybackItem?) -> Void

    // MARK: Public state (current values for UIs)
    /// The item loaded or switched to (its `playedURI`, as a URI, is `currentURI`).
    public internal(set) var currentItem: PlaybackItem?
    public var currentURI: String? { currentItem.map { MediaLocator.uri(for: $0.playedURI) } }
    /// The intent, the pipeline's state and the status derived from both (`TimeControl`).
    var time = TimeControl()
    public var timeControlStatus: TimeControlStatus { time.status }
    public internal(set) var rate: Double {
        get { time.rate }
        set {
            time.rate = newValue
            shared.state.withLock { $0.reverse = newValue < 0 }
        }
    }
    public internal(set) var intent: PlayIntent { get { time.intent } set { time.intent = newValue } }
    public internal(set) var status: ItemStatus { get { itemState.status } set { itemState.status = newValue } }
    public internal(set) var duration: Double? { get { itemState.media.duration } set { itemState.media.duration = newValue } }
    public internal(set) var mediaInfo: MediaInfo { get { itemState.media.mediaInfo } set { itemState.media.mediaInfo = newValue } }
    public internal(set) var isAtEnd: Bool { get { itemState.isAtEnd } set { itemState.isAtEnd = newValue } }
    public var endAction: EndAction
    /// The picture's frame rate, once the video sink has its caps.
    public var videoFrameRate: Double? { videoFramerate }
    /// The live state of an item by its id (the gateway's `LiveStream` of a routed HLS or DASH
    /// item), looked up at every load and gapless switch: set by the session that routes items.
    public var liveStreams: ((PlaybackItem.ID) -> LiveStream?)?
    public let configuration: PlayerConfiguration

    // MARK: Pipeline
    var pipeline: PipelineHandle
    /// The window the sink draws into, and on Wayland the display and place (`VideoOutput`).
    var output = VideoOutput()
    /// Frames wait for a window still being built (`expectWindowHandle`); nil once it is known.
    var windowGate: WindowHandleGate? { get { output.gate } set { output.gate = newValue } }
    let shared = StreamingShared()
    var bridge: CallbackBridge!
    /// The main-loop sources the player has armed (the progress timer, the preroll watchdog).
    var timers = PlayerTimers()

    // MARK: Internal state
    var pipelineState: PipelineTarget { get { time.pipelineState } set { time.pipelineState = newValue } }
    var requestedTarget: PipelineTarget { get { time.requestedTarget } set { time.requestedTarget = newValue } }
    /// The current item's state, in one value (see `ItemState`); the handlers read it through
    /// the names below.
    var itemState = ItemState()
    var prerolled: Bool { get { itemState.prerolled } set { itemState.prerolled = newValue } }
    var seekTarget: Double? { get { itemState.progress.seekTarget } set { itemState.progress.seekTarget = newValue } }
    var startPosition: Double? { get { itemState.progress.startPosition } set { itemState.progress.startPosition = newValue } }
    var bufferingPercent: Int? { get { itemState.progress.bufferingPercent } set { itemState.progress.bufferingPercent = newValue } }
    var lastPosition: Double { get { itemState.progress.lastPosition } set { itemState.progress.lastPosition = newValue } }
    var videoFramerate: Double? { get { itemState.media.videoFramerate } set { itemState.media.videoFramerate = newValue } }
    var ticker: ProgressTicker { get { itemState.progress.ticker } set { itemState.progress.ticker = newValue } }
    var collectionInfo: MediaInfo { get { itemState.media.collection } set { itemState.media.collection = newValue } }
    var videoDisplaySize: (Int, Int)? { get { itemState.media.videoDisplaySize } set { itemState.media.videoDisplaySize = newValue } }
    var seekIsUser: Bool { get { time.seekIsUser } set { time.seekIsUser = newValue } }
    var settlingAfterSeek: Bool { get { time.settlingAfterSeek } set { time.settlingAfterSeek = newValue } }
    /// The features (`PlayerFeature`): aspect, audio focus, chapters, live announcements …,
    /// each owning its state, called through hooks.
    let features = PlayerFeatures.standard()
    /// Observers, and events on their way to them (`EventDelivery`).
    let events = EventDelivery()
    /// Where the pipeline is in its life across loads (`LoadLifecycle`).
    var lifecycle = LoadLifecycle()
    /// The current pipeline's video filter (aspect modes, external subtitles' overlay).
    var videoFilter: VideoFilter?
    var aspectFilter: AspectFilter? { videoFilter?.aspect }
    /// The seeking query (the live window), never a long wait on the main thread.
    let seekingQuery = SeekingQuery()
    /// The volume and the mute as Reel set them on playbin3 (`volume`, `isMuted`).
    var sound = (volume: 1.0, muted: false)
    /// Tests only: asked for each pipeline built after the first, a video sink description to
    /// use instead of the configuration's (nil: the configuration's), e.g. one that never prerolls.
    @_spi(Testing) public var videoSinkForNextPipeline: (() -> String?)? {
        get { lifecycle.videoSinkForNextPipeline }
        set { lifecycle.videoSinkForNextPipeline = newValue }
    }

    public init(configuration: PlayerConfiguration = PlayerConfiguration()) throws {
        GStreamerRuntime.ensureInitialised()
        self.configuration = configuration
        self.endAction = configuration.endAction
        for feature in features.all { feature.configure(configuration) }
        pipeline = try Self.makePlaybin()
        shared.state.withLock {
            $0.userAgent = configuration.userAgent
            $0.unroutedManifests = configuration.unroutedManifests
            $0.networkTimeout = min(3600, max(1, configuration.networkTimeout))
        }
        bridge = CallbackBridge(player: self, shared: shared)
        try furnishPipeline(videoSink: configuration.videoSink)
        startTimer()
    }

    /// Stops playback and releases the pipeline. The player cannot be used afterwards.
    public func shutdown() {
        timers.remove(\.progress)
        windowGate?.cancel()  // a streaming thread waiting for a window that never came goes on
        windowGate = nil
        BitrateCap.forget(shared: shared)
        features.each("shutdown") { $0.shutdown(host: self) }
        if pipelineLooksStalled { pipeline.abandon() } else { pipeline.shutdown() }
        events.removeAll()
    }

    // MARK: Observers

    /// Adds an observer; it sees every later event, in order, on the main thread.
    @discardableResult
    public func addObserver(_ observer: @escaping Observer) -> Int {
        events.add(observer)
    }

    public func removeObserver(_ id: Int) { events.remove(id) }

    /// Adds an observer that is told, with every later event, the id of the item the event is
    /// about: the one current when it was emitted (a gapless switch's `.playedToEnd` is the old
    /// item's, its `.itemChanged` the new one's).
    @discardableResult
    public func addItemObserver(_ observer: @escaping ItemObserver) -> Int {
        events.addItemObserver(observer)
    }

    public func removeItemObserver(_ id: Int) { events.removeItemObserver(id) }

    /// Reports `event` as the current item's (see `EventDelivery`).
    func emit(_ event: PlayerEvent) { events.emit(event, item: currentItem) }

    // MARK: Loading

    /// Loads an input (a path, file:// or http(s) URI) as a new item. Keeps the play/pause
    /// intent: a playing player starts the new item. `headers` go on the item's HTTP source
    /// (first request only: protected HLS goes through the gateway instead).
    public func load(_ input: String, headers: [(String, String)] = [], title: String? = nil) {
        let uri = MediaLocator.uri(for: input)
        load(PlaybackItem(uri: uri, headers: headers.map { (name: $0.0, value: $0.1) }, title: title))
    }

    /// Loads `item` (it plays `item.playedURI`); every event until the next load or switch
    /// carries its id (`addItemObserver`).
    public func load(_ item: PlaybackItem) {
        let uri = MediaLocator.uri(for: item.playedURI)
        let title = item.title
        lifecycle.inProgress = true
        defer { lifecycle.inProgress = false }
        if loadNeedsFreshPipeline {  // see Workarounds/FreshPipelinePerLoad.swift
            Log.debug(.engine, .debug, "workaround fresh-pipeline-per-load: a new playbin3 for this load\(lifecycle.stalled ? " (the last one stalled)" : "")")
            replacePipeline()
        }
        lifecycle.generation += 1
        resetItemState()
        currentItem = item
        features.each("itemStarted") { $0.itemStarted(item, switched: false, host: self) }
        lifecycle.awaitingOwnStreamStart = true
        shared.state.withLock { $0.headers = item.headers.map { ($0.name, $0.value) } }
        forgetStreamingSideItem()
        setPipeline(.null)
        if intent == .stopped { intent = .paused }
        emit(.itemChanged(index: nil, uri: uri, title: title ?? MediaLocator.displayName(of: uri)))
        emit(.status(.unknown))
        // Local files are checked before GStreamer sees them: the answer is immediate and exact.
        // A folder, a pipe or a device is named as such, and never opened (a FIFO blocks filesrc).
        if let path = MediaLocator.localPath(of: uri) {
            let facts = LocalFileFacts(path: path)
            if !facts.isPlayable {
                var context = ErrorMapper.Context(uri: uri)
                context.describeLocalFile(facts)
                fail(ErrorMapper.map(domain: ErrorMapper.Domain.resource.quark, code: 3, message: "local check", debug: path, context: context))
                return
            }
        }
        Log.debug(.engine, .info, "load \(uri)\(item.attempt > 0 ? " (attempt \(item.attempt))" : "") on a \(lifecycle.hasHadItem ? "used" : "fresh") playbin3")
        reel_set_string(pipeline.element, "uri", uri)
        lifecycle.hasHadItem = true
        applyDesiredState()
    }

    /// Removes the current item: the player goes idle.
    public func unload() {
        lifecycle.generation += 1
        resetItemState()
        currentItem = nil
        features.each("itemUnloaded") { $0.itemUnloaded(host: self) }
        lifecycle.awaitingOwnStreamStart = false
        dropPendingSwitch()
        setPipeline(.null)
        updateTimeControl()
    }

    /// A loaded item starts from nothing: the one place where per-item state is made new (a
    /// gapless switch hands it over in `onStreamStart` instead).
    func resetItemState() {
        itemState = ItemState(direction: rate)
        seekingQuery.reset()
        if rate != 1 { rate = 1; emit(.rate(1)) }
    }


    // MARK: Transport

    public func play() {
        features.each("userChangedIntent") { $0.userChangedIntent(host: self) }
        guard currentURI != nil else {
            intent = .playing
            updateTimeControl()
            return
        }
        if case .failed = status {
            intent = .playing  // the next item plays
            updateTimeControl()
            return
        }
        if isAtEnd, lifecycle.stalled, let item = currentItem {
            // The pipeline that stalled at the end is not trusted with a seek: reload the item.
            intent = .playing
            load(item)
            return
        }
        if isAtEnd {
            // Play after the end replays (AVPlayer users expect the button to work).
            intent = .playing
            seek(to: rate < 0 ? (duration ?? 0) : 0, mode: .accurate)
            applyDesiredState()
            return
        }
        intent = .playing
        features.each("resuming") { $0.resuming(host: self) }
        applyDesiredState()
    }

    public func pause() {
        features.each("userChangedIntent") { $0.userChangedIntent(host: self) }
        intent = .paused
        applyDesiredState()
    }

    public func toggle() {
        if intent == .playing { pause() } else { play() }
    }

    /// Stops: back to the start, pipeline in READY, the item kept.
    public func stop() {
        intent = .stopped
        prerolled = false
        seekTarget = nil
        lastPosition = 0
        isAtEnd = false
        ticker.reset()
        features.each("positionJumped") { $0.positionJumped(host: self) }
        setPipeline(.ready)
        updateTimeControl()
    }

    // MARK: Network

    /// The item waits for the network (the queue's `NetworkRule` says so): held PAUSED once
    /// prerolled (position and buffer kept), READY before; time control `waiting` (noNetwork).
    /// Cleared, it goes on as the user's intent says.
    public var isWaitingForNetwork: Bool {
        get { time.waitingForNetwork }
        set {
            guard newValue != time.waitingForNetwork else { return }
            time.waitingForNetwork = newValue
            applyDesiredState()
        }
    }

    /// Caps adaptive streams' bitrate (bits/s; nil: no cap), on the demuxer playing now and on
    /// those of later items (`BitrateCap`).
    public var bitrateCap: Int? {
        get { shared.state.withLock { $0.bitrateCap } }
        set { BitrateCap.set(newValue, floor: bitrateFloor, shared: shared) }
    }

    /// Writes what the player knows into `snapshot`: the picture's frame rate, the adaptive
    /// demuxer's stats and the subtitle text drawn, the live part, and every feature's
    /// through its `readout` hook, in registration order. A feature's state reaches the socket,
    /// MPRIS and the window without an edit here or in the command target.
    public func readout(into snapshot: inout PlaybackSnapshot) {
        snapshot.videoFrameRate = videoFrameRate
        snapshot.adaptive = adaptiveStats
        snapshot.subtitleText = subtitleText
        for feature in features.all { feature.readout(into: &snapshot, host: self) }
    }

    /// The adaptive demuxer's buffer and throughput (HLS, DASH), nil for other items.
    public var adaptiveStats: AdaptiveStats? {
        BitrateCap.stats(shared: shared).map {
            AdaptiveStats(buffered: $0.buffered, throughput: $0.throughput, playing: timeControlStatus == .playing && rate == 1)
        }
    }

    /// The most adaptive demuxers buffer ahead (seconds; nil: their own 30 s), on the demuxer
    /// playing now and on those of later items (`BitrateCap`).
    public var bufferingLimit: Double? {
        get { shared.state.withLock { $0.bufferingLimit } }
        set { BitrateCap.setBufferingLimit(newValue, shared: shared) }
    }

    /// The floor of adaptive streams' bitrate window (a pinned rendition), nil for none.
    public var bitrateFloor: Int? {
        get { shared.state.withLock { $0.bitrateFloor } }
        set { BitrateCap.set(bitrateCap, floor: newValue, shared: shared) }
    }

    // MARK: Rate

    // MARK: Frames

    // MARK: Time control (derived, never set directly)

    func updateTimeControl() {
        var failed = false
        if case .failed = status { failed = true }
        let item = TimeControl.Item(loaded: currentItem != nil, failed: failed, prerolled: prerolled, seeking: seekTarget != nil,
                                    bufferingPercent: bufferingPercent, isLive: mediaInfo.isLive)
        if let changed = time.update(item: item) { emit(.timeControl(changed)) }
    }

    func fail(_ error: PlaybackError) {
        status = .failed(error)
        seekTarget = nil
        // A pipeline that never prerolled may have a streaming thread still at work (matroskademux
        // reads 100,000 chapters for ~50 s while holding its pad's stream lock): its NULL state
        // change is made on the reaper thread, never here, where it froze the main loop.
        if prerolled { setPipeline(.null) } else { replacePipeline() }
        emit(.status(status))
        emit(.error(error))
        updateTimeControl()
    }

    // MARK: Preroll watchdog

    // MARK: End-stall watchdog
}
