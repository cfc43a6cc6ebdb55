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
    public internal(set) var currentURI: String?
    /// The item loaded or switched to (its `playedURI` is `currentURI`).
    public internal(set) var currentItem: PlaybackItem?
    public internal(set) var timeControlStatus: TimeControlStatus = .paused
    public internal(set) var rate: Double = 1
    public internal(set) var intent: PlayIntent = .paused
    public internal(set) var status: ItemStatus { get { itemState.status } set { itemState.status = newValue } }
    public internal(set) var duration: Double? { get { itemState.duration } set { itemState.duration = newValue } }
    public internal(set) var mediaInfo: MediaInfo { get { itemState.mediaInfo } set { itemState.mediaInfo = newValue } }
    public internal(set) var isAtEnd: Bool { get { itemState.isAtEnd } set { itemState.isAtEnd = newValue } }
    public var endAction: EndAction
    /// The live state of a played URI (the gateway's `LiveStream` of a routed HLS item), looked
    /// up at every load: set by the session that routes items.
    public var liveStreams: ((String) -> LiveStream?)?
    public let configuration: PlayerConfiguration

    // MARK: Pipeline
    var pipeline: PipelineHandle
    /// The window the sink draws into, and on Wayland the display and place (`VideoOutput`).
    var output = VideoOutput()
    /// Frames wait for a window still being built (`expectWindowHandle`); nil once it is known.
    var windowGate: WindowHandleGate?
    let shared = StreamingShared()
    var bridge: CallbackBridge!
    var timerID: UInt32 = 0
    var watchdogID: UInt32 = 0

    // MARK: Internal state
    var pipelineState: PipelineTarget = .null
    var requestedTarget: PipelineTarget = .null
    /// The current item's state, in one value (see `ItemState`); the handlers read it through
    /// the names below.
    var itemState = ItemState()
    var prerolled: Bool { get { itemState.prerolled } set { itemState.prerolled = newValue } }
    var seekTarget: Double? { get { itemState.seekTarget } set { itemState.seekTarget = newValue } }
    var startPosition: Double? { get { itemState.startPosition } set { itemState.startPosition = newValue } }
    var bufferingPercent: Int? { get { itemState.bufferingPercent } set { itemState.bufferingPercent = newValue } }
    var lastPosition: Double { get { itemState.lastPosition } set { itemState.lastPosition = newValue } }
    var videoFramerate: Double? { get { itemState.videoFramerate } set { itemState.videoFramerate = newValue } }
    var ticker: ProgressTicker { get { itemState.ticker } set { itemState.ticker = newValue } }
    var collectionInfo: MediaInfo { get { itemState.collection } set { itemState.collection = newValue } }
    var videoDisplaySize: (Int, Int)? { get { itemState.videoDisplaySize } set { itemState.videoDisplaySize = newValue } }
    var prerollExtensions: Int { get { itemState.prerollExtensions } set { itemState.prerollExtensions = newValue } }
    var prerollRestarts: Int { get { itemState.prerollRestarts } set { itemState.prerollRestarts = newValue } }
    var seekIsUser = false
    /// A seek has landed but the pipeline has not yet returned to PLAYING: still "seeking".
    var settlingAfterSeek = false
    /// Observers, and events on their way to them (`EventDelivery`).
    let events = EventDelivery()
    /// Where the pipeline is in its life across loads (`LoadLifecycle`).
    var lifecycle = LoadLifecycle()
    /// How the picture fills the video area, the area's size, and the current pipeline's filter
    /// for it (`Player+Aspect`).
    public internal(set) var aspectMode: AspectMode = .fit
    /// Which decoders go first (`--hwdec`), and the item that fell back to software.
    let hardwareDecoders: HardwareDecoders
    var videoArea: (width: Int, height: Int)?
    /// The current pipeline's video filter (aspect modes, external subtitles' overlay).
    var videoFilter: VideoFilter?
    var aspectFilter: AspectFilter? { videoFilter?.aspect }
    /// Paused because the sound server asked (a cork: a call started); its uncork resumes.
    var pausedForAudioFocus = false
    /// The subtitles as drawn: shown or hidden, their look, the cues the overlay has, and the
    /// files being read (`SubtitleDrawing`, `Player+Subtitles`).
    var subtitleDrawing = SubtitleDrawing()
    /// The seeking query (the live window), never a long wait on the main thread.
    let seekingQuery = SeekingQuery()
    /// Whether the chosen subtitle track is shown (`v`).
    public var subtitlesShown: Bool { subtitleDrawing.shown }
    /// The stream collections and the languages last chosen (`TrackMemory`, `Player+Tracks`).
    var trackMemory = TrackMemory()
    /// Tests only: asked for each pipeline built after the first, a video sink description to
    /// use instead of the configuration's (nil: the configuration's), e.g. one that never prerolls.
    @_spi(Testing) public var videoSinkForNextPipeline: (() -> String?)?

    public init(configuration: PlayerConfiguration = PlayerConfiguration()) throws {
        GStreamerRuntime.ensureInitialised()
        self.configuration = configuration
        self.endAction = configuration.endAction
        hardwareDecoders = HardwareDecoders(mode: configuration.hardwareDecoding)
        guard let playbin = reel_make_element("playbin3", "reel-playbin") else {
            throw PlaybackError(kind: .missingCodec, message: "GStreamer's playbin3 element is not installed.")
        }
        pipeline = PipelineHandle(playbin)
        shared.state.withLock {
            $0.userAgent = configuration.userAgent
            $0.networkTimeout = min(3600, max(1, configuration.networkTimeout))
        }
        try installSink(configuration.audioSink, property: "audio-sink")
        try installSink(configuration.videoSink, property: "video-sink")
        if configuration.keepPitch, let scaletempo = reel_make_element("scaletempo", nil) {
            reel_set_object(playbin, "audio-filter", scaletempo)
            gst_object_unref(scaletempo)
        }
        bridge = CallbackBridge(player: self, shared: shared)
        subtitleDrawing.look = SubtitleAdjustments(scale: configuration.subtitleScale, delay: configuration.subtitleDelay,
                                           position: configuration.subtitlePosition)
        installVideoFilter()
        pipeline.attach(bridge: bridge)
        startTimer()
    }

    /// Stops playback and releases the pipeline. The player cannot be used afterwards.
    public func shutdown() {
        if timerID != 0 { g_source_remove(timerID); timerID = 0 }
        windowGate?.cancel()  // a streaming thread waiting for a window that never came goes on
        windowGate = nil
        BitrateCap.forget(shared: shared)
        releaseFrameCatcher()
        cancelPrerollWatchdog()
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
        if loadNeedsFreshPipeline { replacePipeline() }  // see Workarounds/FreshPipelinePerLoad.swift
        lifecycle.generation += 1
        resetItemState()
        currentURI = uri
        currentItem = item
        itemState.live = liveStreams?(uri)
        loadExternalSubtitles()
        lifecycle.awaitingOwnStreamStart = true
        lifecycle.deferredNext = nil
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
                fail(ErrorMapper.map(domain: ErrorMapper.Domain.resource.rawValue, code: 3, message: "local check", debug: path, context: context))
                return
            }
        }
        hardwareDecoders.prepareLoad(of: item)
        Log.debug(.engine, .info, "load \(uri)\(item.attempt > 0 ? " (attempt \(item.attempt))" : "") on a \(lifecycle.hasHadItem ? "used" : "fresh") playbin3")
        reel_set_string(pipeline.element, "uri", uri)
        lifecycle.hasHadItem = true
        armPrerollWatchdog(local: MediaLocator.localPath(of: uri) != nil)
        applyDesiredState()
    }

    /// Removes the current item: the player goes idle.
    public func unload() {
        cancelPrerollWatchdog()
        subtitleDrawing.reads.cancel()
        lifecycle.generation += 1
        resetItemState()
        currentURI = nil
        currentItem = nil
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
        subtitleDrawing.timeline = nil
        videoFilter?.subtitles?.show(nil)
        trackMemory.collection = nil
        trackMemory.next = nil
        if rate != 1 { rate = 1; emit(.rate(1)) }
    }


    // MARK: Transport

    public func play() {
        pausedForAudioFocus = false
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
        if isAtEnd, lifecycle.stalled, let uri = currentURI {
            // The pipeline that stalled at the end is not trusted with a seek: reload the item.
            intent = .playing
            load(uri)
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
        recoverIfBehindLiveWindow()
        applyDesiredState()
    }

    public func pause() {
        pausedForAudioFocus = false
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
        itemState.runAhead.reset()
        setPipeline(.ready)
        updateTimeControl()
    }

    // MARK: Exact frames (see Player+FrameCatcher)

    /// The frames asked for at exact times (`--screenshot-at`), on the current video sink.
    let frameCatcher = FrameCatcher()

    // MARK: Network

    /// The item waits for the network (the queue's `NetworkRule` says so): held PAUSED once
    /// prerolled (position and buffer kept), READY before; time control `waiting` (noNetwork).
    /// Cleared, it goes on as the user's intent says.
    public var isWaitingForNetwork = false {
        didSet { if isWaitingForNetwork != oldValue { applyDesiredState() } }
    }

    /// Caps adaptive streams' bitrate (bits/s; nil: no cap), on the demuxer playing now and on
    /// those of later items (`BitrateCap`).
    public var bitrateCap: Int? {
        get { shared.state.withLock { $0.bitrateCap } }
        set { BitrateCap.set(newValue, floor: bitrateFloor, shared: shared) }
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
        let derived: TimeControlStatus
        if currentURI == nil {
            derived = intent == .playing ? .waitingToPlayAtSpecifiedRate(.noItem) : intent == .stopped ? .stopped : .paused
        } else if isWaitingForNetwork && intent == .playing {
            derived = .waitingToPlayAtSpecifiedRate(.noNetwork)
        } else if case .failed = status {
            derived = .paused
        } else if intent == .stopped {
            derived = .stopped
        } else if intent != .playing {
            derived = .paused
        } else if !prerolled {
            derived = .waitingToPlayAtSpecifiedRate(.loading)
        } else if seekTarget != nil || (settlingAfterSeek && pipelineState != .playing) {
            derived = .waitingToPlayAtSpecifiedRate(.seeking)
        } else if let p = bufferingPercent, p < 100, !mediaInfo.isLive {
            derived = .waitingToPlayAtSpecifiedRate(.buffering(percent: p))
        } else if pipelineState == .playing {
            derived = .playing
        } else {
            derived = .waitingToPlayAtSpecifiedRate(.loading)
        }
        if derived != timeControlStatus {
            timeControlStatus = derived
            emit(.timeControl(derived))
        }
    }

    func fail(_ error: PlaybackError) {
        status = .failed(error)
        seekTarget = nil
        setPipeline(.null)
        emit(.status(status))
        emit(.error(error))
        updateTimeControl()
    }

    // MARK: Preroll watchdog

    // MARK: End-stall watchdog
}
