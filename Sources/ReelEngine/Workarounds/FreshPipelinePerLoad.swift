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
    var loadNeedsFreshPipeline: Bool { lifecycle.hasHadItem || lifecycle.stalled }
}
