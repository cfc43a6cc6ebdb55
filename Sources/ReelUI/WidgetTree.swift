import CGtk
import ReelCore

/// The window's widgets as data, for UI tests (the socket's `window-tree`, `--dump-tree`): each
/// visible widget's GTK type, its accessible role and name (the tree AT-SPI reads, so they agree
/// with what a screen reader says), its state (sensitive, focused, checked, pressed), its text or
/// value, and its rectangle in its window's coordinates — the coordinates `mouse` takes. Every
/// visible toplevel is listed (a dialog too), the player's window first.
@MainActor
public enum WidgetTree {
    public static func json(main: UnsafeMutablePointer<GtkWidget>) -> JSONValue {
        var windows: [JSONValue] = [window(main, main: true)]
        if let list = gtk_window_list_toplevels() {
            var l: UnsafeMutablePointer<GList>? = list
            while let node = l {
                if let p = node.pointee.data {
                    let w = p.assumingMemoryBound(to: GtkWidget.self)
                    if w != main, gtk_widget_get_visible(w) != 0, gtk_widget_get_mapped(w) != 0 { windows.append(window(w, main: false)) }
                }
                l = node.pointee.next
            }
            g_list_free(list)
        }
        return .array(windows)
    }

    /// The rectangle of the player window's first visible widget whose accessible name or id is `name`.
    public static func rect(named name: String, in main: UnsafeMutablePointer<GtkWidget>) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard case .object(let top) = window(main, main: true), case .array(let widgets)? = top.first(where: { $0.0 == "widgets" })?.1 else { return nil }
        for case .object(let fields) in widgets where fields.contains(where: { ($0.0 == "name" || $0.0 == "id") && $0.1 == .string(name) }) {
            func n(_ key: String) -> Int { fields.first { $0.0 == key }?.1.ipcNumber.map { Int($0) } ?? 0 }
            return (n("x"), n("y"), n("width"), n("height"))
        }
        return nil
    }

    private static func window(_ w: UnsafeMutablePointer<GtkWidget>, main: Bool) -> JSONValue {
        var widgets: [JSONValue] = []
        walk(w, top: w, path: "0", into: &widgets)
        let title = gtk_window_get_title(reel_gtk_window(w)).map { String(cString: $0) }
        return .object([("title", .optional(title)), ("main", .bool(main)), ("width", .int(Int(gtk_widget_get_allocated_width(w)))),
                        ("height", .int(Int(gtk_widget_get_allocated_height(w)))), ("widgets", .array(widgets))])
    }

    private static func walk(_ w: UnsafeMutablePointer<GtkWidget>, top: UnsafeMutablePointer<GtkWidget>, path: String, into out: inout [JSONValue]) {
        guard gtk_widget_get_visible(w) != 0, gtk_widget_get_mapped(w) != 0 else { return }
        out.append(entry(w, top: top, path: path))
        guard let children = reel_widget_children(w) else { return }
        var l: UnsafeMutablePointer<GList>? = children
        var i = 0
        while let node = l {
            if let p = node.pointee.data { walk(p.assumingMemoryBound(to: GtkWidget.self), top: top, path: "\(path).\(i)", into: &out) }
            i += 1
            l = node.pointee.next
        }
        g_list_free(children)
    }

    private static func entry(_ w: UnsafeMutablePointer<GtkWidget>, top: UnsafeMutablePointer<GtkWidget>, path: String) -> JSONValue {
        var x: Int32 = 0, y: Int32 = 0
        _ = gtk_widget_translate_coordinates(w, top, 0, 0, &x, &y)
        var fields: [(String, JSONValue)] = [("path", .string(path)), ("type", .string(String(cString: reel_type_name(w))))]
        if let a = gtk_widget_get_accessible(w) {
            fields.append(("role", .string(String(cString: atk_role_get_name(atk_object_get_role(a))))))
            if let n = atk_object_get_name(a), n.pointee != 0 { fields.append(("name", .string(String(cString: n)))) }
        }
        // The id Reel gave the widget (its GTK name, "reel-seek"), for a test to find one whose
        // accessible name moves (a time label's is its text).
        if let id = gtk_widget_get_name(w).map({ String(cString: $0) }), id.hasPrefix("reel-") { fields.append(("id", .string(id))) }
        if reel_is_a(w, gtk_label_get_type()) != 0, let t = gtk_label_get_text(reel_gtk_label(w)) { fields.append(("text", .string(String(cString: t)))) }
        if reel_is_a(w, gtk_button_get_type()) != 0, let t = gtk_button_get_label(reel_gtk_button(w)) { fields.append(("text", .string(String(cString: t)))) }
        if reel_is_a(w, gtk_range_get_type()) != 0 {
            let r = reel_gtk_range(w)
            fields.append(("value", .double(gtk_range_get_value(r))))
            if let adj = gtk_range_get_adjustment(r) {
                fields += [("min", .double(gtk_adjustment_get_lower(adj))), ("max", .double(gtk_adjustment_get_upper(adj)))]
            }
        }
        if reel_is_a(w, gtk_tree_view_get_type()) != 0 { fields.append(("rows", rows(reel_gtk_tree_view(w), at: (x, y)))) }
        fields += [("x", .int(Int(x))), ("y", .int(Int(y))), ("width", .int(Int(gtk_widget_get_allocated_width(w)))),
                   ("height", .int(Int(gtk_widget_get_allocated_height(w)))), ("sensitive", .bool(gtk_widget_is_sensitive(w) != 0))]
        for (key, state) in [("focused", ATK_STATE_FOCUSED), ("checked", ATK_STATE_CHECKED), ("pressed", ATK_STATE_PRESSED)] where reel_atk_has_state(w, state) != 0 {
            fields.append((key, .bool(true)))
        }
        return .object(fields)
    }

    /// A list's rows in sight (the playlist panel's): each row's `index`, its cells' `texts` (what a
    /// screen reader reads in the row) and its rectangle in window coordinates, for a test to click
    /// or drag a row.
    private static func rows(_ view: UnsafeMutablePointer<GtkTreeView>, at origin: (x: Int32, y: Int32)) -> JSONValue {
        var first: Int32 = -1, last: Int32 = -1
        reel_tree_view_visible_rows(view, &first, &last)
        guard first >= 0, last >= first else { return .array([]) }
        let columns = reel_tree_view_column_count(view)
        return .array((first...last).map { i in
            var x: Int32 = 0, y: Int32 = 0, width: Int32 = 0, height: Int32 = 0
            reel_tree_view_row_rect(view, i, &x, &y, &width, &height)
            let texts: [JSONValue] = (0..<columns).map { c in
                guard let p = reel_tree_view_cell_text(view, c, i) else { return .string("") }
                defer { g_free(p) }
                return .string(String(cString: p))
            }
            return .object([("index", .int(Int(i))), ("texts", .array(texts)), ("x", .int(Int(origin.x + x))), ("y", .int(Int(origin.y + y))),
                            ("width", .int(Int(width))), ("height", .int(Int(height)))])
        })
    }
}
