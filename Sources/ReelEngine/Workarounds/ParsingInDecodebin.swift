import CGStreamer
import ReelCore

// GStreamer 1.22 workaround: for network sources, urisourcebin leaves parsing to decodebin3
// (`parse-streams` off).
//
// Seen (gdb and a decodebin3 debug log; `reel --headless --ipc` with `load … replace` every
// 0–0.4 s over HTTP: the process died in 3–6 runs of 40, and in about one CI run in three, in
// BadInputTests and in an MPRIS OpenUri): taking a playbin3 to READY or NULL segfaults in
// `gst_object_replace` at address 8, on whichever thread makes the state change. uridecodebin3
// creates its urisourcebin with `parse-streams` on, so urisourcebin demuxes and decodebin3 takes
// each elementary stream through a passthrough `identity`; an input stream that saw EOS is
// removed from decodebin3's list (`unblock_pending_input`), and decodebin3's PAUSED→READY reset
// (`reset_input`) then looks the identity's stream up again, gets NULL and dereferences it in
// `remove_input_stream`. With `parse-streams` off, urisourcebin hands over the raw bytes (behind
// its queue2) and decodebin3 parses them with its own parsebin, whose reset does not take that
// path: 0 crashes in 100 runs of the same loop and 60 runs of BadInputTests taken to NULL.
// `TeardownTests` failed 3 runs in 8 without this; `Resources/scripts/teardown-stress.py` is the loop.
// Local files keep `parse-streams` on: with it off, playbin3 1.22 never asks for the next URI
// (about-to-finish) of a local file, so gapless queues would reload every item; the crash was
// never seen with them. Adaptive streams are not affected (hlsdemux2 feeds decodebin3 either way).
// Set from playbin3's element-setup: uridecodebin3 gives its urisourcebin the URI, then adds it
// (which is when element-setup runs), before the urisourcebin reads the property.
enum ParsingInDecodebin {
    /// Called for every element added anywhere in the pipeline (any thread).
    static func configure(_ element: UnsafeMutablePointer<GstElement>) {
        guard reel_has_property(element, "parse-streams") != 0, reel_has_property(element, "uri") != 0,
              let uri = reel_get_string(element, "uri") else { return }
        defer { g_free(uri) }
        guard MediaLocator.isNetwork(String(cString: uri)) else { return }
        reel_set_bool(element, "parse-streams", 0)
        // Its queue2 then buffers bytes before the demuxer: playback starts at 60 % of this (or
        // after 3 s of download, queue2's rate estimate), instead of 60 % of 10 MiB — a whole
        // small file, or seconds of a big one on a slow link.
        reel_set_int(element, "buffer-size", Self.bufferBytes)
        Log.debug(.engine, .debug, "workaround parsing-in-decodebin: parse-streams off, buffer-size \(Self.bufferBytes) on a network urisourcebin")
    }

    /// urisourcebin's `buffer-size` for network sources (its default, -1, means 10 MiB).
    static let bufferBytes: Int32 = 1 << 20
}
