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
// prerolled (`restartSeek`: the target, rate and mode); the next item goes back to being held
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

extension Player {
    /// about-to-finish took the next item and the current item's input has drained: a flushing
    /// seek now would meet uridecodebin3's switch.
    var seekMeetsGaplessSwitch: Bool {
        shared.state.withLock { $0.switched != nil } && pipeline.gaplessInputDrained
    }

    /// The seek as a restart: the current item on a fresh pipeline, the seek made at its preroll.
    func restartForSeek(_ seek: RestartSeek) {
        guard let uri = currentURI else { return }
        let handed = shared.state.withLock { $0.switched ?? $0.next }
        Log.debug(.engine, .debug, "workaround seek-during-gapless-switch: the input has drained towards the next item; the item starts again on a fresh pipeline at \(seek.target) s")
        replacePipeline()
        lifecycle.awaitingOwnStreamStart = true
        forgetStreamingSideItem()
        reel_set_string(pipeline.element, "uri", uri)
        lifecycle.hasHadItem = true
        itemState.progress.restartSeek = seek
        features.each("loadRestarted") { $0.loadRestarted(nextHanded: handed, host: self) }
        applyDesiredState()
    }

    /// The fresh pipeline prerolled: the seek is made now, and the next item, held meanwhile,
    /// goes to the streaming side. Returns false when no restart seek waits.
    func completeRestartSeek() -> Bool {
        guard let seek = itemState.progress.restartSeek else { return false }
        itemState.progress.restartSeek = nil
        reel_stream_log_watch(pipeline.element)  // as at the first preroll (`readSelectionAtSinks`)
        // What features put on the pipeline at preroll (a zoom, an aspect, the audio output)
        // goes on the fresh one too.
        features.each("prerolled") { $0.prerolled(host: self) }
        seekTarget = nil
        performSeek(to: seek.target, rate: seek.rate, mode: seek.mode, user: seek.user)
        features.first(HeldBackNextURI.self)?.ownStreamStarted(host: self)
        return true
    }
}
