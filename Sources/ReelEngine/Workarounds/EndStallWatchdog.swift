import CGStreamer
import Foundation
import ReelCore
import Synchronization

// GStreamer 1.22 workaround: an item that stops at its very end without EOS.
//
// Seen: when the next URI, taken at about-to-finish, failed to open (an HTTP 404), playbin3 sat
// at the end of the current item with neither EOS nor an error, about one run in twenty; and
// taking that pipeline to NULL crashed GStreamer about one time in two (a NULL
// gst_object_replace under uridecodebin3), so it is abandoned, never reused. When it has stalled
// is `EndStallWatch` (ReelCore, tested by table); this file feeds it from the progress timer.
extension Player {
    /// GStreamer 1.22's playbin3 can stop at the very end of an item and never post EOS when
    /// the next URI, taken at about-to-finish, fails to open (an HTTP 404 seen about one run in
    /// twenty): the streaming threads wait for a switch that never comes. When playback has sat
    /// within the last half second of a known duration for `endStallTimeout` while playing (not
    /// buffering, not live), the item is treated as played to its end, the pending switch is
    /// dropped, and the next load replaces the pipeline, so the next item opens afresh and
    /// reports its own error. Returns true when it fired.
    func watchForEndStall(at position: Double) -> Bool {
        let eligible = rate > 0 && bufferingPercent == nil && !mediaInfo.isLive
        guard itemState.watches.endStall.observe(position: position, duration: duration, now: Self.monotonicSeconds,
                                    timeout: configuration.endStallTimeout, eligible: eligible) else { return false }
        Log.debug(.engine, .warning, String(format: "workaround end-stall: sat at %.2f s of %.2f s without EOS; ended here, the next load gets a new pipeline", position, duration ?? 0))
        lifecycle.stalled = true
        dropPendingSwitch()
        onEnd()
        return true
    }

    /// Stalled at an item's end: the watchdog fired, or playback has sat still in the last half
    /// second for over half a second (a quit before the watchdog fires must not reap it either).
    var pipelineLooksStalled: Bool {
        lifecycle.stalled || itemState.watches.endStall.hasSatStill(longerThan: 0.5, now: Self.monotonicSeconds)
    }

    /// Forgets the next URI, whether still held back, waiting for about-to-finish, or taken.
    func dropPendingSwitch() {
        shared.state.withLock {
            $0.next = nil
            $0.switched = nil
        }
    }
}
