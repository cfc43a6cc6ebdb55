import CGStreamer
import Foundation
import ReelCore
import Synchronization

/// Building and driving the pipeline: one place makes a playbin3 (the first and every replacement), installs its sinks and asks it for a state.
extension Player {
    /// A fresh playbin3 for the next load, with volume, mute and the window handle carried over;
    /// the old one is torn down off the main thread (`PipelineHandle.shutdown`). Every load after
    /// a pipeline's first item uses one (see `load` for the GStreamer 1.22 bugs behind it).
    func replacePipeline(abandoningOld: Bool = false) {
        guard let fresh = try? Self.makePlaybin() else { return }
        if abandoningOld || pipelineLooksStalled { pipeline.abandon() } else { pipeline.shutdown() }
        pipeline = fresh
        lifecycle.stalled = false
        lifecycle.hasHadItem = false
        pipelineState = .null
        requestedTarget = .null
        // The sinks were built once already: they cannot fail now.
        try? furnishPipeline(videoSink: videoSinkForNextPipeline?() ?? configuration.videoSink)
        reel_set_double(fresh.element, "volume", sound.volume)
        reel_set_bool(fresh.element, "mute", sound.muted ? 1 : 0)
        if let handle = output.handle { setWindowHandle(handle) } else { attachWindowGate() }
    }

    /// A playbin3 (named so in GStreamer's logs), not yet furnished.
    static func makePlaybin() throws -> PipelineHandle {
        guard let playbin = reel_make_element("playbin3", "reel-playbin") else {
            throw PlaybackError(kind: .missingCodec, message: "GStreamer's playbin3 element is not installed.")
        }
        return PipelineHandle(playbin)
    }

    /// The one place a playbin3 is furnished, the first and every replacement: its sinks (the
    /// video sink given its display before it leaves NULL), the pitch-keeping audio filter, the
    /// video filter (aspect modes, subtitles) and the bus and callbacks (`CallbackBridge`).
    /// A sink that cannot be built is thrown once the rest is in place (the first pipeline's
    /// error fails `init`; a replacement's sinks were built once already).
    func furnishPipeline(videoSink: String?) throws {
        var failure: Error?
        do { try installSink(configuration.audioSink, property: "audio-sink") } catch { failure = error }
        do { try installSink(videoSink, property: "video-sink") } catch { failure = failure ?? error }
        if configuration.keepPitch, let scaletempo = reel_make_element("scaletempo", nil) {
            reel_set_object(pipeline.element, "audio-filter", scaletempo)
            gst_object_unref(scaletempo)
        }
        installVideoFilter()
        pipeline.attach(bridge: bridge)
        if let failure { throw failure }
    }

    func installSink(_ description: String?, property: String) throws {
        guard let description, !description.isEmpty else { return }
        var error: UnsafeMutablePointer<GError>?
        guard let sink = reel_parse_bin(description, &error) else {
            let text = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            if let error { g_error_free(error) }
            throw PlaybackError(kind: .output, message: "The \(property) “\(description)” could not be built: \(text)")
        }
        if property == "video-sink" { output.prepare(reel_gst_element(sink)) }  // before it leaves NULL
        reel_set_object(pipeline.element, property, sink)  // playbin takes its own reference
        pipeline.remember(sink: UnsafeMutableRawPointer(sink), as: property)
        gst_object_unref(sink)
    }

    /// Whether the audio and video sinks keep to the clock (`sync`): `reel check` decodes as fast as
    /// it can and plays a scenario in real time, so that its waits and pauses mean seconds. On the
    /// clock, the video sink judges lateness as a display sink does (QoS upstream, frames 20 ms
    /// late dropped), so that the dropped frames a check counts are the ones a viewer would miss.
    public func setSinksSync(_ sync: Bool) {
        for property in ["audio-sink", "video-sink"] {
            guard let sink = pipeline.sink(property) else { continue }
            reel_set_sinks_sync(reel_gst_element(sink), sync ? 1 : 0, sync && property == "video-sink" ? 1 : 0)
            gst_object_unref(sink)
        }
    }

    func setPipeline(_ target: PipelineTarget) {
        requestedTarget = target
        let state: GstState
        switch target {
        case .null: state = GST_STATE_NULL
        case .ready: state = GST_STATE_READY
        case .paused: state = GST_STATE_PAUSED
        case .playing: state = GST_STATE_PLAYING
        }
        if pipelineState == .null, target != .null, output.waylandDisplay != nil, let sink = pipeline.sink("video-sink") {
            // waylandsink forgets the display at every NULL it reaches without a window: given
            // again before it leaves NULL (the state change runs here, on this thread).
            output.prepare(reel_gst_element(sink))
            gst_object_unref(sink)
        }
        let result = gst_element_set_state(pipeline.element, state)
        if target == .null || target == .ready { pipelineState = target }
        if result == GST_STATE_CHANGE_NO_PREROLL { mediaInfo.isLive = true }
    }

    func applyDesiredState() {
        guard currentURI != nil else { updateTimeControl(); return }
        if case .failed = status { updateTimeControl(); return }
        var decision = BufferingRule.decide(intent: intent, percent: bufferingPercent, isLive: mediaInfo.isLive,
                                            waitingForNetwork: isWaitingForNetwork, prerolled: prerolled)
        // Until the first preroll, go no further than PAUSED unless the user wants to play.
        if intent == .stopped { decision.target = .ready }
        if let target = decision.target, target != requestedTarget { setPipeline(target) }
        updateTimeControl()
    }

    /// The streaming side's view of the item starts empty: no next URI, no switch taken, no HTTP
    /// source watched.
    func forgetStreamingSideItem() {
        shared.state.withLock {
            $0.next = nil
            $0.switched = nil
            $0.httpSource = nil
            $0.httpSourceActivity = nil
        }
        BitrateCap.forget(shared: shared)
    }
}
