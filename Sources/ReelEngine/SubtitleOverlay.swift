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
        let (told, onText) = shared.state.withLock { s -> (Bool, (@Sendable (String?, Double?) -> Void)?) in
            s.timeline = timeline
            s.drawn = nil  // the next frame sets its text, whatever it was
            guard timeline == nil, s.text != nil else { return (false, nil) }
            s.text = nil
            return (true, s.onText)
        }
        if timeline == nil { reel_set_string(element, "text", "") }
        if told { onText?(nil, nil) }
    }

    /// Shows every cue `delay` seconds later than its time (negative: earlier).
    func setDelay(_ delay: Double) {
        shared.state.withLock {
            $0.delay = delay
            $0.drawn = nil
        }
    }

    /// The vertical position on mpv's `sub-pos` scale: 100 (the default) is textoverlay's own
    /// bottom placement; any other value places the text's middle at that share of the picture's
    /// height (textoverlay's `position` alignment, kept inside the picture).
    func setPosition(_ position: Int) {
        let placed = shared.state.withLock { s -> SubtitlePlacement? in
            s.userPosition = position
            s.drawn = nil
            return s.placed
        }
        OverlayShared.place(element, placed ?? .standard, userPosition: position)
    }

    /// Told (on the streaming thread) the text on screen whenever it changes (nil: none), with
    /// the stream time of the frame that first shows it.
    var onText: (@Sendable (String?, Double?) -> Void)? {
        get { shared.state.withLock { $0.onText } }
        set { shared.state.withLock { $0.onText = newValue } }
    }

    /// The text on screen now (no markup), nil when none.
    var currentText: String? { shared.state.withLock { $0.text } }

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
        /// Cues are shown this many seconds later than their times.
        var delay = 0.0
        /// `sub-pos` (for cues placed at the bottom), and the placement given to the element last.
        var userPosition = SubtitleStyle.defaultPosition
        var placed: SubtitlePlacement?
        /// The text on screen (no markup), and who is told when it changes.
        var text: String?
        var onText: (@Sendable (String?, Double?) -> Void)?
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
        let change: (UInt, String, (@Sendable (String?, Double?) -> Void)?, String?, Double, SubtitlePlacement?, Int)? = state.withLock { s in
            guard let timeline = s.timeline, let element = s.element else { return nil }
            var streamTime = pts
            if var segment = s.segment?.segment {
                let converted = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, pts)
                if reel_gst_clock_time_is_valid(converted) != 0 { streamTime = converted }
            }
            let seconds = Double(streamTime) / 1e9 - s.delay  // on the cues' clock
            if s.drawn != nil, s.drawnSpan.contains(seconds) { return nil }  // most frames: nothing to do
            let markup = timeline.markup(at: seconds)
            s.drawnSpan = timeline.unchangedSpan(at: seconds)
            guard markup != s.drawn else { return nil }
            s.drawn = markup
            let text = timeline.text(at: seconds)
            let changed = text != s.text
            s.text = text
            // Where the file puts it (ASS \an, WebVTT line/align); set only when it changes.
            let placement = text == nil ? s.placed : (timeline.placement(at: seconds) ?? .standard)
            let moved = placement != s.placed
            s.placed = placement
            return (element, markup, changed ? s.onText : nil, text, Double(streamTime) / 1e9, moved ? placement : nil, s.userPosition)
        }
        // Set outside the lock: textoverlay takes its own, and re-renders only on a change.
        if let (element, markup, onText, text, at, placement, userPosition) = change, let pointer = UnsafeMutableRawPointer(bitPattern: element) {
            if let placement { Self.place(pointer, placement, userPosition: userPosition) }
            reel_set_string(pointer, "text", markup)
            onText?(text, at)
        }
    }
}

extension OverlayShared {
    /// Aligns the textoverlay for a placement (GstBaseTextOverlayVAlign: bottom 1, top 2,
    /// position 3, center 4; HAlign: left 0, center 1, right 2). A cue at the bottom follows
    /// `sub-pos`: 100 is textoverlay's own bottom placement, any other value puts the text's
    /// middle at that share of the picture's height.
    static func place(_ element: UnsafeMutableRawPointer, _ placement: SubtitlePlacement, userPosition: Int) {
        switch placement.vertical {
        case .top: reel_set_int(element, "valignment", 2)
        case .middle: reel_set_int(element, "valignment", 4)
        case .bottom where userPosition == SubtitleStyle.defaultPosition: reel_set_int(element, "valignment", 1)
        case .bottom:
            reel_set_int(element, "valignment", 3)
            reel_set_double(element, "ypos", min(1, max(0, Double(userPosition) / 100)))
        }
        let h: Int32 = switch placement.horizontal { case .left: 0; case .center: 1; case .right: 2 }
        reel_set_int(element, "halignment", h)
        reel_set_int(element, "line-alignment", h)
    }
}

/// A copy of a GstSegment (a plain C struct: numbers, and reserved pointers GStreamer leaves
/// unused), held in `OverlayShared`'s Mutex.
struct SegmentValue: @unchecked Sendable {
    let segment: GstSegment
    init(_ segment: GstSegment) { self.segment = segment }
}
