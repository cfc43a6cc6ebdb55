import CGStreamer
import ReelCore
import Synchronization

/// Draws an external subtitle file over the video: a `textoverlay` in the video filter whose
/// text is set, frame by frame, from the chosen file's cues (`SubtitleTimeline`). A probe on its
/// video input reads each buffer's stream time (its PTS through the last segment) on the
/// streaming thread and sets the text when it changes; only `OverlayShared`'s Mutex-guarded
/// state is touched there. playbin3 1.22 cannot take these files itself: its `suburi` fails the
/// item (gst-launch-1.0 too).
final class SubtitleOverlay {
    let element: UnsafeMutablePointer<GstElement>
    private let shared = OverlayShared()

    /// `element` is the filter's textoverlay (a reference is taken).
    init(element: UnsafeMutablePointer<GstElement>) {
        self.element = element
        gst_object_ref(element)
        reel_set_string(element, "text", "")
        reel_set_int(element, "valignment", 1)  // bottom (GstBaseTextOverlayVAlign)
        reel_set_int(element, "halignment", 1)  // center
        reel_set_int(element, "line-alignment", 1)  // center
        reel_set_bool(element, "shaded-background", 0)
        reel_set_bool(element, "draw-outline", 1)
        reel_set_bool(element, "draw-shadow", 1)
        reel_set_bool(element, "wait-text", 0)
        guard let pad = gst_element_get_static_pad(element, "video_sink") else { return }  // transfer full
        defer { gst_object_unref(pad) }
        let types = GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue
        gst_pad_add_probe(pad, GstPadProbeType(rawValue: types), { _, info, data in
            guard let info, let data else { return GST_PAD_PROBE_OK }
            Unmanaged<OverlayShared>.fromOpaque(data).takeUnretainedValue().passing(info)
            return GST_PAD_PROBE_OK
        }, Unmanaged.passRetained(shared).toOpaque(), { data in
            Unmanaged<OverlayShared>.fromOpaque(data!).release()
        })
        shared.state.withLock { $0.element = UInt(bitPattern: element) }
    }

    /// Shows `timeline`'s cues from the next frame on (nil: nothing).
    func show(_ timeline: SubtitleTimeline?) {
        shared.state.withLock {
            $0.timeline = timeline
            $0.drawn = nil  // the next frame sets its text, whatever it was
        }
        if timeline == nil { reel_set_string(element, "text", "") }
    }

    /// The font for a size factor (1: Reel's default, proportional to the picture's width).
    func setScale(_ scale: Double) {
        reel_set_string(element, "font-desc", SubtitleStyle.fontDescription(scale: scale))
    }

    deinit {
        shared.state.withLock { $0.element = nil }
        gst_object_unref(element)
    }
}

/// What the overlay's probe reads and writes on the streaming thread.
final class OverlayShared: Sendable {
    struct State {
        var timeline: SubtitleTimeline?
        /// The last TIME segment: a buffer's PTS through it is its stream time.
        var segment: SegmentValue?
        /// The markup set on the element last (nil: set it at the next frame), and the span of
        /// stream time it holds for.
        var drawn: String?
        var drawnSpan: Range<Double> = 0..<0
        /// The textoverlay (pointer identity; alive while its pad's probe is).
        var element: UInt?
    }
    let state = Mutex(State())

    /// A buffer or event on the overlay's video input.
    func passing(_ info: UnsafeMutablePointer<GstPadProbeInfo>) {
        var segment = GstSegment()
        if reel_probe_segment(info, &segment) != 0 {
            let copy = SegmentValue(segment)
            state.withLock { $0.segment = copy }
            return
        }
        let pts = reel_probe_buffer_pts(info)
        guard reel_gst_clock_time_is_valid(pts) != 0 else { return }
        let change: (UInt, String)? = state.withLock { s -> (UInt, String)? in
            guard let timeline = s.timeline, let element = s.element else { return nil }
            var streamTime = pts
            if var segment = s.segment?.segment {
                let converted = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, pts)
                if reel_gst_clock_time_is_valid(converted) != 0 { streamTime = converted }
            }
            let seconds = Double(streamTime) / 1e9
            if s.drawn != nil, s.drawnSpan.contains(seconds) { return nil }  // most frames: nothing to do
            let markup = timeline.markup(at: seconds)
            s.drawnSpan = timeline.unchangedSpan(at: seconds)
            guard markup != s.drawn else { return nil }
            s.drawn = markup
            return (element, markup)
        }
        // Set outside the lock: textoverlay takes its own, and re-renders only on a change.
        if let (element, markup) = change, let pointer = UnsafeMutableRawPointer(bitPattern: element) {
            reel_set_string(pointer, "text", markup)
        }
    }
}

/// A copy of a GstSegment (a plain C struct: numbers, and reserved pointers GStreamer leaves
/// unused), held in `OverlayShared`'s Mutex.
struct SegmentValue: @unchecked Sendable {
    let segment: GstSegment
    init(_ segment: GstSegment) { self.segment = segment }
}
