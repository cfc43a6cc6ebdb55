import CGStreamer
import Foundation
import ReelCore

// GStreamer 1.22 workaround: every load after a pipeline's first item gets a fresh playbin3.
//
// Seen: reusing a playbin3 through NULL is not safe in 1.22. After a failed item it aborted the
// process in reconfigure_output (`combine->sinkpad == NULL`); while still typefinding, the NULL
// transition deadlocked (typefind waiting in urisourcebin's type_found for a lock the state change
// held); and a prerolled one, reset to NULL and given the next URI while its first item was
// starting in a window, aborted in playsink ("Padname src_0 is not unique in element
// streamsynchronizer0", then `gst_play_sink_do_reconfigure: assertion failed: (it)`). The old
// pipeline goes to NULL on a reaper thread (`PipelineHandle.shutdown`), or is abandoned when it
// stalled (`EndStallWatchdog`). Gapless switches (about-to-finish) stay on one pipeline.
extension Player {
    /// Whether the next `load` must build a new playbin3 (`replacePipeline`).
    var loadNeedsFreshPipeline: Bool { pipelineHasHadItem || pipelineStalled }
}

// GStreamer 1.22 workaround: the pipeline of an item that failed once its streams were known is
// flushed and abandoned, never taken to READY or NULL.
//
// Seen (gdb; BadInputTests' body cut short: 4 runs of the class in 40, and twice in CI): taking
// such a pipeline to NULL crashes in `gst_object_replace` at address 8, in decodebin3's
// PAUSED→READY reset (`free_output_stream` / `free_multiqueue_slot` handed a NULL entry), the
// source — which after its error asks the server again with a Range — still feeding it. Tried and
// dropped: the NULL on the reaper thread 2 s later (still crashed, 4 in 25); a FLUSH_START before
// the NULL (2 in 40); pausing and abandoning without a flush (the source went on and playbin3
// aborted in `reconfigure_output`, every run). So: FLUSH_START (every streaming thread's next
// push fails and its task stops), then the pipeline is replaced by a fresh idle one and the old
// one abandoned as a stalled one is (`PipelineHandle.abandon`: kept, untouched, until the process
// exits; one idle pipeline per such failure). An item that failed before its streams were known
// (a 404, a refused connection, a wrong type) goes to NULL as before.
extension Player {
    func retireFailedPipeline() {
        let hadStreams = prerolled || itemState.collection != MediaInfo() || itemState.videoDisplaySize != nil
        guard hadStreams, pipelineState != .null else { setPipeline(.null); return }
        _ = gst_element_send_event(pipeline.element, gst_event_new_flush_start())
        replacePipeline(abandoningOld: true)
    }
}
