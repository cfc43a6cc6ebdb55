import CGtk

/// Fullscreen's controls that hide: shown (with the pointer) on every key, motion and change of
/// what plays, hidden (with a blank pointer over the video) after `delay` seconds of stillness
/// while playing in fullscreen. Owns its timer and its blank cursor.
@MainActor
final class ControlsAutoHide: SignalReceiver {
    /// Seconds of stillness before the controls hide.
    var delay: Double = 2
    /// Whether hiding is right now (the window says: fullscreen, playing, no spinner).
    var canHide: () -> Bool = { false }
    private let controls: UnsafeMutablePointer<GtkWidget>
    private let video: UnsafeMutablePointer<GtkWidget>
    private var timer: UInt32 = 0
    private var blankCursor: OpaquePointer?

    init(controls: UnsafeMutablePointer<GtkWidget>, video: UnsafeMutablePointer<GtkWidget>) {
        self.controls = controls
        self.video = video
    }

    /// Shows the controls and, when they may hide, schedules hiding them.
    func reveal() {
        setVisible(true)
        cancelTimer()
        guard canHide() else { return }
        timer = SignalBridge.timeout(milliseconds: UInt32(delay * 1000), tag: 0, to: self)
    }

    /// The window is gone: the timer and the cursor go too.
    func release() {
        cancelTimer()
        if let c = blankCursor { g_object_unref(UnsafeMutableRawPointer(c)); blankCursor = nil }
    }

    func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?) {
        timer = 0
        if canHide() { setVisible(false) }
    }

    private func cancelTimer() {
        if timer != 0 { g_source_remove(timer); timer = 0 }
    }

    private func setVisible(_ visible: Bool) {
        guard (gtk_widget_get_visible(controls) != 0) != visible else { return }
        gtk_widget_set_visible(controls, visible ? 1 : 0)
        if let gdk = gtk_widget_get_window(video) {
            if !visible, blankCursor == nil { blankCursor = gdk_cursor_new_for_display(gtk_widget_get_display(video), GDK_BLANK_CURSOR) }
            gdk_window_set_cursor(gdk, visible ? nil : blankCursor)
        }
    }
}
