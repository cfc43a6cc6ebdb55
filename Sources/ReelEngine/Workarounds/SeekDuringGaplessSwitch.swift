import CGStreamer
import CReelFrame
import Foundation
import ReelCore

// GStreamer 1.22 workaround: no flushing seek while uridecodebin3 switches to the next item.
//
// Seen (NumericVerbsTests under load, 1 run in 7; gdb and uridecodebin3's log): once the current
// item's input has drained (every urisourcebin pad saw EOS) and about-to-finish took the next URI,
// uridecodebin3 switches its input to the next item. A flushing seek then (a rate change, a
// seek back near an item's end in a gapless queue or `--loop`) went to the *next* item's source
// (the current one reported "cut short"), or deadlocked the main thread: the switch's streaming
// thread set the old urisourcebin to NULL while the old item's threads, restarted by the flush,
// waited for uridecodebin3's lock, and the seek's FLUSH_START waited for their stream lock.
//
// So such a seek starts the current item again on a fresh pipeline and seeks there once it has
// prerolled (the feature keeps the seek: target, rate and mode); the next item goes back to being held
// (`HeldBackNextURI`) until that seek was made, then to the streaming side as before. For
// observers it is one seek: `position` answers its target, no item change, no new readyToPlay.
// Whether the moment has come is `PipelineHandle.gaplessInputDrained` (`reel_gapless_guard.c`)
// while `StreamingShared.switched` holds the taken URI.
struct RestartSeek {
    var target: Double
    var rate: Double
    var mode: SeekMode
    var user: Bool
}

/// The workaround as a feature: it owns the seek waiting for the fresh pipeline's preroll; the
/// player asks it before every flushing seek (`takes`) and at every ASYNC_DONE (`prerolledAgain`).
@MainActor
final class SeekDuringGaplessSwitch: PlayerFeature {
    /// The seek to make once the fresh pipeline has prerolled.
    private(set) var pending: RestartSeek?

    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) { pending = nil }
    func itemUnloaded(host: FeatureHost) { pending = nil }

    /// Takes `seek` as a restart when it would meet uridecodebin3's switch.
    func takes(_ seek: RestartSeek, player: Player) -> Bool {
        guard player.seekMeetsGaplessSwitch else { return false }
        player.restartForSeek(seek)
        pending = seek
        return true
    }

    /// The fresh pipeline prerolled: the waiting seek is made. Returns whether one was.
    func prerolledAgain(player: Player) -> Bool {
        guard let seek = pending else { return false }
        pending = nil
        player.completeRestartSeek(seek)
        return true
    }
}

extension Player {
    /// about-to-finish took the next item and the current item's input has drained: a flushing
    /// seek now would meet uridecodebin3's switch.
    var seekMeetsGaplessSwitch: Bool {
        shared.state.withLock { $0.switched != nil } && pipeline.gaplessInputDrained
    }

    /// The current item on a fresh pipeline; the seek is made at its preroll (`completeRestartSeek`).
    func restartForSeek(_ seek: RestartSeek) {
        guard let uri = currentURI else { return }
        let handed = shared.state.withLock { $0.switched ?? $0.next }
        Log.debug(.engine, .debug, "workaround seek-during-gapless-switch: the input has drained towards the next item; the item starts again on a fresh pipeline at \(seek.target) s")
        replacePipeline()
        lifecycle.awaitingOwnStreamStart = true
        forgetStreamingSideItem()
        reel_set_string(pipeline.element, "uri", uri)
        lifecycle.hasHadItem = true
        features.each("loadRestarted") { $0.loadRestarted(nextHanded: handed, host: self) }
        applyDesiredState()
    }

    /// The fresh pipeline prerolled: the seek is made now, and the next item, held meanwhile,
    /// goes to the streaming side.
    func completeRestartSeek(_ seek: RestartSeek) {
        reel_stream_log_watch(pipeline.element)  // as at the first preroll (`readSelectionAtSinks`)
        // What features put on the pipeline at preroll (a zoom, an aspect, the audio output)
        // goes on the fresh one too.
        features.each("prerolled") { $0.prerolled(host: self) }
        seekTarget = nil
        performSeek(to: seek.target, rate: seek.rate, mode: seek.mode, user: seek.user)
        features.first(HeldBackNextURI.self)?.ownStreamStarted(host: self)
    }

    /// A seek made as a restart waits for the fresh pipeline's preroll.
    var restartSeekPending: Bool { features.first(SeekDuringGaplessSwitch.self)?.pending != nil }
}
