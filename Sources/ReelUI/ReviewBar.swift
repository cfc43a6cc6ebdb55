import CGtk
import ReelCore

/// `reel review`'s bar above the video: where the review stands (the item, its automated findings,
/// its verdict), Pass, Fail and Mark buttons, and a note entry that opens when a note is asked
/// for (Enter records it, Esc cancels). Hidden unless the session is a review. While the entry
/// has the focus, keys are the entry's (the window does not take them).
@MainActor
public final class ReviewBar: SignalReceiver {
    public enum Button: Int { case pass, fail, mark }

    let root: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let entry: UnsafeMutablePointer<GtkWidget>
    private var buttons: [Button: UnsafeMutablePointer<GtkWidget>] = [:]
    /// A button was pressed.
    public var onButton: (Button) -> Void = { _ in }
    private var completion: ((String?) -> Void)?

    private enum Tag: Int { case activate = 10, entryKey = 11 }

    init() {
        root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        gtk_widget_set_name(root, "reel-review")
        label = gtk_label_new("")
        gtk_widget_set_name(label, "reel-review-text")
        gtk_label_set_xalign(reel_gtk_label(label), 0)
        gtk_label_set_ellipsize(reel_gtk_label(label), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(label, 1)
        entry = gtk_entry_new()
        gtk_widget_set_name(entry, "reel-review-note")
        gtk_entry_set_width_chars(reel_gtk_entry(entry), 30)
        AccessibleNames.name(entry, tr("Review note"))
        gtk_box_pack_start(reel_gtk_box(root), label, 1, 1, 4)
        gtk_box_pack_start(reel_gtk_box(root), entry, 0, 0, 0)
        for (button, title) in [(Button.pass, tr("Pass (y)")), (.fail, tr("Fail (n)")), (.mark, tr("Mark (b)"))] {
            let b = gtk_button_new_with_label(title)!
            gtk_widget_set_name(b, "reel-review-\(button)")
            KeyboardFocus.reachable(b)
            gtk_box_pack_start(reel_gtk_box(root), b, 0, 0, 0)
            SignalBridge.connect(b, "clicked", tag: button.rawValue, to: self)
            buttons[button] = b
        }
        SignalBridge.connect(entry, "activate", tag: Tag.activate.rawValue, to: self)
        SignalBridge.connectEvent(entry, "key-press-event", tag: Tag.entryKey.rawValue, to: self)
        gtk_widget_show_all(root)
        gtk_widget_hide(entry)
        gtk_widget_set_no_show_all(root, 1)
        gtk_widget_set_no_show_all(entry, 1)
        gtk_widget_hide(root)
    }

    /// Shows the bar with this text (a review session calls it whenever the review changes).
    public func show(_ text: String) {
        gtk_label_set_text(reel_gtk_label(label), text)
        gtk_widget_show(root)
    }

    /// The bar's text as shown, nil while hidden.
    public var text: String? {
        guard gtk_widget_get_visible(root) != 0, let p = gtk_label_get_text(reel_gtk_label(label)) else { return nil }
        return String(cString: p)
    }

    /// Opens the note entry with `prompt` as its placeholder and the focus; `completion` gets the
    /// text on Enter, nil on Esc. A second request replaces the first (which is cancelled).
    public func askNote(_ prompt: String, completion: @escaping (String?) -> Void) {
        let earlier = self.completion
        self.completion = completion
        earlier?(nil)
        gtk_entry_set_text(reel_gtk_entry(entry), "")
        gtk_entry_set_placeholder_text(reel_gtk_entry(entry), prompt)
        gtk_widget_show(entry)
        gtk_widget_grab_focus(entry)
    }

    /// The note entry is open (keys go to it).
    public var isTyping: Bool { completion != nil && gtk_widget_get_visible(entry) != 0 }

    private func finish(_ text: String?) {
        let completion = self.completion
        self.completion = nil
        gtk_widget_hide(entry)
        completion?(text)
    }

    public func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?) {
        if tag == Tag.activate.rawValue {
            let text = gtk_entry_get_text(reel_gtk_entry(entry)).map { String(cString: $0) } ?? ""
            finish(text)
        } else if let button = Button(rawValue: tag) {
            onButton(button)
        }
    }

    public func onEvent(_ tag: Int, _ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        guard tag == Tag.entryKey.rawValue, reel_event_keyval(event) == KeySym.escape else { return false }
        finish(nil)
        return true
    }
}
