import CGtk

/// Texts and slider positions handed to GTK only when what is drawn changes. GTK 3 redraws the
/// window for a label given the text it already shows, and for a slider moved by less than a
/// pixel (measured: 19 redraws in 20 ticks either way, none without them). The controls are
/// rendered at every progress tick (5 a second): on a 2-hour film the elapsed label changes once a
/// second and the bar's slider moves one pixel in ten seconds, so most of those redraws showed
/// nothing new. On Wayland each cost a new whole-window shm buffer and a copy into it (0.4 s of
/// CPU per 10 s under weston, docs/BENCHMARKS.md).
@MainActor
enum QuietUpdates {
    static func setText(_ label: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        if let current = gtk_label_get_text(reel_gtk_label(label)), String(cString: current) == text { return }
        gtk_label_set_text(reel_gtk_label(label), text)
    }

    /// Moves `range` to `value`, except a creep forward by less than one pixel of its width on
    /// screen (what playback does between two ticks on a long item): that is taken up when it adds
    /// up to a pixel. Any other change (back, a jump), and any change while the bar is not on
    /// screen with a width yet, is applied at once.
    static func setValue(_ range: UnsafeMutablePointer<GtkWidget>, _ value: Double) {
        let current = gtk_range_get_value(reel_gtk_range(range))
        let adjustment = gtk_range_get_adjustment(reel_gtk_range(range))
        let span = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_lower(adjustment)
        let width = Double(gtk_widget_get_allocated_width(range))
        if gtk_widget_get_mapped(range) != 0, width > 1, value > current, span > 0, (value - current) / span * width < 1 { return }
        gtk_range_set_value(reel_gtk_range(range), value)
    }
}
