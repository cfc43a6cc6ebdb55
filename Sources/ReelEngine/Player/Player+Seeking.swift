import CGStreamer
import Foundation
import ReelCore
import Synchronization

/// Position, seeking, rate, volume and frame stepping.
extension Player {
    /// The current position in seconds: the seek target while a seek is in flight. For a live
    /// item, seconds from the start of its live window (`LiveTimeline`).
    public var position: Double {
        let stream = streamPosition
        return liveTimeline.map { $0.position(stream: stream) } ?? stream
    }

    /// The position in the engine's stream time (hlsdemux2's for HLS).
    var streamPosition: Double {
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

    /// Seeks to `time` seconds, clamped to [0, duration]; for a live item, to the window (up to
    /// the safe distance from its edge) on the window's scale.
    public func seek(to time: Double, mode: SeekMode = .keyframe) {
        guard currentURI != nil else { return }
        if case .failed = status { return }
        if let timeline = liveTimeline, time.isFinite {
            performSeek(to: timeline.stream(position: timeline.clamp(time)), rate: rate, mode: mode, user: true)
            return
        }
        // Clamped before anything else: a client may send 1e12 (or NaN) before the duration is known.
        guard var target = BoundedNumber.seconds(time) else { return }
        if let duration { target = min(target, duration) }
        isAtEnd = false
        guard prerolled, pipelineState == .paused || pipelineState == .playing else {
            startPosition = target
            seekTarget = target
            if intent == .stopped { intent = .paused }
            if !lifecycle.inProgress { applyDesiredState() }  // `load` starts the pipeline once its URI is set
            return
        }
        performSeek(to: target, rate: rate, mode: mode, user: true)
    }

    /// Jumps to the live edge of a live item: the safe distance from the newest segment's end
    /// (`LiveWindowSnapshot.safeDistance`), else the end of the seekable window.
    public func seekToLiveEdge() {
        if liveMode == .catchup { return }  // a programme as VOD has no edge to go to
        if let timeline = liveTimeline {
            performSeek(to: timeline.stream(position: timeline.liveTarget), rate: rate, mode: .keyframe, user: true)
            return
        }
        guard mediaInfo.isLive, let range = seekableRange else { return }
        performSeek(to: range.upperBound, rate: rate, mode: .keyframe, user: true)
    }

    /// Skips by `delta` seconds from the current position, clamped to [0, duration].
    public func skip(by delta: Double, mode: SeekMode = .accurate) {
        seek(to: position + delta, mode: mode)
    }

    @discardableResult
    func performSeek(to target: Double, rate newRate: Double, mode: SeekMode, user: Bool) -> Bool {
        foldSinkFrames()  // the flush restarts the sink's totals
        if let workaround = features.first(SeekDuringGaplessSwitch.self),
           workaround.takes(RestartSeek(target: target, rate: newRate, mode: mode, user: user), player: self) {
            jumped(to: target, rate: newRate, user: user)
            return true
        }
        var flags = GST_SEEK_FLAG_FLUSH.rawValue
        flags |= mode == .accurate ? GST_SEEK_FLAG_ACCURATE.rawValue : (GST_SEEK_FLAG_KEY_UNIT.rawValue | GST_SEEK_FLAG_SNAP_BEFORE.rawValue)
        if abs(newRate) > 2 {
            flags |= GST_SEEK_FLAG_TRICKMODE.rawValue | GST_SEEK_FLAG_TRICKMODE_KEY_UNITS.rawValue | GST_SEEK_FLAG_TRICKMODE_NO_AUDIO.rawValue
        }
        let ns = BoundedNumber.nanoseconds(target)
        let none = -1
        let ok: Bool
        // Before the seek: its reverse EOS may reach about-to-finish at once (StreamingShared.reverse).
        shared.state.withLock { $0.reverse = newRate < 0 }
        defer { if !ok { shared.state.withLock { $0.reverse = rate < 0 } } }
        if newRate >= 0 {
            // The stop is set (to none), never left as it was: a reverse seek's stop (where reverse
            // playback began) would end forward playback there (GstPlay seeks the same way).
            ok = gst_element_seek(pipeline.element, newRate, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags),
                                  GST_SEEK_TYPE_SET, ns, GST_SEEK_TYPE_SET, none) != 0
        } else {
            ok = gst_element_seek(pipeline.element, newRate, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags),
                                  GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_SET, ns) != 0
        }
        guard ok else { return false }
        jumped(to: target, rate: newRate, user: user)
        return true
    }

    /// A seek was made: the position answers its target until it lands.
    private func jumped(to target: Double, rate newRate: Double, user: Bool) {
        seekTarget = target
        seekIsUser = user
        lastPosition = target
        ticker.reset(at: nil, direction: newRate)
        features.each("positionJumped") { $0.positionJumped(host: self) }
        updateTimeControl()
    }

    /// Sets the playback rate (0.5, 2, 4, −1 …). Rates above 2× use key-unit trick mode.
    /// Returns false, and keeps the old rate, when the source refuses it.
    @discardableResult
    public func setRate(_ newRate: Double) -> Bool {
        guard BoundedNumber.isPlayableRate(newRate) else { return false }
        guard newRate != rate else { return true }
        guard prerolled, pipelineState == .paused || pipelineState == .playing else { return false }
        var pos = streamPosition
        if newRate < 0, isAtEnd || pos <= 0, let duration { pos = duration }
        guard performSeek(to: pos, rate: newRate, mode: .accurate, user: false) else { return false }
        rate = newRate
        isAtEnd = false
        emit(.rate(newRate))
        return true
    }

    /// Linear volume, 0…1 (up to 10 is accepted, as playbin does). Kept here and set on
    /// playbin3, never read back from it: a read takes playsink's lock, which a reconfiguration
    /// (a select-streams in flight) holds, and the main thread waited there (a CI hang).
    public var volume: Double {
        get { sound.volume }
        set {
            sound.volume = min(10, max(0, newValue))
            reel_set_double(pipeline.element, "volume", sound.volume)
            emit(.volume(volume: sound.volume, muted: sound.muted))
        }
    }

    public var isMuted: Bool {
        get { sound.muted }
        set {
            sound.muted = newValue
            reel_set_bool(pipeline.element, "mute", newValue ? 1 : 0)
            emit(.volume(volume: sound.volume, muted: sound.muted))
        }
    }

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

    /// Whether a seek is in flight (position answers its target until it lands).
    public var isSeeking: Bool { seekTarget != nil }

    /// Whether the current item has prerolled (its first frame reached the sinks).
    public var isPrerolled: Bool { prerolled }

    /// The live window (start, end) in seconds when the source is seekable; end is the live edge.
    /// Asked through `SeekingQuery`: the main thread never waits long on a busy demuxer.
    public var seekableRange: ClosedRange<Double>? { seekingQuery.ask(pipeline.element)?.range }
}
