import CGtk

/// Keyboard reach for the window's controls (issue 50): every push button, toggle and menu
/// button is in the Tab chain and Enter activates the one focused, its focus drawn when the
/// keyboard moved it there. The player's own keys (space, arrows, letters) stay the window's:
/// its key handler runs before the focused control sees a key (`PlayerWindow`), and a click does
/// not leave the focus on a button. Sliders stay out of the chain (their keys are the player's
/// seek and volume keys).
enum KeyboardFocus {
    static func reachable(_ widget: UnsafeMutablePointer<GtkWidget>) {
        gtk_widget_set_can_focus(widget, 1)
        gtk_widget_set_focus_on_click(widget, 0)
    }
}
