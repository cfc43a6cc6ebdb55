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
public final class Player {
    public typealias Observer = @MainActor (PlayerEvent) -> Void

    // MARK: Public state (current values for UIs)
    public private(set) var currentURI: String?
    public private(set) var status: ItemStatus = .unknown
    public private(set) var timeControlStatus: TimeControlStatus = .paused
    public private(set) var duration: Double?
    public private(set) var mediaInfo = MediaInfo()
    public private(set) var rate: Double = 1
    public private(set) var intent: PlayIntent = .paused
    public private(set) var isAtEnd = false
    public var endAction: EndAction
    public let configuration: PlayerConfiguration

    // MARK: Pipeline
    private var pipeline: PipelineHandle
    private var windowHandle: UInt?
    private let shared = StreamingShared()
    private var bridge: CallbackBridge!
    private var timerID: UInt32 = 0
    private var watchdogID: UInt32 = 0

    // MARK: Internal state
    private var pipelineState: PipelineTarget = .null
    private var requestedTarget: PipelineTarget = .null
    private var prerolled = false
    private var seekTarget: Double?
    private var seekIsUser = false
    /// A seek has landed but the pipeline has not yet returned to PLAYING: still "seeking".
    private var settlingAfterSeek = false
    private var startPosition: Double?
    private var bufferingPercent: Int?
    private var lastPosition: Double = 0
    private var ticker = ProgressTicker()
    /// The progress timer's last believed position and when it was read (reset with `ticker`).
    private var timerReading: (position: Double, at: ContinuousClock.Instant)?
    private var observers = ObserverList<Observer>()
    private var pendingEvents: [PlayerEvent] = []
    private var deduplicator = EventDeduplicator()
    private var delivering = false
    private var loadGeneration = 0
    private var videoFramerate: Double?
    private var collectionInfo = MediaInfo()
    /// The next item's stream collection, when it came before that item's STREAM_START.
    private var nextCollection: (info: MediaInfo, displaySize: (Int, Int)?)?
    /// The current item's picture size in square pixels, from its stream collection: frame
    /// captures are encoded at it (the sink's frame may be scaled to the window).
    private var videoDisplaySize: (Int, Int)?
    /// True from a load until that item's own STREAM_START: a STREAM_START before it is not a
    /// gapless switch, even when about-to-finish already took the next URI (a short or fully
    /// downloaded item reaches about-to-finish before its own stream has started at the sinks).
    private var awaitingOwnStreamStart = false
    /// A `prepareNext` made before the loaded item's own STREAM_START: handed to the streaming
    /// side only then, so that an error from the next item cannot arrive before the current
    /// item has even started (it would be blamed on the wrong item).
    private var deferredNext: String?
    /// The end-stall watchdog's last position and since when it has not moved.
    private var stallWatch: (position: Double, since: ContinuousClock.Instant)?
    /// The pipeline stopped at an item's end without EOS once: the next load (or a replay) is
    /// given a fresh one rather than this one.
    private var pipelineStalled = false
    /// The pipeline was given a URI: the next load builds a fresh one (see `load`).
    private var pipelineHasHadItem = false
    /// How many times the preroll watchdog gave the current item more time (the probe opened it).
    private var prerollExtensions = 0
    /// How many times the current item was started again on a fresh pipeline because the one it
    /// was on had not prerolled although the watchdog's probe opened the file.
    private var prerollRestarts = 0
    /// Tests only: asked for each pipeline built after the first, a video sink description to
    /// use instead of the configuration's (nil: the configuration's), e.g. one that never prerolls.
    @_spi(Testing) public var videoSinkForNextPipeline: (() -> String?)?

    public init(configuration: PlayerConfiguration = PlayerConfiguration()) throws {
        GStreamerRuntime.ensureInitialised()
        self.configuration = configuration
        self.endAction = configuration.endAction
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
        pipeline.attach(bridge: bridge)
        startTimer()
    }

    /// A fresh playbin3 for the next load, with volume, mute and the window handle carried over;
    /// the old one is torn down off the main thread (`PipelineHandle.shutdown`). Every load after
    /// a pipeline's first item uses one (see `load` for the GStreamer 1.22 bugs behind it).
    private func replacePipeline(abandoningOld: Bool = false) {
        guard let playbin = reel_make_element("playbin3", "reel-playbin") else { return }
        let volume = reel_get_double(pipeline.element, "volume"), muted = reel_get_bool(pipeline.element, "mute")
        if abandoningOld || pipelineLooksStalled { pipeline.abandon() } else { pipeline.shutdown() }
        pipeline = PipelineHandle(playbin)
        pipelineStalled = false
        pipelineHasHadItem = false
        pipelineState = .null
        requestedTarget = .null
        try? installSink(configuration.audioSink, property: "audio-sink")  // built once already: cannot fail now
        if let sink = videoSinkForNextPipeline?() {
            try? installSink(sink, property: "video-sink")
        } else {
            try? installSink(configuration.videoSink, property: "video-sink")
        }
        if configuration.keepPitch, let scaletempo = reel_make_element("scaletempo", nil) {
            reel_set_object(playbin, "audio-filter", scaletempo)
            gst_object_unref(scaletempo)
        }
        reel_set_double(playbin, "volume", volume)
        reel_set_bool(playbin, "mute", muted)
        pipeline.attach(bridge: bridge)
        if let windowHandle { setWindowHandle(windowHandle) }
    }

    /// Stops playback and releases the pipeline. The player cannot be used afterwards.
    public func shutdown() {
        if timerID != 0 { g_source_remove(timerID); timerID = 0 }
        cancelPrerollWatchdog()
        if pipelineLooksStalled { pipeline.abandon() } else { pipeline.shutdown() }
        observers.removeAll()
    }

    private func installSink(_ description: String?, property: String) throws {
        guard let description, !description.isEmpty else { return }
        var error: UnsafeMutablePointer<GError>?
        guard let sink = reel_parse_bin(description, &error) else {
            let text = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            if let error { g_error_free(error) }
            throw PlaybackError(kind: .output, message: "The \(property) “\(description)” could not be built: \(text)")
        }
        reel_set_object(pipeline.element, property, sink)  // playbin takes its own reference
        gst_object_unref(sink)
    }

    // MARK: Observers

    /// Adds an observer; it sees every later event, in order, on the main thread.
    @discardableResult
    public func addObserver(_ observer: @escaping Observer) -> Int {
        observers.add(observer)
    }

    public func removeObserver(_ id: Int) { observers.remove(id) }

    private func emit(_ event: PlayerEvent) {
        guard deduplicator.admit(event) else { return }  // events only on change, decided here
        pendingEvents.append(event)
        guard !delivering else { return }  // re-entrant emits are queued, so order holds for everyone
        delivering = true
        defer { delivering = false }
        while !pendingEvents.isEmpty {
            let e = pendingEvents.removeFirst()
            for o in observers.all { o(e) }
        }
    }

    // MARK: Loading

    /// Loads an item (a path, file:// or http(s) URI). Keeps the play/pause intent: a playing
    /// player starts the new item. `headers` go on the item's HTTP source (first request only:
    /// protected HLS goes through the gateway instead).
    public func load(_ input: String, headers: [(String, String)] = [], title: String? = nil) {
        let uri = MediaLocator.uri(for: input)
        // Every item after the first gets a fresh playbin3 (the old one is taken down off the
        // main thread). Reusing one through NULL is not safe in 1.22: after a failed item it
        // aborts in reconfigure_output; while it is still typefinding the NULL transition can
        // deadlock; and even a prerolled one, reset to NULL and given the next URI while its
        // first item was starting in a window, aborted in playsink ("Padname src_0 is not unique
        // in element streamsynchronizer0", then gst_play_sink_do_reconfigure: assertion (it)).
        if pipelineHasHadItem || pipelineStalled { replacePipeline() }
        loadGeneration += 1
        resetItemState()
        currentURI = uri
        awaitingOwnStreamStart = true
        deferredNext = nil
        shared.state.withLock { $0.headers = headers }
        forgetStreamingSideItem()
        setPipeline(.null)
        if intent == .stopped { intent = .paused }
        emit(.itemChanged(index: nil, uri: uri, title: title ?? MediaLocator.displayName(of: uri)))
        emit(.status(.unknown))
        // Local files are checked before GStreamer sees them: the answer is immediate and exact.
        if let path = MediaLocator.localPath(of: uri) {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
            if size == nil || size == 0 {
                fail(ErrorMapper.map(domain: ErrorMapper.Domain.resource.rawValue, code: 3, message: "local check", debug: path,
                                     context: .init(uri: uri, isLocalFile: true, localFileSize: size)))
                return
            }
        }
        reel_set_string(pipeline.element, "uri", uri)
        pipelineHasHadItem = true
        armPrerollWatchdog(local: MediaLocator.localPath(of: uri) != nil)
        applyDesiredState()
    }

    /// The streaming side's view of the item starts empty: no next URI, no switch taken, no HTTP
    /// source watched.
    private func forgetStreamingSideItem() {
        shared.state.withLock {
            $0.next = nil
            $0.switched = nil
            $0.httpSource = nil
            $0.httpSourceActivity = nil
        }
    }

    /// Removes the current item: the player goes idle.
    public func unload() {
        cancelPrerollWatchdog()
        loadGeneration += 1
        resetItemState()
        currentURI = nil
        awaitingOwnStreamStart = false
        dropPendingSwitch()
        setPipeline(.null)
        updateTimeControl()
    }

    private func resetItemState() {
        status = .unknown
        prerolled = false
        prerollExtensions = 0
        prerollRestarts = 0
        stallWatch = nil
        duration = nil
        mediaInfo = MediaInfo()
        collectionInfo = MediaInfo()
        nextCollection = nil
        videoDisplaySize = nil
        seekTarget = nil
        startPosition = nil
        bufferingPercent = nil
        lastPosition = 0
        isAtEnd = false
        videoFramerate = nil
        ticker.reset(direction: rate)
        timerReading = nil
        if rate != 1 { rate = 1; emit(.rate(1)) }
    }

    /// The URI to switch to without a gap when the current item is about to finish (playbin3's
    /// about-to-finish). nil cancels. The switch is reported as `.itemChanged` at its stream start.
    /// Before the loaded item's own stream has started, the URI is held back until it does; a
    /// short item that reaches about-to-finish before that then ends at EOS instead (no gap-free
    /// switch, but every event is about the right item).
    public func prepareNext(_ input: String?) {
        let uri = input.map { MediaLocator.uri(for: $0) }
        if awaitingOwnStreamStart {
            deferredNext = uri
            shared.state.withLock { $0.next = nil }
            return
        }
        shared.state.withLock { $0.next = uri }
    }

    // MARK: Transport

    public func play() {
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
        if isAtEnd, pipelineStalled, let uri = currentURI {
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
        applyDesiredState()
    }

    public func pause() {
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
        timerReading = nil
        setPipeline(.ready)
        updateTimeControl()
    }

    // MARK: Seeking

    /// The current position in seconds: the seek target while a seek is in flight.
    public var position: Double {
        if let seekTarget { return seekTarget }
        // At the end, where playback ended (a file cut short ends before its duration, and the
        // pipeline then answers the duration).
        if (pipelineState == .paused || pipelineState == .playing) && !isAtEnd {
            var pos: Int = 0
            if gst_element_query_position(pipeline.element, GST_FORMAT_TIME, &pos) != 0, pos >= 0 {
                lastPosition = Double(pos) / 1e9
            }
        }
        return lastPosition
    }

    /// Seeks to `time` seconds, clamped to [0, duration].
    public func seek(to time: Double, mode: SeekMode = .keyframe) {
        guard currentURI != nil else { return }
        if case .failed = status { return }
        // Clamped before anything else: a client may send 1e12 (or NaN) before the duration is known.
        guard var target = BoundedNumber.seconds(time) else { return }
        if let duration { target = min(target, duration) }
        isAtEnd = false
        guard prerolled, pipelineState == .paused || pipelineState == .playing else {
            startPosition = target
            seekTarget = target
            if intent == .stopped { intent = .paused }
            applyDesiredState()
            return
        }
        performSeek(to: target, rate: rate, mode: mode, user: true)
    }

    /// How far playback is behind the live edge (the end of the seekable window), for live items.
    public var behindLiveEdge: Double? {
        guard mediaInfo.isLive, let range = seekableRange else { return nil }
        return max(0, range.upperBound - position)
    }

    /// Jumps to the live edge of a live item (the end of its seekable window).
    public func seekToLiveEdge() {
        guard mediaInfo.isLive, let range = seekableRange else { return }
        performSeek(to: range.upperBound, rate: rate, mode: .keyframe, user: true)
    }

    /// Skips by `delta` seconds from the current position, clamped to [0, duration].
    public func skip(by delta: Double, mode: SeekMode = .accurate) {
        seek(to: position + delta, mode: mode)
    }

    @discardableResult
    private func performSeek(to target: Double, rate newRate: Double, mode: SeekMode, user: Bool) -> Bool {
        var flags = GST_SEEK_FLAG_FLUSH.rawValue
        flags |= mode == .accurate ? GST_SEEK_FLAG_ACCURATE.rawValue : (GST_SEEK_FLAG_KEY_UNIT.rawValue | GST_SEEK_FLAG_SNAP_BEFORE.rawValue)
        if abs(newRate) > 2 {
            flags |= GST_SEEK_FLAG_TRICKMODE.rawValue | GST_SEEK_FLAG_TRICKMODE_KEY_UNITS.rawValue | GST_SEEK_FLAG_TRICKMODE_NO_AUDIO.rawValue
        }
        let ns = BoundedNumber.nanoseconds(target)
        let none = -1
        let ok: Bool
        if newRate >= 0 {
            ok = gst_element_seek(pipeline.element, newRate, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags),
                                  GST_SEEK_TYPE_SET, ns, GST_SEEK_TYPE_NONE, none) != 0
        } else {
            ok = gst_element_seek(pipeline.element, newRate, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags),
                                  GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_SET, ns) != 0
        }
        guard ok else { return false }
        seekTarget = target
        seekIsUser = user
        lastPosition = target
        ticker.reset(at: nil, direction: newRate)
        timerReading = nil
        updateTimeControl()
        return true
    }

    // MARK: Rate

    /// Sets the playback rate (0.5, 2, 4, −1 …). Rates above 2× use key-unit trick mode.
    /// Returns false, and keeps the old rate, when the source refuses it.
    @discardableResult
    public func setRate(_ newRate: Double) -> Bool {
        guard newRate != 0, newRate.isFinite else { return false }
        guard newRate != rate else { return true }
        guard prerolled, pipelineState == .paused || pipelineState == .playing else { return false }
        var pos = position
        if newRate < 0, isAtEnd || pos <= 0, let duration { pos = duration }
        guard performSeek(to: pos, rate: newRate, mode: .accurate, user: false) else { return false }
        rate = newRate
        isAtEnd = false
        emit(.rate(newRate))
        return true
    }

    // MARK: Volume

    /// Linear volume, 0…1 (up to 10 is accepted, as playbin does).
    public var volume: Double {
        get { reel_get_double(pipeline.element, "volume") }
        set {
            reel_set_double(pipeline.element, "volume", min(10, max(0, newValue)))
            emit(.volume(volume: volume, muted: isMuted))
        }
    }

    public var isMuted: Bool {
        get { reel_get_bool(pipeline.element, "mute") != 0 }
        set {
            reel_set_bool(pipeline.element, "mute", newValue ? 1 : 0)
            emit(.volume(volume: volume, muted: isMuted))
        }
    }

    // MARK: Frames

    /// Steps one frame forward (pausing first) or back (an accurate seek one frame earlier).
    public func stepFrame(forward: Bool = true) {
        guard prerolled else { return }
        if intent == .playing { pause() }
        if forward {
            _ = reel_step_frames(pipeline.element, 1)
            seekTarget = nil
        } else {
            let frame = 1 / (videoFramerate ?? 25)
            seek(to: max(0, position - frame), mode: .accurate)
        }
    }

    /// The frame on screen as PNG bytes, or nil when there is none. The frame is encoded at the
    /// video's own size in square pixels, not at the size the sink scaled it to for a window.
    public func snapshotPNG() -> Data? {
        var size: Int = 0
        var error: UnsafeMutablePointer<GError>?
        let (width, height) = videoDisplaySize ?? (0, 0)
        guard let bytes = reel_snapshot_png(pipeline.element, Int32(width), Int32(height), &size, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        defer { g_free(bytes) }
        return Data(bytes: bytes, count: size)
    }

    /// Whether a seek is in flight (position answers its target until it lands).
    public var isSeeking: Bool { seekTarget != nil }

    /// Whether the current item has prerolled (its first frame reached the sinks).
    public var isPrerolled: Bool { prerolled }

    /// The presentation time of the frame on screen, in seconds.
    public var displayedFrameTime: Double? {
        let pts = reel_sample_pts(pipeline.element)
        return reel_gst_clock_time_is_valid(pts) != 0 ? Double(pts) / 1e9 : nil
    }

    /// Gives the video sink an X11 window to draw into (GstVideoOverlay). Returns whether the
    /// configured sink accepts one.
    @discardableResult
    public func setWindowHandle(_ handle: UInt) -> Bool {
        windowHandle = handle
        guard let sink = reel_get_object(pipeline.element, "video-sink") else { return false }
        defer { gst_object_unref(sink) }
        return reel_set_window_handle(reel_gst_element(sink), handle) != 0
    }

    /// Asks the video sink to redraw the last frame (after the window was exposed).
    public func expose() {
        guard let sink = reel_get_object(pipeline.element, "video-sink") else { return }
        reel_overlay_expose(reel_gst_element(sink))
        gst_object_unref(sink)
    }

    /// The live window (start, end) in seconds when the source is seekable; end is the live edge.
    public var seekableRange: ClosedRange<Double>? {
        var seekable: Int32 = 0
        var start = -1, end = -1
        guard reel_query_seeking(pipeline.element, &seekable, &start, &end) != 0, seekable != 0, start >= 0, end >= start else { return nil }
        return Double(start) / 1e9 ... Double(end) / 1e9
    }

    // MARK: State machine

    private func setPipeline(_ target: PipelineTarget) {
        requestedTarget = target
        let state: GstState
        switch target {
        case .null: state = GST_STATE_NULL
        case .ready: state = GST_STATE_READY
        case .paused: state = GST_STATE_PAUSED
        case .playing: state = GST_STATE_PLAYING
        }
        let result = gst_element_set_state(pipeline.element, state)
        if target == .null || target == .ready { pipelineState = target }
        if result == GST_STATE_CHANGE_NO_PREROLL { mediaInfo.isLive = true }
    }

    private func applyDesiredState() {
        guard currentURI != nil else { updateTimeControl(); return }
        if case .failed = status { updateTimeControl(); return }
        var decision = BufferingRule.decide(intent: intent, percent: bufferingPercent, isLive: mediaInfo.isLive)
        // Until the first preroll, go no further than PAUSED unless the user wants to play.
        if intent == .stopped { decision.target = .ready }
        if let target = decision.target, target != requestedTarget { setPipeline(target) }
        updateTimeControl()
    }

    private func updateTimeControl() {
        let derived: TimeControlStatus
        if currentURI == nil {
            derived = intent == .playing ? .waitingToPlayAtSpecifiedRate(.noItem) : intent == .stopped ? .stopped : .paused
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

    private func fail(_ error: PlaybackError) {
        status = .failed(error)
        seekTarget = nil
        setPipeline(.null)
        emit(.status(status))
        emit(.error(error))
        updateTimeControl()
    }

    // MARK: Bus

    func handle(_ message: UnsafeMutablePointer<GstMessage>) {
        let fromPipeline = reel_message_src(message) == reel_gst_object(pipeline.element)
        switch reel_message_type(message) {
        case GST_MESSAGE_STATE_CHANGED where fromPipeline:
            var old = GST_STATE_NULL, new = GST_STATE_NULL, pending = GST_STATE_NULL
            gst_message_parse_state_changed(message, &old, &new, &pending)
            switch new {
            case GST_STATE_PLAYING:
                pipelineState = .playing
                settlingAfterSeek = false
            case GST_STATE_PAUSED: pipelineState = .paused
            case GST_STATE_READY: pipelineState = .ready
            default: pipelineState = .null
            }
            // Prerolled is ASYNC_DONE's to say, except for live sources, which never preroll.
            if !prerolled && mediaInfo.isLive && (new == GST_STATE_PAUSED || new == GST_STATE_PLAYING) { onPrerolled() }
            updateTimeControl()
        case GST_MESSAGE_ASYNC_DONE where fromPipeline:
            // Preroll is reported from ASYNC_DONE (never from STATE_CHANGED), so the first
            // ASYNC_DONE is consumed before readyToPlay and any later one while a seek is in
            // flight is that seek's. (playbin3 does not carry the seek's seqnum to it.)
            if !prerolled && pipelineState != .null { onPrerolled() }
            else if seekTarget != nil { onSeekDone() }
            updateTimeControl()
        case GST_MESSAGE_EOS:
            onEnd()
        case GST_MESSAGE_ERROR:
            onError(message)
        case GST_MESSAGE_BUFFERING:
            var percent: Int32 = 0
            gst_message_parse_buffering(message, &percent)
            bufferingPercent = percent >= 100 ? nil : Int(percent)
            emit(.buffering(percent: Int(percent)))
            applyDesiredState()
        case GST_MESSAGE_DURATION_CHANGED:
            if prerolled { refreshDuration() }
        case GST_MESSAGE_STREAM_COLLECTION:
            onStreamCollection(message)
        case GST_MESSAGE_TAG:
            var tags: UnsafeMutablePointer<GstTagList>?
            gst_message_parse_tag(message, &tags)
            if let tags {
                if let t = reel_taglist_title(tags) {
                    collectionInfo.title = String(cString: t)
                    g_free(t)
                }
                gst_tag_list_unref(tags)
            }
        case GST_MESSAGE_STREAM_START:
            onStreamStart()
        case GST_MESSAGE_CLOCK_LOST where intent == .playing:
            setPipeline(.paused)
            setPipeline(.playing)
        default:
            break
        }
    }

    private func onPrerolled() {
        refreshDuration()  // before `prerolled`, so that it is reported once, below
        prerolled = true
        cancelPrerollWatchdog()
        // Live: NO_PREROLL at the state change (see setPipeline), or a network stream with no
        // duration (live HLS prerolls ASYNC). The latency query is no guide: any sink with
        // sync=true answers live=TRUE.
        var seekable: Int32 = 0
        var start = -1, end = -1
        if reel_query_seeking(pipeline.element, &seekable, &start, &end) != 0 { mediaInfo.isSeekable = seekable != 0 }
        if duration == nil, let uri = currentURI, MediaLocator.isNetwork(uri) { mediaInfo.isLive = true }
        refreshMediaInfo()
        status = .readyToPlay
        emit(.status(.readyToPlay))
        emit(.duration(duration))
        emit(.mediaInfo(mediaInfo))
        if let start = startPosition {
            startPosition = nil
            seekTarget = nil
            performSeek(to: start, rate: rate, mode: .accurate, user: true)
        }
        applyDesiredState()
    }

    private func refreshDuration() {
        var d: Int = -1
        if gst_element_query_duration(pipeline.element, GST_FORMAT_TIME, &d) != 0, d > 0 {
            let value = Double(d) / 1e9
            if value != duration {
                duration = value
                if prerolled { emit(.duration(value)) }
            }
        }
    }

    private func refreshMediaInfo() {
        var info = mediaInfo
        var seekable: Int32 = 0
        var start = -1, end = -1
        if prerolled, reel_query_seeking(pipeline.element, &seekable, &start, &end) != 0 { info.isSeekable = seekable != 0 }
        info.videoCodec = collectionInfo.videoCodec
        info.audioCodec = collectionInfo.audioCodec
        info.title = collectionInfo.title
        info.width = collectionInfo.width
        info.height = collectionInfo.height
        if let sink = reel_get_object(pipeline.element, "video-sink") {
            var w: Int32 = 0, h: Int32 = 0, fn: Int32 = 0, fd: Int32 = 1
            if reel_video_sink_size(reel_gst_element(sink), &w, &h, &fn, &fd) != 0 {
                // The stream's own size wins: in a window the sink's caps are the scaled picture.
                if info.width == nil || info.height == nil {
                    info.width = Int(w)
                    info.height = Int(h)
                }
                if fn > 0 && fd > 0 { videoFramerate = Double(fn) / Double(fd) }
            }
            gst_object_unref(sink)
        }
        mediaInfo = info
    }

    private func onStreamCollection(_ message: UnsafeMutablePointer<GstMessage>) {
        var collection: UnsafeMutablePointer<GstStreamCollection>?
        gst_message_parse_stream_collection(message, &collection)
        guard let collection else { return }
        defer { gst_object_unref(collection) }
        // After about-to-finish handed over the next URI, a collection is the next item's: kept
        // for its STREAM_START (playbin3 posts it before or after that, as timing has it).
        if shared.state.withLock({ $0.switched != nil }) {
            nextCollection = Self.describe(collection)
            return
        }
        let found = Self.describe(collection)
        collectionInfo.videoCodec = collectionInfo.videoCodec ?? found.info.videoCodec
        collectionInfo.audioCodec = collectionInfo.audioCodec ?? found.info.audioCodec
        if let w = found.info.width, let h = found.info.height { collectionInfo.width = w; collectionInfo.height = h }
        if let size = found.displaySize { videoDisplaySize = size }
        if prerolled {
            refreshMediaInfo()
            emit(.mediaInfo(mediaInfo))
        }
    }

    /// Codecs and picture sizes named by a stream collection.
    private static func describe(_ collection: UnsafeMutablePointer<GstStreamCollection>) -> (info: MediaInfo, displaySize: (Int, Int)?) {
        var collectionInfo = MediaInfo()
        var videoDisplaySize: (Int, Int)?
        for i in 0..<gst_stream_collection_get_size(collection) {
            guard let stream = gst_stream_collection_get_stream(collection, i) else { continue }
            let type = reel_stream_type(stream).rawValue
            let codec = reel_stream_codec_description(stream).map { p -> String in
                defer { g_free(p) }
                return String(cString: p)
            }
            if type & GST_STREAM_TYPE_VIDEO.rawValue != 0 {
                collectionInfo.videoCodec = collectionInfo.videoCodec ?? codec
                var w: Int32 = 0, h: Int32 = 0
                if reel_stream_video_size(stream, &w, &h) != 0 { collectionInfo.width = Int(w); collectionInfo.height = Int(h) }
                var dw: Int32 = 0, dh: Int32 = 0
                if reel_stream_video_display_size(stream, &dw, &dh) != 0 { videoDisplaySize = (Int(dw), Int(dh)) }
            } else if type & GST_STREAM_TYPE_AUDIO.rawValue != 0 {
                collectionInfo.audioCodec = collectionInfo.audioCodec ?? codec
            }
        }
        return (collectionInfo, videoDisplaySize)
    }

    private func onStreamStart() {
        if awaitingOwnStreamStart {
            awaitingOwnStreamStart = false
            if let next = deferredNext {
                deferredNext = nil
                shared.state.withLock { $0.next = next }
            }
            return
        }
        guard let switched = shared.state.withLock({ s -> String? in
            let v = s.switched
            s.switched = nil
            return v
        }) else { return }
        // A gapless switch made at about-to-finish has started: the old item played to its end
        // (or as far as it went: a file cut short switches early too).
        if rate > 0, let warning = earlyEndWarning(reached: lastPosition) { emit(.warning(warning)) }
        emit(.playedToEnd)
        currentURI = switched
        status = .unknown
        duration = nil
        collectionInfo = nextCollection?.info ?? MediaInfo()
        videoDisplaySize = nextCollection?.displaySize
        nextCollection = nil
        mediaInfo = MediaInfo()
        lastPosition = 0
        ticker.reset()
        timerReading = nil
        emit(.itemChanged(index: nil, uri: switched, title: MediaLocator.displayName(of: switched)))
        status = .readyToPlay
        emit(.status(.readyToPlay))
        refreshDuration()
        emit(.duration(duration))
        // media-info waits for the new item's stream collection (its codecs), which playbin3
        // posts just after this STREAM_START: an event now would say "no codecs, not seekable".
        refreshMediaInfo()
        if mediaInfo.videoCodec != nil || mediaInfo.audioCodec != nil { emit(.mediaInfo(mediaInfo)) }
    }

    private func onSeekDone() {
        let wasUser = seekIsUser
        settlingAfterSeek = intent == .playing && pipelineState != .playing
        seekTarget = nil
        seekIsUser = false
        var pos: Int = 0
        if gst_element_query_position(pipeline.element, GST_FORMAT_TIME, &pos) != 0, pos >= 0 { lastPosition = Double(pos) / 1e9 }
        ticker.reset(at: nil, direction: rate)
        timerReading = nil
        if wasUser { emit(.seeked(position: lastPosition)) }
    }

    private func onEnd() {
        guard currentURI != nil, !isAtEnd else { return }
        var warning: PlaybackError?
        if let duration, rate > 0 {
            // A file cut short ends cleanly long before its duration: said, and the seek bar
            // stops where the media did. Otherwise the last stretch before EOS is reported, so
            // that a seek bar reaches the end. Where playback got to is the progress timer's last
            // reading, or the last frame shown when that is later: a position query at EOS
            // answers the duration (qtdemux ends every stream's segment there).
            let reached = max(lastPosition, displayedFrameTime.map { min($0, duration) } ?? 0)
            warning = earlyEndWarning(reached: reached)
            lastPosition = warning == nil ? duration : reached
        } else if rate < 0 {
            lastPosition = 0
        }
        for tick in ticker.advance(to: lastPosition) { emit(.progress(position: lastPosition, duration: duration, tick: tick)) }
        isAtEnd = true
        let generation = loadGeneration
        if let warning { emit(.warning(warning)) }
        emit(.playedToEnd)
        guard generation == loadGeneration else { return }  // an observer loaded something else
        switch endAction {
        case .replay where pipelineStalled:
            if let uri = currentURI { load(uri) }
        case .replay:
            isAtEnd = false
            performSeek(to: rate < 0 ? (duration ?? 0) : 0, rate: rate, mode: .accurate, user: false)
        case .pause, .advance:
            intent = .paused
            setPipeline(.paused)
            updateTimeControl()
        }
    }

    /// The warning for an item that ended at `reached`, long before its known duration (not for
    /// live items, nor after the end-stall watchdog, which ends an item only near its end).
    private func earlyEndWarning(reached: Double) -> PlaybackError? {
        guard let duration, !mediaInfo.isLive, EarlyEnd.isEarly(reached: reached, duration: duration) else { return nil }
        return EarlyEnd.error(reached: reached, duration: duration, uri: currentURI)
    }

    private func onError(_ message: UnsafeMutablePointer<GstMessage>) {
        var gerror: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &gerror, &debug)
        defer {
            if let gerror { g_error_free(gerror) }
            if let debug { g_free(debug) }
        }
        let domain = gerror.map { String(cString: g_quark_to_string($0.pointee.domain)) } ?? ""
        let code = Int(gerror?.pointee.code ?? 0)
        let text = gerror.map { String(cString: $0.pointee.message) } ?? "error"
        let debugText = debug.map { String(cString: $0) }
        let status = Int(reel_message_error_http_status(message))
        var uri = currentURI
        if !awaitingOwnStreamStart, let switched = shared.state.withLock({ s -> String? in
            let v = s.switched
            s.switched = nil
            return v
        }) {
            // A gapless switch failed before its stream started (a missing or unreadable next
            // item): the old item has handed over, so report its end and the new item's change
            // before the error, which is the new item's.
            emit(.playedToEnd)
            currentURI = switched
            self.status = .unknown
            duration = nil
            mediaInfo = MediaInfo()
            collectionInfo = MediaInfo()
            videoDisplaySize = nil
            emit(.itemChanged(index: nil, uri: switched, title: MediaLocator.displayName(of: switched)))
            uri = switched
        }
        var context = ErrorMapper.Context(uri: uri, httpStatus: status > 0 ? status : nil)
        // Posted by the item's HTTP source itself: how long it had gone without data decides
        // between a stall (timeout) and a broken connection.
        let (source, activity, timeout) = shared.state.withLock { ($0.httpSource, $0.httpSourceActivity, $0.networkTimeout) }
        if let source, source == UInt(bitPattern: reel_message_src(message)) {
            context.networkSourceFailed = true
            context.networkTimeout = Double(timeout)
            if let activity {
                let d = ContinuousClock.now - activity
                context.sourceSilence = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
            }
        }
        if let uri, let path = MediaLocator.localPath(of: uri) {
            context.isLocalFile = true
            context.localFileSize = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
        }
        fail(ErrorMapper.map(domain: domain, code: code, message: text, debug: debugText, context: context))
    }

    // MARK: Preroll watchdog

    /// GStreamer 1.22's parsebin can swallow a demuxer's error posted while it is still setting
    /// the demuxer up (qtdemux on a damaged file, now and then): the item then never prerolls
    /// and never fails. A local file that has not prerolled within `localPrerollTimeout` fails
    /// as damaged. (Network items are bounded by the HTTP source's timeout instead.)
    private func armPrerollWatchdog(local: Bool) {
        cancelPrerollWatchdog()
        guard local, configuration.localPrerollTimeout > 0 else { return }
        let ms = UInt32(min(3_600_000, configuration.localPrerollTimeout * 1000))
        watchdogID = g_timeout_add_full(Int32(G_PRIORITY_DEFAULT), ms, { data in
            let bridge = Unmanaged<CallbackBridge>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { bridge.player?.onPrerollWatchdog() }
            return 0
        }, Unmanaged.passRetained(bridge).toOpaque(), { data in Unmanaged<CallbackBridge>.fromOpaque(data!).release() })
    }

    private func cancelPrerollWatchdog() {
        if watchdogID != 0 { g_source_remove(watchdogID); watchdogID = 0 }
    }

    /// The watchdog's second opinion: the file is probed on another thread (GstDiscoverer, its
    /// own pipeline). A file the probe opens while the pipeline, which had a head start, has still
    /// not prerolled is first started again on a fresh pipeline (1.22's playbin3 now and then
    /// never prerolls a good local file on a loaded machine); after that it is taken as only
    /// slow and gets more time, up to `maxPrerollExtensions` times. One the probe cannot open
    /// fails with the probe's error.
    private func onPrerollWatchdog() {
        watchdogID = 0
        guard let uri = currentURI, !prerolled, requestedTarget == .paused || requestedTarget == .playing else { return }
        if case .failed = status { return }
        let generation = loadGeneration, bridge = self.bridge
        let timeout = max(2, min(10, configuration.localPrerollTimeout))
        Self.probesInFlight.withLock { $0 += 1 }
        Thread.detachNewThread {
            let verdict = MediaProbe.probe(uri, timeout: timeout).error
            Self.probesInFlight.withLock { $0 -= 1 }
            MainQueue.shared.async { bridge?.player?.onPrerollProbe(verdict, generation: generation) }
        }
    }

    /// Watchdog probes still running (each on its own thread, inside GStreamer).
    private nonisolated static let probesInFlight = Mutex(0)

    /// Waits (at most `timeout` seconds) for watchdog probes to finish, so that a process that
    /// ends right after a probe started does not exit with a thread inside GStreamer. For the
    /// process's exit path (never the main loop's work: it blocks).
    public nonisolated static func awaitBackgroundProbes(timeout: Double) {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while probesInFlight.withLock({ $0 }) > 0, ContinuousClock.now < deadline { usleep(5_000) }
    }

    private static let maxPrerollExtensions = 5
    private static let maxPrerollRestarts = 1

    /// Starts the current item again on a fresh pipeline; the stuck one is abandoned (never
    /// taken to NULL: its streaming threads are blocked). Nothing is emitted: for observers it is
    /// the same load, later. A deferred or prepared next item, a start position and the headers
    /// carry over.
    private func restartPreroll(_ uri: String) {
        prerollRestarts += 1
        let next = deferredNext ?? shared.state.withLock { $0.next }
        replacePipeline(abandoningOld: true)
        awaitingOwnStreamStart = true
        deferredNext = next
        collectionInfo = MediaInfo()
        videoDisplaySize = nil
        forgetStreamingSideItem()
        reel_set_string(pipeline.element, "uri", uri)
        pipelineHasHadItem = true
        armPrerollWatchdog(local: true)
        applyDesiredState()
    }

    private func onPrerollProbe(_ probeError: PlaybackError?, generation: Int) {
        guard generation == loadGeneration, let uri = currentURI, !prerolled else { return }
        if case .failed = status { return }
        if probeError == nil && prerollRestarts < Self.maxPrerollRestarts {
            restartPreroll(uri)
            return
        }
        if probeError == nil && prerollExtensions < Self.maxPrerollExtensions {
            prerollExtensions += 1
            armPrerollWatchdog(local: true)
            return
        }
        let path = MediaLocator.localPath(of: uri)
        let size = path.flatMap { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? NSNumber)?.int64Value }
        fail(probeError ?? ErrorMapper.map(domain: ErrorMapper.Domain.stream.rawValue, code: 9,
                                           message: "The media did not start within \(Int(configuration.localPrerollTimeout)) s", debug: "preroll watchdog",
                                           context: .init(uri: uri, isLocalFile: true, localFileSize: size)))
    }

    // MARK: Progress

    private func startTimer() {
        let ms = UInt32(max(20, min(1000, configuration.progressInterval * 1000)))
        let data = Unmanaged.passRetained(bridge).toOpaque()
        timerID = g_timeout_add_full(Int32(G_PRIORITY_DEFAULT), ms, { data in
            let bridge = Unmanaged<CallbackBridge>.fromOpaque(data!).takeUnretainedValue()
            guard let player = bridge.player else { return 0 }
            MainActor.assumeIsolated { player.onTimer() }
            return 1
        }, data, { data in Unmanaged<CallbackBridge>.fromOpaque(data!).release() })
    }

    private func onTimer() {
        guard prerolled, seekTarget == nil, pipelineState == .playing, !isAtEnd else { stallWatch = nil; return }
        var pos: Int = 0
        guard gst_element_query_position(pipeline.element, GST_FORMAT_TIME, &pos) != 0, pos >= 0 else { return }
        let seconds = Double(pos) / 1e9
        if watchForEndStall(at: seconds) { return }
        // Ahead of the clock: when a file's data runs out early, the position answers the end of
        // the segment (the duration) until EOS arrives. That was not played: no tick, and not
        // where playback got to (see `onEnd`). A lasting jump is believed as time passes.
        let now = ContinuousClock.now
        if rate > 0, !mediaInfo.isLive, let reading = timerReading {
            let elapsed = now - reading.at
            let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if seconds - reading.position > wall * rate * 1.5 + 0.5 { return }
        }
        timerReading = (seconds, now)
        let ticks = ticker.advance(to: seconds)
        guard !ticks.isEmpty else { return }
        lastPosition = seconds
        for tick in ticks { emit(.progress(position: seconds, duration: duration, tick: tick)) }
    }

    // MARK: End-stall watchdog

    /// GStreamer 1.22's playbin3 can stop at the very end of an item and never post EOS when
    /// the next URI, taken at about-to-finish, fails to open (an HTTP 404 seen about one run in
    /// twenty): the streaming threads wait for a switch that never comes. When playback has sat
    /// within the last half second of a known duration for `endStallTimeout` while playing (not
    /// buffering, not live), the item is treated as played to its end, the pending switch is
    /// dropped, and the next load replaces the pipeline, so the next item opens afresh and
    /// reports its own error. Returns true when it fired.
    private func watchForEndStall(at position: Double) -> Bool {
        guard configuration.endStallTimeout > 0, rate > 0, bufferingPercent == nil, !mediaInfo.isLive,
              let duration, position >= duration - 0.5 else { stallWatch = nil; return false }
        let now = ContinuousClock.now
        guard let watch = stallWatch, abs(watch.position - position) < 0.001 else {
            stallWatch = (position, now)
            return false
        }
        guard now - watch.since >= .milliseconds(Int64(configuration.endStallTimeout * 1000)) else { return false }
        stallWatch = nil
        pipelineStalled = true
        dropPendingSwitch()
        onEnd()
        return true
    }

    /// Stalled at an item's end: the watchdog fired, or playback has sat still in the last half
    /// second for over half a second (a quit before the watchdog fires must not reap it either).
    private var pipelineLooksStalled: Bool {
        pipelineStalled || (stallWatch.map { ContinuousClock.now - $0.since > .milliseconds(500) } ?? false)
    }

    /// Forgets the next URI, whether still held back, waiting for about-to-finish, or taken.
    private func dropPendingSwitch() {
        deferredNext = nil
        shared.state.withLock {
            $0.next = nil
            $0.switched = nil
        }
    }
}
