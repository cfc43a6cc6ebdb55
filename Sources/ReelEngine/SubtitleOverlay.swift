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

    /// `element` is the filter's textoverlay (a reference is taken). `atTop`: the secondary
    /// subtitles, always at the top of the picture whatever their cues ask.
    init(element: UnsafeMutablePointer<GstElement>, atTop: Bool = false) {
        self.element = element
        gst_object_ref(element)
        reel_set_string(element, "text", "")
        reel_set_int(element, "valignment", atTop ? 2 : 1)  // top or bottom (GstBaseTextOverlayVAlign)
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
        shared.state.withLock {
            $0.element = UInt(bitPattern: element)
            $0.atTop = atTop
        }
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

    /// Shows every cue on `clock`: `delay` seconds later than its time (negative: earlier), its
    /// times multiplied by `speed` (mpv's `sub-speed`: 25/23.976 for a file timed for PAL).
    func setClock(_ clock: CueClock) {
        shared.state.withLock {
            $0.clock = clock
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

/// How stream time maps to a subtitle file's cue times: mpv's `(pts - sub-delay) / sub-speed`.
struct CueClock: Sendable, Equatable {
    var delay = 0.0
    var speed = 1.0

    func cueTime(at streamTime: Double) -> Double { (streamTime - delay) / (speed > 0 ? speed : 1) }
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
        /// Cues are shown on this clock (later by a delay, their times scaled).
        var clock = CueClock()
        /// `sub-pos` (for cues placed at the bottom), and the placement and edge given to the
        /// element last.
        var userPosition = SubtitleStyle.defaultPosition
        var placed: SubtitlePlacement?
        var edged: SubtitleOutline?
        /// The text on screen (no markup), and who is told when it changes.
        var text: String?
        var onText: (@Sendable (String?, Double?) -> Void)?
        /// The textoverlay (pointer identity; alive while its pad's probe is).
        var element: UInt?
        /// The secondary subtitles: at the top, their cues' own placement not followed.
        var atTop = false
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
        struct Change {
            var element: UInt
            var markup: String
            var onText: (@Sendable (String?, Double?) -> Void)?
            var text: String?
            var at: Double
            var placement: SubtitlePlacement?
            var outline: SubtitleOutline?
            var userPosition: Int
        }
        let change: Change? = state.withLock { s in
            guard let timeline = s.timeline, let element = s.element else { return nil }
            var streamTime = pts
            if var segment = s.segment?.segment {
                let converted = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, pts)
                if reel_gst_clock_time_is_valid(converted) != 0 { streamTime = converted }
            }
            let seconds = s.clock.cueTime(at: Double(streamTime) / 1e9)  // on the cues' clock
            if s.drawn != nil, s.drawnSpan.contains(seconds) { return nil }  // most frames: nothing to do
            let markup = timeline.markup(at: seconds)
            s.drawnSpan = timeline.unchangedSpan(at: seconds)
            guard markup != s.drawn else { return nil }
            s.drawn = markup
            let text = timeline.text(at: seconds)
            let changed = text != s.text
            s.text = text
            // Where the file puts it (ASS \an, WebVTT line/align); set only when it changes.
            let placement = text == nil || s.atTop ? s.placed : (timeline.placement(at: seconds) ?? .standard)
            let moved = placement != s.placed
            s.placed = placement
            // How its letters are edged (ASS styles); set only when it changes, as the placement.
            let outline = text == nil ? s.edged : (timeline.outline(at: seconds) ?? .standard)
            let restyled = outline != s.edged
            s.edged = outline
            return Change(element: element, markup: markup, onText: changed ? s.onText : nil, text: text, at: Double(streamTime) / 1e9,
                          placement: moved ? placement : nil, outline: restyled ? outline : nil, userPosition: s.userPosition)
        }
        // Set outside the lock: textoverlay takes its own, and re-renders only on a change.
        if let change, let pointer = UnsafeMutableRawPointer(bitPattern: change.element) {
            if let placement = change.placement { Self.place(pointer, placement, userPosition: change.userPosition) }
            if let outline = change.outline { Self.edge(pointer, outline) }
            reel_set_string(pointer, "text", change.markup)
            change.onText?(change.text, change.at)
        }
    }
}

extension OverlayShared {
    /// Edges the letters as a cue's style asks: an outline in its colour, none, or a shaded box.
    static func edge(_ element: UnsafeMutableRawPointer, _ outline: SubtitleOutline) {
        reel_set_bool(element, "shaded-background", outline.box ? 1 : 0)
        reel_set_bool(element, "draw-outline", outline.drawn && !outline.box ? 1 : 0)
        let rgb = outline.color.flatMap { UInt32($0.dropFirst(), radix: 16) } ?? 0
        reel_set_uint(element, "outline-color", 0xFF00_0000 | rgb)
    }

    /// Places the textoverlay for a cue (`TextOverlayLayout`), at the video's negotiated size.
    static func place(_ element: UnsafeMutableRawPointer, _ placement: SubtitlePlacement, userPosition: Int) {
        var width: Int32 = 0, height: Int32 = 0
        let known = reel_pad_video_size(element.assumingMemoryBound(to: GstElement.self), "video_sink", &width, &height) != 0 && width > 0 && height > 0
        let layout = TextOverlayLayout(placement, userPosition: userPosition, videoSize: known ? (width: Double(width), height: Double(height)) : nil)
        Log.debug(.subtitles, .debug, "placed \(placement) at \(known ? "\(width)×\(height)" : "an unknown size"): \(layout)")
        reel_set_int(element, "valignment", layout.valignment)
        reel_set_double(element, "ypos", layout.ypos)
        reel_set_int(element, "ypad", layout.ypad)
        reel_set_int(element, "halignment", layout.halignment)
        reel_set_double(element, "xpos", layout.xpos)
        reel_set_int(element, "xpad", layout.xpad)
        reel_set_int(element, "deltax", layout.deltax)
        reel_set_int(element, "line-alignment", layout.lineAlignment)
    }
}

/// What textoverlay's properties are for a placement (GstBaseTextOverlayVAlign: bottom 1, top 2,
/// position 3, center 4; HAlign: left 0, center 1, right 2, position 4; pads in video pixels).
/// A cue at the bottom without a height of its own follows `sub-pos`: 100 is textoverlay's own
/// bottom placement, any other value puts the text's middle at that share of the picture's
/// height. An exact `y` puts the text's top or bottom edge there (`ypad` from that edge), its
/// middle with `position`. An exact `x` puts the left or right edge there; a `width` makes the
/// text wrap at it — textoverlay wraps where text and `xpad` pass the picture's width, so `xpad`
/// is the space beside the box and `deltax` moves the text to its edge. Centred text goes to
/// `x` with `position` alignment, which wraps at the picture's width (textoverlay has no
/// narrower wrap for it). Without the video's size (not negotiated yet), exact places fall back
/// to `position` alignments.
struct TextOverlayLayout: Equatable {
    var valignment: Int32 = 1
    var ypos = 0.5
    var ypad: Int32 = 25
    var halignment: Int32 = 1
    var xpos = 0.5
    var xpad: Int32 = 25
    var deltax: Int32 = 0
    var lineAlignment: Int32 = 1
    /// textoverlay's default padding.
    static let pad: Int32 = 25

    init(_ p: SubtitlePlacement, userPosition: Int, videoSize: (width: Double, height: Double)?) {
        switch (p.vertical, p.y, videoSize) {
        case (.top, nil, _): valignment = 2
        case (.middle, nil, _): valignment = 4
        case (.bottom, nil, _) where userPosition == SubtitleStyle.defaultPosition: valignment = 1
        case (.bottom, nil, _):
            valignment = 3
            ypos = min(1, max(0, Double(userPosition) / 100))
        case (.top, let y?, let size?):
            valignment = 2
            ypad = Int32((y * size.height).rounded())
        case (.bottom, let y?, let size?):
            valignment = 1
            ypad = Int32(((1 - y) * size.height).rounded())
        case (_, let y?, _):
            valignment = 3
            ypos = y
        }
        let h: Int32 = switch p.horizontal { case .left: 0; case .center: 1; case .right: 2 }
        lineAlignment = h
        halignment = h
        guard p.x != nil || p.width != nil else { return }
        guard let size = videoSize, p.horizontal != .center else {
            if p.horizontal == .center || p.x != nil {
                halignment = 4
                xpos = p.x.map { p.horizontal == .left ? $0 + (p.width ?? 0) / 2 : p.horizontal == .right ? $0 - (p.width ?? 0) / 2 : $0 } ?? 0.5
            }
            return
        }
        let w = size.width
        let wrapPad = p.width.map { Int32(((1 - $0) * w).rounded()) }
        switch p.horizontal {
        case .left:
            let edge = Int32(((p.x ?? Double(Self.pad) / w) * w).rounded())
            xpad = wrapPad ?? edge
            deltax = edge - xpad
        case .right:
            let edge = Int32(((p.x ?? 1 - Double(Self.pad) / w) * w).rounded())
            xpad = wrapPad ?? (Int32(w.rounded()) - edge)
            deltax = edge - (Int32(w.rounded()) - xpad)
        case .center: break
        }
    }
}

/// A copy of a GstSegment (a plain C struct: numbers, and reserved pointers GStreamer leaves
/// unused), held in `OverlayShared`'s Mutex.
struct SegmentValue: @unchecked Sendable {
    let segment: GstSegment
    init(_ segment: GstSegment) { self.segment = segment }
}
