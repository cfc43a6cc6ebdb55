import CGtk
import ReelCore

/// The seek row of the controls: elapsed, the seek bar, total, and the LIVE badge of a live item
/// (whose seek bar spans its window and whose labels show wall-clock time). Owns the bar's drag:
/// while it is held the elapsed label shows the target, and the seek is asked for on release.
/// Renders a `PlayerViewState`; emits `.seek` and `.goLive`.
@MainActor
final class SeekRow: SignalReceiver {
    let root: UnsafeMutablePointer<GtkWidget>
    var emit: (UIAction) -> Void = { _ in }

    private let elapsed: UnsafeMutablePointer<GtkWidget>
    private let total: UnsafeMutablePointer<GtkWidget>
    let seek: UnsafeMutablePointer<GtkWidget>
    /// "LIVE" at the edge (lit), "−0:25" behind it; a click goes live.
    let liveBadge: UnsafeMutablePointer<GtkWidget>
    private var state = PlayerViewState()
    /// Set while the row itself changes the bar, so that value-changed is not an action.
    private var rendering = false
    /// While the seek bar is held, it shows the target, not the position.
    private(set) var isDragging = false

    private enum Tag: Int { case live, seekValue, seekPress, seekRelease, seekMotion, seekLeave }
    /// The frame above the bar while the pointer hovers it (`onHover` asks for it).
    private(set) lazy var preview = SeekPreviewPopover(relativeTo: seek)
    /// The pointer hovers the bar at this time (nil: it left, or a drag began); not for live items.
    var onHover: (Double?) -> Void = { _ in }

    init() {
        root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        elapsed = gtk_label_new("0:00")
        total = gtk_label_new("--:--")
        seek = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 1, 0.1)
        liveBadge = gtk_button_new_with_label("LIVE")
        gtk_button_set_relief(reel_gtk_button(liveBadge), GTK_RELIEF_NONE)
        gtk_widget_set_can_focus(liveBadge, 0)
        gtk_widget_set_tooltip_text(liveBadge, tr("Go live (End)"))
        gtk_widget_set_valign(liveBadge, GTK_ALIGN_CENTER)
        gtk_widget_set_name(liveBadge, "reel-live")
        gtk_widget_set_no_show_all(liveBadge, 1)
        for label in [elapsed, total] {
            gtk_style_context_add_class(gtk_widget_get_style_context(label), "reel-time")
            gtk_label_set_width_chars(reel_gtk_label(label), 7)
        }
        // Ids for UI tests (window-tree's `id`, a capture mask): the labels' accessible names are
        // their texts, which move.
        gtk_widget_set_name(elapsed, "reel-elapsed")
        gtk_widget_set_name(total, "reel-total")
        gtk_label_set_xalign(reel_gtk_label(elapsed), 1)
        gtk_label_set_xalign(reel_gtk_label(total), 0)
        gtk_scale_set_draw_value(reel_gtk_scale(seek), 0)
        gtk_widget_set_hexpand(seek, 1)
        gtk_widget_set_can_focus(seek, 0)
        gtk_widget_set_tooltip_text(seek, tr("Seek"))
        gtk_widget_set_name(seek, "reel-seek")
        AccessibleNames.name(seek, tr("Seek"))
        AccessibleNames.name(liveBadge, tr("Go live"))
        gtk_box_pack_start(reel_gtk_box(root), elapsed, 0, 0, 0)
        gtk_box_pack_start(reel_gtk_box(root), seek, 1, 1, 0)
        gtk_box_pack_start(reel_gtk_box(root), total, 0, 0, 0)
        gtk_box_pack_start(reel_gtk_box(root), liveBadge, 0, 0, 0)
        SignalBridge.connect(liveBadge, "clicked", tag: Tag.live.rawValue, to: self)
        SignalBridge.connect(seek, "value-changed", tag: Tag.seekValue.rawValue, to: self)
        SignalBridge.connectEvent(seek, "button-press-event", tag: Tag.seekPress.rawValue, to: self)
        SignalBridge.connectEvent(seek, "button-release-event", tag: Tag.seekRelease.rawValue, to: self)
        gtk_widget_add_events(seek, Int32(GDK_POINTER_MOTION_MASK.rawValue | GDK_LEAVE_NOTIFY_MASK.rawValue))
        SignalBridge.connectEvent(seek, "motion-notify-event", tag: Tag.seekMotion.rawValue, to: self)
        SignalBridge.connectEvent(seek, "leave-notify-event", tag: Tag.seekLeave.rawValue, to: self)
    }

    func render(_ new: PlayerViewState, force: Bool) {
        let old = state
        state = new
        rendering = true
        defer { rendering = false }
        // A live item's seek bar spans its window (0 … the edge).
        let span = new.duration ?? new.live?.window.upperBound
        let upper = max(span ?? 0, 0.001)
        if force || old.duration != new.duration || old.live?.window != new.live?.window {
            gtk_range_set_range(reel_gtk_range(seek), 0, upper)
        }
        if force || old.chapters != new.chapters || old.duration != new.duration || (old.live == nil) != (new.live == nil) { renderChapterMarks(new) }
        if force || old.chapters != new.chapters
            || ChapterNavigation.index(at: old.position, in: old.chapters) != ChapterNavigation.index(at: new.position, in: new.chapters) {
            gtk_widget_set_tooltip_text(seek, new.chapters.isEmpty ? tr("Seek") : Self.chapterTooltip(new.chapters, at: new.position))
        }
        if !isDragging {
            let value = min(upper, max(0, new.position))
            if force { gtk_range_set_value(reel_gtk_range(seek), value) } else { QuietUpdates.setValue(seek, value) }
            QuietUpdates.setText(elapsed, elapsedText(new, at: new.position))
        }
        QuietUpdates.setText(total, totalText(new))
        // The position as a screen reader says it ("0:04 of 0:06"), not the slider's raw number.
        AccessibleNames.describe(seek, String(format: tr("%@ of %@"), elapsedText(new, at: new.position), totalText(new)))
        gtk_widget_set_sensitive(seek, new.title != nil && span != nil && new.isSeekable ? 1 : 0)
        renderLiveBadge(new.live)
    }

    /// The elapsed label: the wall-clock time of day of a live item with PROGRAM-DATE-TIME, the
    /// media time otherwise.
    private func elapsedText(_ state: PlayerViewState, at position: Double) -> String {
        if let live = state.live, let epoch = live.epochTime { return TimeFormat.timeOfDay(epoch + (position - live.position), zone: state.timeZone ?? .current) }
        return TimeFormat.clock(position)
    }

    /// The total label: the time of day at the live edge, the window's length without a date,
    /// the duration otherwise.
    private func totalText(_ state: PlayerViewState) -> String {
        if let live = state.live {
            if let epoch = live.epochTime { return TimeFormat.timeOfDay(epoch + live.behindLiveEdge, zone: state.timeZone ?? .current) }
            return TimeFormat.clock(live.window.upperBound)
        }
        return state.duration.map { TimeFormat.clock($0) } ?? "--:--"
    }

    /// A mark under the bar at each chapter's start; chapters closer than a few pixels share one
    /// (`ChapterMarks`).
    private func renderChapterMarks(_ state: PlayerViewState) {
        gtk_scale_clear_marks(reel_gtk_scale(seek))
        drawnMarks = 0
        guard state.live == nil else { return }
        let allocated = Int(gtk_widget_get_allocated_width(seek))
        let marks = ChapterMarks.merged(state.chapters, duration: state.duration ?? 0, width: allocated > 1 ? allocated : 1920)
        for time in marks { gtk_scale_add_mark(reel_gtk_scale(seek), time, GTK_POS_BOTTOM, nil) }
        drawnMarks = marks.count
    }

    /// How many chapter marks the bar shows.
    private(set) var drawnMarks = 0

    /// The seek bar's tooltip with chapters: each one's start and title, the one playing marked;
    /// of many, the ones around the one playing.
    static func chapterTooltip(_ chapters: [Chapter], at position: Double) -> String {
        let current = ChapterNavigation.index(at: position, in: chapters) ?? -1
        let shown = ChapterMarks.tooltipRange(count: chapters.count, current: current)
        var lines = shown.map { i in
            "\(i == current ? "▶ " : "   ")\(TimeFormat.clock(chapters[i].time))  \(chapters[i].title ?? "Chapter \(i + 1)")"
        }
        if shown.count < chapters.count { lines.append(String(format: tr("   … %d chapters in all (chapter-list over the socket)"), chapters.count)) }
        return ([tr("Seek — chapters (PgUp, PgDn):")] + lines).joined(separator: "\n")
    }

    private func renderLiveBadge(_ live: LivePosition?) {
        guard let live else {
            gtk_widget_hide(liveBadge)
            return
        }
        let text = live.isAtEdge ? "LIVE" : TimeFormat.behindEdge(live.behindLiveEdge)
        if String(cString: gtk_button_get_label(reel_gtk_button(liveBadge))) != text { gtk_button_set_label(reel_gtk_button(liveBadge), text) }
        let style = gtk_widget_get_style_context(liveBadge)
        if live.isAtEdge { gtk_style_context_add_class(style, "reel-live-edge") } else { gtk_style_context_remove_class(style, "reel-live-edge") }
        gtk_widget_show(liveBadge)
    }

    // MARK: Signals

    func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?) {
        switch Tag(rawValue: tag) {
        case .live: emit(.goLive)
        case .seekValue:
            guard !rendering else { return }
            let value = gtk_range_get_value(reel_gtk_range(seek))
            if isDragging {
                gtk_label_set_text(reel_gtk_label(elapsed), elapsedText(state, at: value))  // the target while dragging
            } else {
                emit(.seek(to: value))  // a click or scroll on the bar, not a drag
            }
        default: break
        }
    }

    func onEvent(_ tag: Int, _ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        switch Tag(rawValue: tag) {
        case .seekPress:
            if reel_event_button(event) == 1 { isDragging = true }
            stopHover()
        case .seekRelease:
            if isDragging {
                isDragging = false
                emit(.seek(to: gtk_range_get_value(reel_gtk_range(seek))))
            }
        case .seekMotion:
            var x = 0.0, y = 0.0
            gdk_event_get_coords(event, &x, &y)
            hover(atX: x)
        case .seekLeave:
            stopHover()
        default: break
        }
        return false  // let the scale do its own dragging
    }

    /// The time under the pointer at `x` (the bar's own coordinates) on the trough, asked for.
    private func hover(atX x: Double) {
        guard !isDragging, state.live == nil, let duration = state.duration, duration > 0, gtk_widget_get_sensitive(seek) != 0 else { return stopHover() }
        var trough = GdkRectangle()
        gtk_range_get_range_rect(reel_gtk_range(seek), &trough)
        guard trough.width > 0 else { return }
        let fraction = min(1, max(0, (x - Double(trough.x)) / Double(trough.width)))
        preview.pointerX = Int(x)
        preview.isHovering = true
        onHover(fraction * duration)
    }

    private func stopHover() {
        guard preview.isHovering else { return }
        preview.hide()
        onHover(nil)
    }

    // MARK: Test and app hooks

    /// The elapsed and total labels as shown.
    var timeTexts: (elapsed: String, total: String) {
        (String(cString: gtk_label_get_text(reel_gtk_label(elapsed))), String(cString: gtk_label_get_text(reel_gtk_label(total))))
    }

    /// The LIVE badge's text, nil when hidden.
    var liveBadgeText: String? {
        gtk_widget_get_visible(liveBadge) != 0 ? String(cString: gtk_button_get_label(reel_gtk_button(liveBadge))) : nil
    }
}
