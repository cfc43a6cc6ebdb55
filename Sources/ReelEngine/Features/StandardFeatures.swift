import CGStreamer
import ReelCore

extension PlayerFeatures {
    /// The player's features, in the order their hooks are called. A new feature is a new file
    /// and a line here.
    static func standard() -> PlayerFeatures {
        PlayerFeatures([
            HardwareDecoders(),
            AudioFocus(),
            Aspect(),
            LiveClock(),  // before the other live features: they read the item's LiveStream it keeps
            LiveAnnouncements(),
            LiveTitle(),
            CoverArt(),
            Chapters(),
            ABLoopFeature(),
            VolumeLimit(),
            AudioDelay(),
            AudioOutput(),
            AudioEffects(),
            SeparateAudio(),
            PictureControls(),
            VideoTransform(),
            WaylandPausedSeekRedraw(),
            PrerollWatchdog(),
            StuckPlayback(),  // before EndStallWatchdog: a position stuck away from the end is this one's, at the end that one's
            EndStallWatchdog(),
            LiveDASHEnd(),
            RunAheadPositions(),  // after the watches above: they see every reading, as before it
            HeldBackNextURI(),
            SeekDuringGaplessSwitch(),
            SubtitleLook(),
            Tracks(),
            FrameCatcher(),
        ])
    }
}

/// The player as its features see it (`FeatureHost`).
extension Player: FeatureHost {
    var liveStream: LiveStream? { features.first(LiveClock.self)?.stream }
    func routedLiveStream(of item: PlaybackItem) -> LiveStream? { liveStreams?(item.id) }
    func seekStream(to seconds: Double) { performSeek(to: seconds, rate: rate, mode: .keyframe, user: true) }
    var now: Double { Self.monotonicSeconds }
    var pipelineElement: UnsafeMutablePointer<GstElement> { pipeline.element }
    func videoFilterElement(_ name: String) -> UnsafeMutablePointer<GstElement>? {
        videoFilter.flatMap { reel_bin_get_by_name($0.bin, name) }
    }
    var pictureSize: (width: Int, height: Int)? {
        // Turned upright (a phone's portrait video is stored landscape); before a frame has
        // passed, the stored size.
        videoFilter?.turnedPixelSize ?? mediaInfo.width.flatMap { w in mediaInfo.height.map { (width: w, height: $0) } }
    }

    var orientedPictureSize: (width: Int, height: Int)? {
        videoFilter?.orientedPixelSize ?? mediaInfo.width.flatMap { w in mediaInfo.height.map { (width: w, height: $0) } }
    }

    var isOnWayland: Bool { output.waylandDisplay != nil }
    var hasFailed: Bool { if case .failed = status { true } else { false } }
    var wantsPipelineRunning: Bool { requestedTarget == .paused || requestedTarget == .playing }
    var awaitingOwnStreamStart: Bool { lifecycle.awaitingOwnStreamStart || restartSeekPending }
    var isAdaptive: Bool { shared.state.withLock { $0.adaptiveDemuxer != nil } }
    var isDASH: Bool { BitrateCap.isDASH(shared: shared) }
    func restartStreams() { performSeek(to: streamPosition, rate: rate, mode: .accurate, user: false) }
    var httpSourceLastActivity: ContinuousClock.Instant? { shared.state.withLock { $0.httpSourceActivity } }
    var pipelineDecoders: (video: String?, audio: String?, hardware: Bool?) { pipeline.decoders() }
    func offerNoPicture(reason: String) -> Bool { features.first("noPicture") { $0.noPicture(reason: reason, host: self) } }
    var pipelineIsPaused: Bool { pipelineState == .paused }
    var loadGeneration: Int { lifecycle.generation }
    var reloadPosition: Double? { prerolled ? lastPosition : startPosition }

    func reload(_ item: PlaybackItem, at position: Double?) {
        // The same item again: its events say so (`attempt`), as a retry's do.
        var again = item
        again.attempt = max(1, item.attempt)
        load(again)
        if let position, position > 0.5 { startPosition = position }
    }

    /// Reads the media info again and tells observers.
    func sayMediaInfo() {
        refreshMediaInfo()
        emit(.mediaInfo(mediaInfo))
    }

    /// When paused, seeks to the same position again so that the frame on screen is drawn anew
    /// (through a changed filter: aspect, subtitles).
    func redrawPausedFrame() {
        guard prerolled, pipelineState == .paused, seekTarget == nil else { return }
        performSeek(to: streamPosition, rate: rate, mode: .accurate, user: false)
    }
}
