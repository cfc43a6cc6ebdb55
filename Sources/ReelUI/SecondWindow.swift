import CGtk

/// A window of the player's own beside the main one (the shortcuts, the preferences): made
/// transient for the player's and destroyed with it; shown, raised, closed; gone once destroyed.
/// (A class: closing it destroys the widget, whose "destroy" handler says `destroyed` meanwhile.)
@MainActor
final class SecondWindow {
    private(set) var widget: UnsafeMutablePointer<GtkWidget>?

    init(title: String, parent: UnsafeMutablePointer<GtkWidget>, name: String) {
        let w = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        gtk_window_set_title(reel_gtk_window(w), title)
        gtk_window_set_transient_for(reel_gtk_window(w), reel_gtk_window(parent))
        gtk_window_set_destroy_with_parent(reel_gtk_window(w), 1)
        gtk_widget_set_name(w, name)
        widget = w
    }

    var isOpen: Bool { widget.map { gtk_widget_get_visible($0) != 0 } ?? false }

    func present() {
        guard let widget else { return }
        gtk_widget_show_all(widget)
        gtk_window_present(reel_gtk_window(widget))
    }

    func close() {
        let w = widget
        widget = nil
        if let w { gtk_widget_destroy(w) }
    }

    /// GTK destroyed it (its parent went).
    func destroyed() { widget = nil }
}
