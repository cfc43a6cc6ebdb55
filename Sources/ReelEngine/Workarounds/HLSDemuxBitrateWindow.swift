import CGStreamer
import ReelCore

// Workaround: hlsdemux2 1.22 dies when its `min-bitrate` is above every variant before it has
// chosen its first one.
//
// Read in gst-plugins-good 1.22.0, ext/adaptivedemux2/hls: with `connection-bitrate` set, the
// demuxer chooses its first variant by `gst_hls_master_playlist_get_variant_for_bitrate(master,
// NULL, connection_speed, min_bitrate)`, which returns the lowest variant at or above
// `min-bitrate`, and NULL when there is none (its fallback is the *current* variant, NULL at the
// start); `gst_hls_demux_setup_streams` then runs with no variant and the souphttpsrc thread
// crashes under `gst_pad_push_event`. Seen: 6 runs of 6 on a master with AVERAGE-BANDWIDTH (which
// 1.22 takes as the variant's bandwidth, below the BANDWIDTH Reel pinned) once a remembered
// throughput started playback at the top rendition.
//
// The floor never needed `min-bitrate`: with `connection-bitrate` non-zero, adaptivedemux2 takes
// that value as the measured rate after every fragment (`update_current_bitrate` returns it
// as it is), and the variant is the highest at or below it, or the lowest, never none. So a
// pinned rendition is `connection-bitrate` = its own bandwidth (on the demuxer's scale:
// `DemuxerBitrateWindow`), `min-bitrate` stays 0, and `max-bitrate` carries the cap for the
// demuxer's own estimate when Reel sets no connection bitrate (dashdemux2 reads it too).
enum HLSDemuxBitrateWindow {
    /// Sets the window on an adaptive demuxer (any thread: adaptivedemux2 takes its object lock).
    static func apply(cap: Int?, floor: Int?, to demuxer: UnsafeMutablePointer<GstElement>) {
        reel_set_uint(demuxer, "min-bitrate", 0)
        reel_set_uint(demuxer, "max-bitrate", UInt32(clamping: max(0, cap ?? 0)))
        reel_set_uint(demuxer, "connection-bitrate", UInt32(clamping: max(0, floor ?? cap ?? 0)))
        Log.debug(.quality, .debug, "workaround hlsdemux-bitrate-window: min 0, max \(cap ?? 0), connection \(floor ?? cap ?? 0)")
    }
}
