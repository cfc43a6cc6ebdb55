/// GStreamer 1.22 workaround, the decision part: what the gateway answers when a live HLS
/// stream's media segment cannot be fetched upstream.
///
/// hlsdemux2 1.22 aborts the whole process on a live segment that answers 4xx or 5xx: its
/// download-error path schedules a retry while `finish_download` has already scheduled the next
/// fragment, and the next playlist update asserts `stream->pending_cb_id == 0`
/// (`gstadaptivedemux-stream.c:1726`, `gst_adaptive_demux2_stream_on_manifest_update`; SIGABRT,
/// reproduced with `live-event-server.py --fault missing:6`). Fixed upstream in 1.23 (MR 3883,
/// "adaptivedemux2: Fix download error handling more"), not in Debian 12's 1.22.0.
///
/// So the gateway answers such a segment with an empty 200: the demuxer has nothing to parse
/// and goes on to the next segment, as a player skips a gap (hls.js does), and the failure is
/// still told to the app (a warning with the upstream status). VOD segments, keys, maps and
/// playlists are passed on as they are: their errors fail the item as before.
public enum LiveSegmentGap {
    /// A request with this header gets the upstream failure as it is (`reel check --watch`,
    /// which checks that listed segments can be fetched).
    public static let passErrorsHeader = "X-Reel-Pass-Errors"

    /// Whether an upstream failure of `kind` on a stream that is live is answered as a gap.
    public static func answersAsGap(status: Int, kind: HLSURIKind?, live: Bool) -> Bool {
        live && kind == .segment && (400...599).contains(status) && status != 401 && status != 403 && status != 416
    }
}
