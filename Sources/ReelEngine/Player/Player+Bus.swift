import CGStreamer
import CReelFrame
import Foundation
import ReelCore
import Synchronization

/// Bus messages, one handler per message type (as Clapper's clapper-playbin-bus.c): `handle` only dispatches. Runs on the main thread (the bus watch is on the default main context).
extension Player {
    func handle(_ message: UnsafeMutablePointer<GstMessage>) {
        let fromPipeline = reel_message_src(message) == reel_gst_object(pipeline.element)
        let type = reel_message_type(message)
        if Self.handledMessages.contains(type.rawValue), fromPipeline || (type != GST_MESSAGE_STATE_CHANGED && type != GST_MESSAGE_ASYNC_DONE),
           Log.isOn(.engine, .debug) { Log.debug(.engine, .debug, "bus: \(Self.describe(message, type))") }
        switch type {
        case GST_MESSAGE_STATE_CHANGED where fromPipeline: onStateChanged(message)
        case GST_MESSAGE_ASYNC_DONE where fromPipeline: onAsyncDone()
        case GST_MESSAGE_EOS: onEnd()
        case GST_MESSAGE_ERROR: onError(message)
        case GST_MESSAGE_BUFFERING: onBuffering(message)
        case GST_MESSAGE_DURATION_CHANGED:
            if prerolled { refreshDuration() }
            features.each("durationChanged") { $0.durationChanged(host: self) }
        case GST_MESSAGE_STREAM_COLLECTION: onStreamCollection(message)
        case GST_MESSAGE_STREAMS_SELECTED: onStreamsSelected(message)
        case GST_MESSAGE_TAG: onTag(message)
        case GST_MESSAGE_STREAM_START: onStreamStart()
        case GST_MESSAGE_CLOCK_LOST where intent == .playing: onClockLost()
        case GST_MESSAGE_REQUEST_STATE: onRequestState(reel_message_requested_state(message))
        case GST_MESSAGE_TOC: onTableOfContents(message)
        case GST_MESSAGE_QOS: onQualityOfService(message)
        default: break
        }
    }

    /// The message types `handle` handles (each leaves a debug line: `REEL_DEBUG=engine`, `GST_DEBUG=reel-engine:5`).
    static let handledMessages: Set<GstMessageType.RawValue> = Set([GST_MESSAGE_STATE_CHANGED, GST_MESSAGE_ASYNC_DONE, GST_MESSAGE_EOS, GST_MESSAGE_ERROR,
                                                    GST_MESSAGE_BUFFERING, GST_MESSAGE_DURATION_CHANGED, GST_MESSAGE_STREAM_COLLECTION,
                                                    GST_MESSAGE_STREAMS_SELECTED, GST_MESSAGE_TAG, GST_MESSAGE_STREAM_START, GST_MESSAGE_CLOCK_LOST,
                                                    GST_MESSAGE_REQUEST_STATE, GST_MESSAGE_TOC].map(\.rawValue))

    /// "state-changed from playbin3 (paused → playing)", "buffering from queue2 (45 %)": for the log.
    static func describe(_ message: UnsafeMutablePointer<GstMessage>, _ type: GstMessageType) -> String {
        let name = gst_message_type_get_name(type).map { String(cString: $0) } ?? "?"
        var source = "?"
        if let src = reel_message_src(message), let n = gst_object_get_name(src) {
            source = String(cString: n)
            g_free(n)
        }
        var detail = ""
        switch type {
        case GST_MESSAGE_STATE_CHANGED:
            var old = GST_STATE_NULL, new = GST_STATE_NULL, pending = GST_STATE_NULL
            gst_message_parse_state_changed(message, &old, &new, &pending)
            detail = " (\(String(cString: gst_element_state_get_name(old))) → \(String(cString: gst_element_state_get_name(new))))"
        case GST_MESSAGE_BUFFERING:
            var percent: Int32 = 0
            gst_message_parse_buffering(message, &percent)
            detail = " (\(percent) %)"
        default: break
        }
        return "\(name) from \(source)\(detail)"
    }

    /// The current item's video frames: rendered at the sink, and dropped as late, by the sink
    /// (its `stats`) or before it by a decoder (its QOS messages).
    public var videoFrameCounts: (rendered: Int, dropped: Int) {
        itemState.progress.videoFrames.see(sinkFrameTotals())
        let atSink = itemState.progress.videoFrames.counts
        return (atSink.rendered, atSink.dropped + itemState.progress.upstreamDrops.dropped)
    }

    /// Of `videoFrameCounts.dropped`, the frames skipped before the sink (for tests).
    @_spi(Testing) public var upstreamDroppedFrames: Int { itemState.progress.upstreamDrops.dropped }

    /// A decoder's QOS message: its totals of frames processed and skipped as late.
    func onQualityOfService(_ message: UnsafeMutablePointer<GstMessage>) {
        var processed: guint64 = 0, dropped: guint64 = 0
        guard reel_qos_upstream_video_frames(message, &processed, &dropped) != 0 else { return }
        let element = UInt(bitPattern: reel_message_src(message))
        itemState.progress.upstreamDrops.see(element: element, processed: Int(processed), dropped: Int(dropped))
    }

    /// Folds the sink's totals in before they restart (a seek, a new segment) and at every tick.
    func foldSinkFrames() { itemState.progress.videoFrames.see(sinkFrameTotals()) }

    /// The video sink's totals since it started.
    func sinkFrameTotals() -> (rendered: Int, dropped: Int) {
        guard let sink = pipeline.sink("video-sink") else { return (0, 0) }
        defer { gst_object_unref(sink) }
        var rendered: guint64 = 0, dropped: guint64 = 0
        guard reel_video_sink_stats(reel_gst_element(sink), &rendered, &dropped) != 0 else { return (0, 0) }
        return (Int(rendered), Int(dropped))
    }

    func onStateChanged(_ message: UnsafeMutablePointer<GstMessage>) {
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
    }

    /// Preroll is reported from ASYNC_DONE (never from STATE_CHANGED), so the first ASYNC_DONE is
    /// consumed before readyToPlay and any later one while a seek is in flight is that seek's.
    /// (playbin3 does not carry the seek's seqnum to it.)
    func onAsyncDone() {
        if prerolled, pipelineState != .null, features.first(SeekDuringGaplessSwitch.self)?.prerolledAgain(player: self) == true {
            return updateTimeControl()
        }
        if !prerolled && pipelineState != .null { onPrerolled() }
        else if seekTarget != nil { onSeekDone() }
        updateTimeControl()
    }

    func onBuffering(_ message: UnsafeMutablePointer<GstMessage>) {
        var percent: Int32 = 0
        gst_message_parse_buffering(message, &percent)
        bufferingPercent = percent >= 100 ? nil : Int(percent)
        emit(.buffering(percent: Int(percent)))
        applyDesiredState()
    }

    func onTag(_ message: UnsafeMutablePointer<GstMessage>) {
        var tags: UnsafeMutablePointer<GstTagList>?
        gst_message_parse_tag(message, &tags)
        guard let tags else { return }
        defer { gst_tag_list_unref(tags) }
        let title = reel_taglist_title(tags).map { t -> String in
            defer { g_free(t) }
            return String(cString: t)
        }
        if let title { collectionInfo.title = title }
        let found = ItemTags(title: title, picture: {
            var size: gsize = 0
            guard let image = reel_taglist_image(tags, &size) else { return nil }
            defer { g_free(image) }
            return Data(bytes: image, count: Int(size))
        })
        Log.debug(.engine, .trace, "bus: tags\(title.map { _ in " (a title)" } ?? "")")
        features.each("tags") { $0.tags(found, host: self) }
    }

    /// The sound server asked for a state (a cork or an uncork).
    func onRequestState(_ state: GstState) {
        let target: PipelineTarget = switch state {
        case GST_STATE_PLAYING: .playing
        case GST_STATE_PAUSED: .paused
        case GST_STATE_READY: .ready
        default: .null
        }
        Log.debug(.engine, .debug, "bus: request-state \(target)")
        features.each("requestedState") { $0.requestedState(target, host: self) }
    }

    /// A table of contents (chapters): the next item's while a gapless switch is pending.
    func onTableOfContents(_ message: UnsafeMutablePointer<GstMessage>) {
        let chapters = TableOfContents.chapters(in: message)
        let next = shared.state.withLock { $0.switched != nil }
        Log.debug(.engine, .debug, "bus: toc with \(chapters.count) chapters\(next ? " (the next item's)" : "")")
        features.each("tableOfContents") { $0.tableOfContents(chapters, nextItem: next, host: self) }
    }

    /// The pipeline's clock went away (an audio device changed): choose a new one.
    func onClockLost() {
        setPipeline(.paused)
        setPipeline(.playing)
    }

    func onPrerolled() {
        refreshDuration()  // before `prerolled`, so that it is reported once, below
        prerolled = true
        reel_stream_log_watch(pipeline.element)  // what reaches playsink, for gapless items (`readSelectionAtSinks`)
        // Live: NO_PREROLL at the state change (see setPipeline), or a network stream with no
        // duration (live HLS prerolls ASYNC). The latency query is no guide: any sink with
        // sync=true answers live=TRUE.
        if let answer = seekingQuery.ask(pipeline.element) { mediaInfo.isSeekable = answer.seekable }
        if duration == nil, let uri = currentURI, MediaLocator.isNetwork(uri) { mediaInfo.isLive = true }
        refreshMediaInfo()
        features.each("readying") { $0.readying(host: self) }
        status = .readyToPlay
        emit(.status(.readyToPlay))
        emit(.duration(duration))
        emit(.mediaInfo(mediaInfo))
        if let start = startPosition {
            startPosition = nil
            seekTarget = nil
            performSeek(to: start, rate: rate, mode: .accurate, user: true)
        }
        features.each("prerolled") { $0.prerolled(host: self) }
        applyDesiredState()
    }

    func refreshDuration() {
        var d: Int = -1
        if gst_element_query_duration(pipeline.element, GST_FORMAT_TIME, &d) != 0, d > 0 {
            let value = Double(d) / 1e9
            if value != duration {
                duration = value
                if prerolled { emit(.duration(value)) }
            }
        }
    }

    func refreshMediaInfo() {
        var info = mediaInfo
        if prerolled, let answer = seekingQuery.ask(pipeline.element) { info.isSeekable = answer.seekable }
        info.videoCodec = collectionInfo.videoCodec
        info.audioCodec = collectionInfo.audioCodec
        info.title = collectionInfo.title
        info.width = collectionInfo.width
        info.height = collectionInfo.height
        let decoders = pipeline.decoders()
        if decoders.video != nil || decoders.audio != nil {
            info.videoDecoder = decoders.video
            info.audioDecoder = decoders.audio
            info.hardwareDecoding = decoders.hardware
        }
        if let sink = pipeline.sink("video-sink") {
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

    func onStreamCollection(_ message: UnsafeMutablePointer<GstMessage>) {
        var collection: UnsafeMutablePointer<GstStreamCollection>?
        gst_message_parse_stream_collection(message, &collection)
        guard let collection else { return }
        defer { gst_object_unref(collection) }
        // After about-to-finish handed over the next URI, a collection is the next item's: kept
        // for its STREAM_START (playbin3 posts it before or after that, as timing has it).
        let reference = StreamCollectionRef(collection)
        if shared.state.withLock({ $0.switched != nil }) {
            itemState.media.nextCollection = Self.describe(collection)
            features.each("streamCollection") { $0.streamCollection(reference, nextItem: true, host: self) }
            return
        }
        features.each("streamCollection") { $0.streamCollection(reference, nextItem: false, host: self) }
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

    /// playbin3 says which streams it plays: the next item's while a gapless switch is pending.
    func onStreamsSelected(_ message: UnsafeMutablePointer<GstMessage>) {
        var ids: [String] = []
        for i in 0..<reel_streams_selected_count(message) {
            if let p = reel_streams_selected_id(message, i) { ids.append(String(cString: p)); g_free(p) }
        }
        let next = shared.state.withLock { $0.switched != nil }
        features.each("streamsSelected") { $0.streamsSelected(ids, nextItem: next, host: self) }
    }

    /// Codecs and picture sizes named by a stream collection.
    static func describe(_ collection: UnsafeMutablePointer<GstStreamCollection>) -> (info: MediaInfo, displaySize: (Int, Int)?) {
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
                if reel_stream_video_display_size(stream, &dw, &dh) != 0 {
                    // As shown: the video filter turns a picture stored turned (`VideoOrientation`).
                    let orientation = reel_stream_tag_string(stream, "image-orientation").flatMap { p -> VideoOrientation? in
                        defer { g_free(p) }
                        return VideoOrientation(tag: String(cString: p))
                    } ?? .upright
                    let shown = orientation.displayed(width: Int(dw), height: Int(dh))
                    videoDisplaySize = (shown.width, shown.height)
                }
            } else if type & GST_STREAM_TYPE_AUDIO.rawValue != 0 {
                collectionInfo.audioCodec = collectionInfo.audioCodec ?? codec
            }
        }
        return (collectionInfo, videoDisplaySize)
    }

    func onStreamStart() {
        if lifecycle.awaitingOwnStreamStart {  // the loaded item's own stream started
            lifecycle.awaitingOwnStreamStart = false
            features.each("ownStreamStarted") { $0.ownStreamStarted(host: self) }
            return
        }
        guard let switched = takeSwitchedItem() else { return }
        pipeline.resetGaplessWatch()  // the drained input it came from is gone
        // A gapless switch made at about-to-finish has started: the old item played to its end
        // (or as far as it went: a file cut short switches early too).
        if rate > 0, let warning = earlyEndWarning(reached: max(lastPosition, playedThrough() ?? 0)) { emit(.warning(warning)) }
        handOver(to: switched, streaming: true)
        features.each("streamStarted") { $0.streamStarted(host: self) }
        status = .readyToPlay
        emit(.status(.readyToPlay))
        refreshDuration()
        emit(.duration(duration))
        // media-info waits for the new item's stream collection (its codecs), which playbin3
        // posts just after this STREAM_START: an event now would say "no codecs, not seekable".
        refreshMediaInfo()
        if mediaInfo.videoCodec != nil || mediaInfo.audioCodec != nil { emit(.mediaInfo(mediaInfo)) }
    }

    /// The next item a gapless switch gave playbin3 (`HeldBackNextURI`), taken once.
    func takeSwitchedItem() -> PlaybackItem? {
        shared.state.withLock { s in
            defer { s.switched = nil }
            return s.switched
        }
    }

    /// The one gapless handover, at the next item's STREAM_START (`streaming`) or at the error
    /// that ended it before it started: the old item is reported played to its end, the next one
    /// becomes current with the per-item state handed over (`ItemState(switchedFrom:)`), and
    /// observers are told it changed.
    func handOver(to switched: PlaybackItem, streaming: Bool) {
        features.each("itemEnding") { $0.itemEnding(host: self) }
        emit(.playedToEnd)
        currentItem = switched
        itemState = ItemState(switchedFrom: itemState)
        features.each("itemStarted") { $0.itemStarted(switched, switched: true, host: self) }
        if streaming {
            itemState.progress.videoFrames = FrameTally(startingAt: sinkFrameTotals())
            seekingQuery.reset()
        }
        emit(.itemChanged(index: nil, uri: switched.playedURI, title: switched.title ?? MediaLocator.displayName(of: switched.playedURI)))
    }

    func onSeekDone() {
        let wasUser = seekIsUser
        settlingAfterSeek = intent == .playing && pipelineState != .playing
        seekTarget = nil
        seekIsUser = false
        var pos: Int = 0
        if gst_element_query_position(pipeline.element, GST_FORMAT_TIME, &pos) != 0, pos >= 0 { lastPosition = Double(pos) / 1e9 }
        ticker.reset(at: nil, direction: rate)
        if wasUser { emit(.seeked(position: reported(lastPosition))) }
        features.each("seekLanded") { $0.seekLanded(user: wasUser, host: self) }
    }

    func onEnd() {
        guard currentURI != nil, !isAtEnd else { return }
        features.each("itemEnding") { $0.itemEnding(host: self) }
        foldSinkFrames()
        var warning: PlaybackError?
        if let duration, rate > 0 {
            // A file cut short ends cleanly long before its duration: said, and the seek bar
            // stops where the media did. Otherwise the last stretch before EOS is reported, so
            // that a seek bar reaches the end. Where playback got to is the progress timer's last
            // reading, the last frame shown or how far the streams' data went into playsink,
            // whichever is latest (the timer's reading is stale when the sinks run faster than
            // real time): a position query at EOS answers the duration (qtdemux ends every
            // stream's segment there).
            let reached = max(lastPosition, displayedFrameTime.map { min($0, duration) } ?? 0, playedThrough().map { min($0, duration) } ?? 0)
            warning = earlyEndWarning(reached: reached)
            lastPosition = warning == nil ? duration : reached
        } else if rate < 0 {
            lastPosition = 0
        }
        // At the end from here on, before any observer hears of it: a position asked for from now
        // is where playback got to, never the pipeline's answer at EOS (the duration).
        isAtEnd = true
        for tick in ticker.advance(to: lastPosition) { emit(.progress(position: lastPosition, duration: duration, tick: tick)) }
        let generation = lifecycle.generation
        if let warning { emit(.warning(warning)) }
        emit(.playedToEnd)
        guard generation == lifecycle.generation else { return }  // an observer loaded something else
        switch endAction {
        case .replay where lifecycle.stalled:
            if let item = currentItem { load(item) }
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
    /// How far the current item's streams went into playsink (seconds, stream time), as the
    /// stream log saw them: where an item switched from got to. The progress timer's last reading
    /// can be an item behind when the sinks run faster than real time (an unsynchronised QA run).
    func playedThrough() -> Double? {
        let ends = tracks.filter { !$0.isExternal }.map { reel_stream_log_end(pipeline.element, $0.id) }.filter { $0 >= 0 }
        return ends.max().map { Double($0) / 1e9 }
    }

    func earlyEndWarning(reached: Double) -> PlaybackError? {
        guard let duration, !mediaInfo.isLive, EarlyEnd.isEarly(reached: reached, duration: duration) else { return nil }
        return EarlyEnd.error(reached: reached, duration: duration, uri: currentURI)
    }

    func onError(_ message: UnsafeMutablePointer<GstMessage>) {
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
        if features.first("takeError", { $0.takeError(message, text: text, host: self) }) { return }
        var uri = currentURI
        if !lifecycle.awaitingOwnStreamStart, let switched = takeSwitchedItem() {
            // A gapless switch failed before its stream started (a missing or unreadable next
            // item): the old item has handed over, so report its end and the new item's change
            // before the error, which is the new item's.
            handOver(to: switched, streaming: false)
            uri = switched.playedURI
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
            context.describeLocalFile(LocalFileFacts(path: path))
        }
        fail(ErrorMapper.map(domain: domain, code: code, message: text, debug: debugText, context: context))
    }
}
