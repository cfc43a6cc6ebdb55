import CGtk

/// The banner above the video: what went wrong or what playback waits for ("“name” could not be
/// played…", "No network…", "Reconnecting…"), and for an item the metered policy refused, a
/// "Play anyway" button. Hidden while there is nothing to say.
@MainActor
final class ErrorBanner: SignalReceiver {
    let root: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let button: UnsafeMutablePointer<GtkWidget>
    var emit: (UIAction) -> Void = { _ in }

    init() {
        root = gtk_info_bar_new()
        gtk_info_bar_set_message_type(OpaquePointer(root).map { UnsafeMutablePointer<GtkInfoBar>($0) }, GTK_MESSAGE_ERROR)
        label = gtk_label_new("")
        gtk_label_set_line_wrap(reel_gtk_label(label), 1)
        gtk_label_set_xalign(reel_gtk_label(label), 0)
        gtk_label_set_max_width_chars(reel_gtk_label(label), 80)
        gtk_widget_set_name(label, "reel-error")
        let content = gtk_info_bar_get_content_area(OpaquePointer(root).map { UnsafeMutablePointer<GtkInfoBar>($0) })
        gtk_container_add(reel_gtk_container(content), label)
        button = gtk_button_new_with_label("Play anyway")
        gtk_widget_set_name(button, "reel-play-anyway")
        gtk_widget_set_no_show_all(button, 1)
        gtk_container_add(reel_gtk_container(content), button)
        gtk_widget_set_no_show_all(root, 1)
        gtk_widget_show(label)
        SignalBridge.connect(button, "clicked", tag: 0, to: self)
    }

    func render(_ old: PlayerViewState, _ new: PlayerViewState, force: Bool) {
        if force || old.errorBanner != new.errorBanner {
            gtk_label_set_text(reel_gtk_label(label), new.errorBanner ?? "")
            gtk_widget_set_visible(root, new.errorBanner == nil ? 0 : 1)
        }
        if force || old.offersPlayAnyway != new.offersPlayAnyway { gtk_widget_set_visible(button, new.offersPlayAnyway ? 1 : 0) }
    }

    /// The text when the banner is shown.
    var text: String? { gtk_widget_get_visible(root) != 0 ? String(cString: gtk_label_get_text(reel_gtk_label(label))) : nil }
    var offersPlayAnyway: Bool { gtk_widget_get_visible(root) != 0 && gtk_widget_get_visible(button) != 0 }
    func pressPlayAnyway() { gtk_button_clicked(OpaquePointer(button).map { UnsafeMutablePointer<GtkButton>($0) }) }

    func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?) { emit(.playAnyway) }
}
