import CGStreamer
import CReelFrame
import Foundation
import ReelCore
import Synchronization

/// What is in a media file or URL, without playing it: GstDiscoverer (gst/pbutils) run
/// synchronously. Thread-safe (each call has its own discoverer); it blocks up to `timeout`.
public enum MediaProbe {
    /// Discoverers given up after a timeout (never unreffed; see `probe`).
    private static let abandoned = Mutex<[UInt]>([])

    /// Probes threads still running after their deadline (abandoned; never joined).
    private static let overdue = Mutex(0)

    /// Probes `input` (a path or URI). Never throws: failures come back in `result.error`. The
    /// discoverer runs on a thread of its own and is waited for at most `timeout` + 2 s: its
    /// own timeout does not bound it (its teardown of a live HLS stream whose segments are
    /// missing deadlocks in hlsdemux2's state change; matroskademux takes ~50 s of CPU over
    /// 100,000 chapters), so a probe past its deadline is abandoned, its thread left to finish
    /// or not, and the caller told it timed out.
    public static func probe(_ input: String, timeout: Double = 10) -> MediaProbeResult {
        let uri = MediaLocator.uri(for: input)
        let box = Mutex<MediaProbeResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = probeNow(input, timeout: timeout)
            box.withLock { $0 = result }
            done.signal()
        }
        thread.name = "reel-probe"
        thread.start()
        let bound = BoundedNumber.seconds(timeout).map { max(0.1, $0) } ?? 10
        if done.wait(timeout: .now() + bound + 2) == .success, let result = box.withLock({ $0 }) { return result }
        let count = overdue.withLock { n in n += 1; return n }
        Log.debug(.engine, .info, "media probe of \(Redactor.redactURL(uri)) abandoned after \(bound + 2) s (\(count) so far)")
        var result = MediaProbeResult(uri: uri)
        let local = MediaLocator.localPath(of: uri) != nil
        result.error = PlaybackError(kind: local ? .corrupt : .timeout,
                                     message: local ? String(format: "The file could not be opened within %.0f s: it is probably damaged.", bound)
                                                    : String(format: "Probing the media took longer than %.0f s.", bound), uri: uri)
        return result
    }

    private static func probeNow(_ input: String, timeout: Double) -> MediaProbeResult {
        GStreamerRuntime.ensureInitialised()
        let uri = MediaLocator.uri(for: input)
        var result = MediaProbeResult(uri: uri)
        var context = ErrorMapper.Context(uri: uri)
        if let path = MediaLocator.localPath(of: uri) {
            let facts = LocalFileFacts(path: path)
            context.describeLocalFile(facts)
            if !facts.isPlayable {
                result.error = ErrorMapper.map(domain: ErrorMapper.Domain.resource.quark, code: 3, message: "local check", debug: path, context: context)
                return result
            }
        }
        var gerror: UnsafeMutablePointer<GError>?
        let ns = UInt(max(0.1, timeout) * 1e9)
        guard let discoverer = gst_discoverer_new(ns, &gerror) else {
            result.error = mapGError(gerror, context: context, fallback: "The media probe (GstDiscoverer) could not be created.")
            if let gerror { g_error_free(gerror) }
            return result
        }
        reel_content_guard_discoverer(UnsafeMutableRawPointer(discoverer), ContentGuard.discoverer)
        let info = gst_discoverer_discover_uri(discoverer, uri, &gerror)
        // A discoverer that timed out has a pipeline whose streaming threads may still be
        // wedged; disposing it takes that pipeline to NULL, which in 1.22 is the teardown that
        // can crash (see PipelineHandle.abandon). It is kept, untouched, instead.
        if let info, gst_discoverer_info_get_result(info) == GST_DISCOVERER_TIMEOUT {
            abandoned.withLock { $0.append(UInt(bitPattern: discoverer)) }
        } else {
            g_object_unref(discoverer)
        }
        defer {
            if let info { g_object_unref(UnsafeMutableRawPointer(info)) }
            if let gerror { g_error_free(gerror) }
        }
        guard let info else {
            result.error = mapGError(gerror, context: context, fallback: "The media could not be probed.")
            return result
        }
        fill(&result, from: info)
        switch gst_discoverer_info_get_result(info) {
        case GST_DISCOVERER_OK:
            break
        case GST_DISCOVERER_MISSING_PLUGINS:
            result.error = PlaybackError(kind: .missingCodec, message: "A GStreamer plugin needed to decode this media is not installed.", uri: uri)
        case GST_DISCOVERER_TIMEOUT where context.isLocalFile:
            // A local file opens in milliseconds. A demuxer that fails very early can have its
            // error swallowed by decodebin's autoplugging (a GStreamer race seen with damaged
            // MP4s), and then nothing more happens: treat the stall as damage.
            result.error = PlaybackError(kind: .corrupt, message: String(format: "The file could not be opened within %.0f s: it is probably damaged.", timeout), uri: uri)
        case GST_DISCOVERER_TIMEOUT:
            result.error = PlaybackError(kind: .timeout, message: String(format: "Probing the media took longer than %.0f s.", timeout), uri: uri)
        case GST_DISCOVERER_URI_INVALID:
            result.error = PlaybackError(kind: .notFound, message: "The address is not a valid media URI.", uri: uri)
        default:
            result.error = mapGError(gerror, context: context, fallback: "The media could not be probed.")
        }
        return result
    }

    private static func mapGError(_ e: UnsafeMutablePointer<GError>?, context: ErrorMapper.Context, fallback: String) -> PlaybackError {
        guard let e else { return PlaybackError(kind: .unknown, message: fallback, uri: context.uri) }
        let domain = String(cString: g_quark_to_string(e.pointee.domain))
        let message = String(cString: e.pointee.message)
        return ErrorMapper.map(domain: domain, code: Int(e.pointee.code), message: message, debug: nil, context: context)
    }

    private static func fill(_ result: inout MediaProbeResult, from info: OpaquePointer) {
        let d = gst_discoverer_info_get_duration(info)
        if reel_gst_clock_time_is_valid(d) != 0, d > 0 { result.duration = Double(d) / 1e9 }
        result.isSeekable = gst_discoverer_info_get_seekable(info) != 0
        result.isLive = gst_discoverer_info_get_live(info) != 0
        if let tags = gst_discoverer_info_get_tags(info), let t = reel_taglist_title(UnsafeMutablePointer(mutating: tags)) {
            result.title = String(cString: t)
            g_free(t)
        }
        if let top = gst_discoverer_info_get_stream_info(info) {
            if let nick = gst_discoverer_stream_info_get_stream_type_nick(top), String(cString: nick) == "container" {
                result.container = codec(of: top)
            }
            g_object_unref(UnsafeMutableRawPointer(top))
        }
        if let list = gst_discoverer_info_get_video_streams(info) {
            var node: UnsafeMutablePointer<GList>? = list
            while let n = node {
                if let data = n.pointee.data {
                    let v = OpaquePointer(data)
                    let num = gst_discoverer_video_info_get_framerate_num(v), den = gst_discoverer_video_info_get_framerate_denom(v)
                    let bitrate = Int(gst_discoverer_video_info_get_bitrate(v))
                    result.video.append(.init(codec: codec(of: v), width: Int(gst_discoverer_video_info_get_width(v)),
                                              height: Int(gst_discoverer_video_info_get_height(v)),
                                              framerate: num > 0 && den > 0 ? Double(num) / Double(den) : nil,
                                              bitrate: bitrate > 0 ? bitrate : nil))
                }
                node = n.pointee.next
            }
            gst_discoverer_stream_info_list_free(list)
        }
        if let list = gst_discoverer_info_get_audio_streams(info) {
            var node: UnsafeMutablePointer<GList>? = list
            while let n = node {
                if let data = n.pointee.data {
                    let a = OpaquePointer(data)
                    let bitrate = Int(gst_discoverer_audio_info_get_bitrate(a))
                    result.audio.append(.init(codec: codec(of: a), channels: Int(gst_discoverer_audio_info_get_channels(a)),
                                              sampleRate: Int(gst_discoverer_audio_info_get_sample_rate(a)),
                                              bitrate: bitrate > 0 ? bitrate : nil,
                                              language: gst_discoverer_audio_info_get_language(a).map { String(cString: $0) }))
                }
                node = n.pointee.next
            }
            gst_discoverer_stream_info_list_free(list)
        }
        if let list = gst_discoverer_info_get_subtitle_streams(info) {
            result.subtitleCount = Int(g_list_length(list))
            gst_discoverer_stream_info_list_free(list)
        }
    }

    /// A stream's codec in words ("H.264 (Constrained Baseline Profile)"), from its caps.
    private static func codec(of stream: OpaquePointer) -> String? {
        guard let caps = gst_discoverer_stream_info_get_caps(stream) else { return nil }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(caps).assumingMemoryBound(to: GstMiniObject.self)) }
        guard let d = reel_caps_codec_description(caps) else { return nil }
        defer { g_free(d) }
        return String(cString: d)
    }
}
