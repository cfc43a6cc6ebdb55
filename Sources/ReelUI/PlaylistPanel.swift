import CGtk
import ReelCore

/// The playlist side panel: one row per item (title, duration), the current one marked (▶, bold),
/// failed ones marked (⚠) with the reason as a tooltip. Double-click or Enter plays a row, dragging
/// reorders, Delete removes. Renders `PlayerViewState.playlist`; emits actions, never edits itself.
///
/// A row is dragged by the panel's own pointer handling (press on a row, move past GTK's drag
/// threshold with the button held, GTK's drop line drawn, release), not by GTK's drag and drop: that
/// protocol belongs to the display server, so a drag made of the events a UI test hands GTK (the
/// socket's `mouse-drag`, on X11 and Wayland alike) or XTEST's under Xvfb would never drop. Drops
/// from other programs (files) are the window's.
@MainActor
final class PlaylistPanel: SignalReceiver {
    let root: UnsafeMutablePointer<GtkWidget>
    let view: UnsafeMutablePointer<GtkWidget>
    var emit: (UIAction) -> Void = { _ in }
    private let store: OpaquePointer
    private(set) var rows: [PlaylistRow]? = nil

    private enum Tag: Int { case activated, key, press, motion, release }
    private enum Column: Int32 { case marker, title, length }

    /// What GTK draws in a cell: row `row`'s marker, title or length, bold for the current row.
    /// (The panel outlives its view: the owner pointer is unretained.)
    private static let rowText: ReelRowText = { owner, row, column, weight in
        guard let owner else { return nil }
        let panel = Unmanaged<PlaylistPanel>.fromOpaque(owner).takeUnretainedValue()
        let cell = MainActor.assumeIsolated { () -> (text: String?, bold: Bool)? in
            guard let rows = panel.rows, rows.indices.contains(Int(row)) else { return nil }
            let r = rows[Int(row)]
            let text: String? = switch Column(rawValue: column) {
            case .marker: r.failure != nil ? "⚠" : (r.isCurrent ? "▶" : nil)
            case .title: r.title
            case .length: r.duration.map { TimeFormat.clock($0) }
            case nil: nil
            }
            return (text, r.isCurrent)
        }
        guard let cell else { return nil }
        if cell.bold { weight?.pointee = 700 }
        return cell.text.map { g_strdup($0) }
    }

    init() {
        root = gtk_scrolled_window_new(nil, nil)
        store = OpaquePointer(reel_playlist_store_new())
        view = gtk_tree_view_new_with_model(reel_gtk_tree_model(UnsafeMutableRawPointer(store)))
        AccessibleNames.name(view, tr("Playlist"))
        g_object_unref(UnsafeMutableRawPointer(store))  // the view holds the model
        let tree = reel_gtk_tree_view(view)
        // The texts are the panel's rows', asked for as GTK draws (the model holds only tooltips).
        let owner = Unmanaged.passUnretained(self).toOpaque()
        reel_tree_view_add_owned_text_column(tree, "", Column.marker.rawValue, 0, 0.5, PlaylistPanel.rowText, owner)
        reel_tree_view_add_owned_text_column(tree, tr("Title"), Column.title.rawValue, 1, 0, PlaylistPanel.rowText, owner)
        reel_tree_view_add_owned_text_column(tree, tr("Length"), Column.length.rawValue, 0, 1, PlaylistPanel.rowText, owner)
        let widths: [Int32] = [22, 120, 52]
        widths.withUnsafeBufferPointer { reel_tree_view_fixed_rows(tree, $0.baseAddress, Int32($0.count)) }
        gtk_tree_view_set_tooltip_column(tree, 0)
        gtk_tree_view_set_headers_visible(tree, 0)
        gtk_tree_view_set_activate_on_single_click(tree, 0)
        gtk_scrolled_window_set_policy(reel_gtk_scrolled_window(root), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_size_request(root, 220, -1)
        gtk_container_add(reel_gtk_container(root), view)
        gtk_widget_set_name(view, "reel-playlist")
        gtk_widget_show_all(root)
        SignalBridge.connectRowActivated(view, tag: Tag.activated.rawValue, to: self)
        SignalBridge.connectEvent(view, "key-press-event", tag: Tag.key.rawValue, to: self)
        SignalBridge.connectEvent(view, "button-press-event", tag: Tag.press.rawValue, to: self)
        SignalBridge.connectEvent(view, "motion-notify-event", tag: Tag.motion.rawValue, to: self)
        SignalBridge.connectEvent(view, "button-release-event", tag: Tag.release.rawValue, to: self)
    }

    /// Shows `newRows` by difference (issue 51: a queue of 100,000 rows must not be rebuilt when
    /// the current item moves): the same count updates only the rows that changed, and one row
    /// moved (a drag, `playlist-move`) is one removal and one insertion, however many rows it
    /// passes; otherwise the span between the common start and the common end is replaced. The
    /// selection stays. The view follows the current row when it was showing the one before and
    /// the new one is out of sight.
    func render(_ newRows: [PlaylistRow]) {
        guard newRows != rows else { return }
        let old = rows ?? []
        rows = newRows
        let previous = current
        current = newRows.firstIndex { $0.isCurrent }
        let followed = previous.map { reel_tree_view_row_in_view(reel_gtk_tree_view(view), Int32($0)) != 0 } ?? false
        defer { if followed, let current, current != previous, !showsRow(current) { scrollToCurrent() } }
        let s = UnsafeMutablePointer<GtkListStore>(store)
        let shorter = min(old.count, newRows.count)
        var head = 0
        while head < shorter, old[head] == newRows[head] { head += 1 }
        var tail = 0
        while tail < shorter - head, old[old.count - 1 - tail] == newRows[newRows.count - 1 - tail] { tail += 1 }
        if old.count == newRows.count {
            let end = newRows.count - tail  // rows head..<end differ at both ends
            if let (from, to) = Self.oneMove(old[head..<end], newRows[head..<end]) {
                reel_playlist_store_remove_rows(s, Int32(from), 1)
                insert(s, to, newRows[to])
                return
            }
            for i in head..<end where old[i] != newRows[i] { set(s, i, newRows[i]) }
            return
        }
        reel_playlist_store_remove_rows(s, Int32(head), Int32(old.count - tail - head))
        for i in head..<(newRows.count - tail) { insert(s, i, newRows[i]) }
    }

    /// When `new` is `old` with one row taken from one end of the span and put at the other, that
    /// row's index before and after (absolute indices).
    static func oneMove(_ old: ArraySlice<PlaylistRow>, _ new: ArraySlice<PlaylistRow>) -> (from: Int, to: Int)? {
        guard old.count > 2, old.count == new.count, let first = old.indices.first, let last = old.indices.last else { return nil }
        if old[first] == new[last], old.dropFirst().elementsEqual(new.dropLast()) { return (first, last) }
        if old[last] == new[first], old.dropLast().elementsEqual(new.dropFirst()) { return (last, first) }
        return nil
    }

    /// The current row's index, nil when no row is current.
    private(set) var current: Int?

    /// Scrolls the current row to the middle of the view (the panel opening, playback moving on
    /// past the rows shown).
    func scrollToCurrent() {
        if let current { reel_tree_view_scroll_to_row(reel_gtk_tree_view(view), Int32(current)) }
    }

    /// A row's tooltip: why it failed (Pango markup), nil when it did not.
    private func tooltip(_ row: PlaylistRow) -> String? {
        row.failure.map { PlaylistPanel.markupEscape(tr("Could not be played: ") + $0) }
    }

    private func set(_ s: UnsafeMutablePointer<GtkListStore>, _ i: Int, _ row: PlaylistRow) {
        reel_playlist_store_set_row(s, Int32(i), tooltip(row))
    }

    private func insert(_ s: UnsafeMutablePointer<GtkListStore>, _ i: Int, _ row: PlaylistRow) {
        reel_playlist_store_insert_row(s, Int32(i), tooltip(row))
    }

    func onRowActivated(_ tag: Int, index: Int) {
        if index >= 0 { emit(.playIndex(index)) }
    }

    /// The row pressed with the first button and where (widget coordinates), and whether the
    /// pointer has since moved past the drag threshold.
    private var press: (row: Int, x: Int32, y: Int32)?
    private var dragging = false

    func onEvent(_ tag: Int, _ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        let tree = reel_gtk_tree_view(view)
        var x: Int32 = 0, y: Int32 = 0
        switch Tag(rawValue: tag) {
        case .key:
            guard reel_event_keyval(event) == KeySym.delete else { return false }
            let index = Int(reel_tree_view_selected_index(tree))
            guard index >= 0 else { return false }
            emit(.removeItem(index))
            return true
        case .press:
            dragging = false
            press = nil
            guard reel_event_type(event) == GDK_BUTTON_PRESS, reel_event_button(event) == 1 else { return false }
            reel_tree_view_event_point(tree, event, &x, &y)
            let row = Int(reel_tree_view_row_at_point(tree, x, y))
            if row >= 0 { press = (row, x, y) }
            return false  // GTK selects the row
        case .motion:
            guard let press, reel_event_state(event) & (1 << 8) != 0 else { return false }  // GDK_BUTTON1_MASK
            reel_tree_view_event_point(tree, event, &x, &y)
            if !dragging {
                guard reel_drag_passed_threshold(view, press.x, press.y, x, y) != 0 else { return false }
                dragging = true
            }
            reel_tree_view_show_drop(tree, x, y, 1)
            return true
        case .release:
            defer { press = nil; dragging = false }
            guard let press, dragging, reel_event_button(event) == 1 else { return false }
            reel_tree_view_event_point(tree, event, &x, &y)
            reel_tree_view_show_drop(tree, 0, 0, 0)
            // Reorder through the queue: the panel shows the move when the next state has it.
            let to = Int(reel_tree_view_drop_index(tree, x, y, Int32(rows?.count ?? 0)))
            if press.row != to, press.row + 1 != to { emit(.moveItem(from: press.row, to: to)) }
            return false  // GTK ends its own press
        case .activated, nil:
            return false
        }
    }

    /// Escapes text for Pango markup (tooltips are markup).
    private static func markupEscape(_ text: String) -> String {
        guard let p = g_markup_escape_text(text, -1) else { return text }
        defer { g_free(p) }
        return String(cString: p)
    }

    func tooltip(x: Int, y: Int) -> String? {
        guard let p = reel_tree_view_tooltip_at(reel_gtk_tree_view(view), Int32(x), Int32(y), 0) else { return nil }
        defer { g_free(p) }
        return String(cString: p)
    }

    /// The titles the view draws, row by row (for tests: what the user sees, through the model's
    /// rows and the cells' data, as a screen reader reads them).
    var shownTitles: [String] {
        (0..<Int(reel_playlist_store_count(UnsafeMutablePointer<GtkListStore>(store)))).map { i in
            guard let p = reel_tree_view_cell_text(reel_gtk_tree_view(view), Column.title.rawValue, Int32(i)) else { return "" }
            defer { g_free(p) }
            return String(cString: p)
        }
    }
    /// Whether row `index` is within the view's visible range.
    func showsRow(_ index: Int) -> Bool { reel_tree_view_row_in_view(reel_gtk_tree_view(view), Int32(index)) != 0 }

    var selectedIndex: Int { Int(reel_tree_view_selected_index(reel_gtk_tree_view(view))) }
    func select(_ index: Int) { reel_tree_view_select_index(reel_gtk_tree_view(view), Int32(index)) }
}
