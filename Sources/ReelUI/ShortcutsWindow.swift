import CGtk
import ReelCore

/// The "?" window: the user's own bindings (input.conf) first, then every default shortcut and
/// what it does (`KeyMap.help`). Esc or ? closes it.
@MainActor
final class ShortcutsWindow: SignalReceiver {
    private let second: SecondWindow

    private enum Tag: Int { case key, destroy }

    /// The rows shown, "keys — meaning".
    private(set) var rows: [String] = []

    init(parent: UnsafeMutablePointer<GtkWidget>, userBindings: [(keys: String, meaning: String)] = []) {
        second = SecondWindow(title: tr("Keyboard Shortcuts — Reel"), parent: parent, name: "reel-shortcuts")
        let w = second.widget!
        let grid = gtk_grid_new()!
        gtk_grid_set_row_spacing(reel_gtk_grid(grid), 4)
        gtk_grid_set_column_spacing(reel_gtk_grid(grid), 18)
        gtk_container_set_border_width(reel_gtk_container(grid), 16)
        let own = userBindings.isEmpty ? [] : [(tr("Your keys (input.conf)"), "")] + userBindings + [(tr("Reel's keys"), "")]
        for (row, entry) in (own + KeyMap.help).enumerated() {
            rows.append(entry.meaning.isEmpty ? entry.keys : "\(entry.keys) — \(entry.meaning)")
            let keys = gtk_label_new(entry.keys)!
            gtk_label_set_xalign(reel_gtk_label(keys), 1)
            gtk_style_context_add_class(gtk_widget_get_style_context(keys), "dim-label")
            let meaning = gtk_label_new(entry.meaning)!
            gtk_label_set_xalign(reel_gtk_label(meaning), 0)
            gtk_grid_attach(reel_gtk_grid(grid), keys, 0, Int32(row), 1, 1)
            gtk_grid_attach(reel_gtk_grid(grid), meaning, 1, Int32(row), 1, 1)
        }
        gtk_container_add(reel_gtk_container(w), grid)
        SignalBridge.connectEvent(w, "key-press-event", tag: Tag.key.rawValue, to: self)
        SignalBridge.connect(w, "destroy", tag: Tag.destroy.rawValue, to: self)
    }

    var isOpen: Bool { second.isOpen }
    func present() { second.present() }
    func close() { second.close() }

    func onEvent(_ tag: Int, _ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        let k = reel_event_keyval(event)
        if k == KeySym.escape || k == KeySym.question || k == KeySym.char("q") { close(); return true }
        return false
    }

    func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?) {
        if tag == Tag.destroy.rawValue { second.destroyed() }
    }
}
