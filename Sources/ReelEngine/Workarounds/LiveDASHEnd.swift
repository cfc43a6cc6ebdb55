import CGStreamer
import ReelCore

// GStreamer 1.22 workaround: a live MPD that turns static (an event that ended, as ffmpeg's
// DASH muxer ends one; a replay closed where its recording ends) never ends playback.
//
// Read in gst-plugins-good 1.22, ext/adaptivedemux2/gstadaptivedemux.c: a live stream that has
// fetched every segment its MPD lists waits for the next manifest update
// (`handle_playlist_eos`); the update task wakes such streams when it *asks* for the manifest
// (`manifest_update_cb`, before the answer is in), and the answer is applied later
// (`handle_manifest_download_complete`). An answer that makes the MPD static stops the task
// there, so nothing wakes the waiting streams again: they never look at the static MPD, never
// reach its end, and playback sits at the live edge, buffering, for ever (seen in replays of a
// recorded ffmpeg stream: the end came only when a stream happened to be fetching when the
// static MPD arrived, about one run in three).
//
// So when dashdemux2 says a live item has a duration (DURATION_CHANGED: it posts one for a
// static MPD, never for a dynamic one), its streams are restarted where playback stands: a
// flushing seek there, the streams set up again on the static MPD, which they play to its end
// and EOS. (The pipeline's duration query still answers none then: the message is the sign.)
@MainActor
final class LiveDASHEnd: PlayerFeature {
    private var restarted = false

    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) { restarted = false }

    func durationChanged(host: FeatureHost) {
        guard !restarted, host.isPrerolled, host.mediaInfo.isLive, host.isDASH else { return }
        restarted = true
        Log.debug(.engine, .warning, String(format: "workaround live-dash-end: the live MPD turned static; its streams restart at %.2f s", host.streamPosition))
        host.restartStreams()
    }
}
