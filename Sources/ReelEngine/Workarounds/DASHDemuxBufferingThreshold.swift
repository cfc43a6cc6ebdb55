import CGStreamer
import ReelCore

// Workaround: dashdemux2 1.22 buffers 30 s before it lets playback start, which a live MPD never
// gives (its window is shorter, and the start is `suggestedPresentationDelay` from now).
//
// Read in gst-plugins-good 1.22.0, ext/adaptivedemux2/gstadaptivedemux-stream.c,
// `calculate_track_thresholds`: with both low watermark properties at 0, the threshold is 10 s
// or the subclass's recommended one, whichever is lower; dashdemux2 recommends 0 (hlsdemux2
// recommends 1.5 target durations), and a low threshold of 0 is then replaced by
// `max-buffering-time` (30 s). The buffering percentage is the level over that threshold, so a
// live ffmpeg MPD (2 s segments, 12 s window, 2 s presentation delay) stayed at 0 % and Reel
// waited in `buffering` for ever, without an error (a VOD fills 30 s in a moment and played).
//
// So a DASH demuxer gets `low-watermark-fragments` 1.5 (hlsdemux2's own recommendation, in
// fragments): playback starts with a fragment and a half buffered, live or not.
enum DASHDemuxBufferingThreshold {
    static let fragments = 1.5

    /// dashdemux2 is the adaptive demuxer with a `presentation-delay`.
    static func apply(to demuxer: UnsafeMutablePointer<GstElement>) {
        guard reel_has_property(demuxer, "presentation-delay") != 0, reel_has_property(demuxer, "low-watermark-fragments") != 0 else { return }
        reel_set_double(demuxer, "low-watermark-fragments", fragments)
        Log.debug(.engine, .debug, "workaround dashdemux-buffering-threshold: low-watermark-fragments \(fragments)")
    }
}
