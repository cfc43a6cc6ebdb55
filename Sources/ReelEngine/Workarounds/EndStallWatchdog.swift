import CGStreamer
import Foundation
import ReelCore

// GStreamer 1.22 workaround: an item that stops at its very end without EOS.
//
// Seen: when the next URI, taken at about-to-finish, failed to open (an HTTP 404), playbin3 sat
// at the end of the current item with neither EOS nor an error, about one run in twenty; and
// taking that pipeline to NULL crashed GStreamer about one time in two (a NULL
// gst_object_replace under uridecodebin3), so it is abandoned, never reused. When it has stalled
// is `EndStallWatch` (ReelCore, tested by table); this component feeds it the progress timer's
// positions (`positionRead`) and ends the item through the player (`FeatureHost.endStalled`).
@MainActor
final class EndStallWatchdog: PlayerFeature {
    private(set) var watch = EndStallWatch()
    /// `PlayerConfiguration.endStallTimeout` (0: off).
    private var timeout: Double = 3

    func configure(_ configuration: PlayerConfiguration) { timeout = configuration.endStallTimeout }
    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) { watch = EndStallWatch() }
    func progressPaused(host: FeatureHost) { watch.reset() }

    /// When playback has sat within the last half second of a known duration for
    /// `endStallTimeout` while playing (not buffering, not live), the item is treated as played
    /// to its end: the pending switch is dropped, and the next load replaces the pipeline, so
    /// the next item opens afresh and reports its own error.
    func positionRead(_ seconds: Double, host: FeatureHost) -> Bool {
        let eligible = host.rate > 0 && host.bufferingPercent == nil && !host.mediaInfo.isLive
        guard watch.observe(position: seconds, duration: host.duration, now: host.now, timeout: timeout, eligible: eligible) else { return false }
        Log.debug(.engine, .warning, String(format: "workaround end-stall: sat at %.2f s of %.2f s without EOS; ended here, the next load gets a new pipeline",
                                            seconds, host.duration ?? 0))
        host.endStalled()
        return true
    }

    /// Playback has sat still in the last half second for over half a second (a quit before the
    /// watchdog fires must not reap the pipeline either).
    func looksStalled(host: FeatureHost) -> Bool { watch.hasSatStill(longerThan: 0.5, now: host.now) }
}

extension Player {
    /// Stalled at an item's end: the watchdog fired, or a feature sees playback sitting still there.
    var pipelineLooksStalled: Bool { lifecycle.stalled || features.first("looksStalled") { $0.looksStalled(host: self) } }

    /// The item stopped at its end without EOS (`EndStallWatchdog`): it ends here, the pending
    /// switch is dropped, and the next load gets a fresh pipeline (this one is abandoned).
    func endStalled() {
        lifecycle.stalled = true
        dropPendingSwitch()
        onEnd()
    }

    /// Forgets the next URI, whether waiting for about-to-finish or taken (one held back goes
    /// with the item's end: `HeldBackNextURI`).
    func dropPendingSwitch() {
        shared.state.withLock {
            $0.next = nil
            $0.switched = nil
        }
    }
}
