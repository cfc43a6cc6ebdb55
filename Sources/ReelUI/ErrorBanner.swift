import CGtk
import ReelCore

/// The banner above the video: what went wrong or what playback waits for ("“name” could not be
/// played…", "No network…", "Reconnecting…"), and for an item the metered policy refused, a
/// "Play anyway" button. Hidden while there is nothing to say.
@MainActor
final class ErrorBanner: SignalReceiver {
    private let parts = InfoBarParts(type: GTK_MESSAGE_ERROR, labelName: "reel-error", button: tr("Play anyway"), buttonName: "reel-play-anyway")
    var root: UnsafeMutablePointer<GtkWidget> { parts.root }
    private var label: UnsafeMutablePointer<GtkWidget> { parts.label }
    private var button: UnsafeMutablePointer<GtkWidget> { parts.button }
    var emit: (UIAction) -> Void = { _ in }

    init() {
        gtk_label_set_line_wrap(reel_gtk_label(label), 1)
        gtk_label_set_max_width_chars(reel_gtk_label(label), 80)
        gtk_widget_set_no_show_all(button, 1)
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
    var text: String? { parts.text }
    var offersPlayAnyway: Bool { gtk_widget_get_visible(root) != 0 && gtk_widget_get_visible(button) != 0 }
    func pressPlayAnyway() { parts.click() }

    func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?) { emit(.playAnyway) }
}
