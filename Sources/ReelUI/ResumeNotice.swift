import CGtk
import ReelCore

/// The notice above the video when an item starts where it was left ("Resumed at 4:12") with a
/// "Start over" button. Hidden while there is nothing to say; the window session hides it a few
/// seconds after playback goes on.
@MainActor
final class ResumeNotice: SignalReceiver {
    private let parts = InfoBarParts(type: GTK_MESSAGE_INFO, labelName: "reel-resume-text", button: tr("Start over"), buttonName: "reel-start-over")
    var root: UnsafeMutablePointer<GtkWidget> { parts.root }
    var emit: (UIAction) -> Void = { _ in }

    init() {
        gtk_widget_set_name(root, "reel-resume-notice")
        gtk_widget_set_hexpand(parts.label, 1)
        gtk_widget_show(parts.button)
        SignalBridge.connect(parts.button, "clicked", tag: 0, to: self)
    }

    func render(_ old: PlayerViewState, _ new: PlayerViewState, force: Bool) {
        guard force || old.resumedAt != new.resumedAt else { return }
        gtk_label_set_text(reel_gtk_label(parts.label), new.resumedAt.map(PlayerViewState.resumedText) ?? "")
        gtk_widget_set_visible(root, new.resumedAt == nil ? 0 : 1)
    }

    var text: String? { parts.text }
    func pressStartOver() { parts.click() }

    func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?) { emit(.startOver) }
}
