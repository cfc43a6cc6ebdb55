import CGStreamer
import Foundation
import ReelCore
import Synchronization

/// The progress timer: samples the position at the UI interval and reports ticks (ProgressTicker) while time advances.
extension Player {
    /// Seconds on the monotonic clock since the process's first reading (for the pure rules that
    /// take a time: `RunAheadFilter`, `EndStallWatch`).
    nonisolated static var monotonicSeconds: Double {
        let d = ContinuousClock.now - clockOrigin
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    nonisolated private static let clockOrigin = ContinuousClock.now

    func startTimer() {
        let ms = UInt32(max(20, min(1000, configuration.progressInterval * 1000)))
        let data = Unmanaged.passRetained(bridge).toOpaque()
        timers.progress = g_timeout_add_full(Int32(G_PRIORITY_DEFAULT), ms, { data in
            let bridge = Unmanaged<CallbackBridge>.fromOpaque(data!).takeUnretainedValue()
            guard let player = bridge.player else { return 0 }
            MainActor.assumeIsolated { player.onTimer() }
            return 1
        }, data, { data in Unmanaged<CallbackBridge>.fromOpaque(data!).release() })
    }

    func onTimer() {
        features.each("tick") { $0.tick(host: self) }
        if features.first("timerCheck", { $0.timerCheck(host: self) }) { return }
        // Only while the user wants it to play: after `pause`, the pipeline goes on for a moment
        // until its state change lands, and that is not progress the user asked for.
        guard intent == .playing, prerolled, seekTarget == nil, pipelineState == .playing, !isAtEnd else {
            features.each("progressPaused") { $0.progressPaused(host: self) }
            return
        }
        foldSinkFrames()
        var pos: Int = 0
        guard gst_element_query_position(pipeline.element, GST_FORMAT_TIME, &pos) != 0, pos >= 0 else { return }
        let seconds = Double(pos) / 1e9
        // Taken: the item ended or failed, or the reading is not believed (`RunAheadPositions`).
        if features.first("positionRead", { $0.positionRead(seconds, host: self) }) { return }
        let ticks = ticker.advance(to: seconds)
        guard !ticks.isEmpty else { return }
        lastPosition = seconds
        let live = liveTimeline?.report(stream: seconds)
        for tick in ticks { emit(.progress(position: live?.position ?? seconds, duration: duration, tick: tick, live: live)) }
    }
}
