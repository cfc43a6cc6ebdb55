import CGtk
import ReelCore

/// The window's keys beyond its defaults: the user's bindings (input.conf), asked first for every
/// key press, and the `?` window that lists them with the defaults. The app sets `handle` and
/// `listing`; the window asks `handle` before `KeyMap` and opens the list here.
@MainActor
public final class UserKeys {
    /// Asked first for every key press: true when the user's bindings took the key.
    public var handle: ((UInt32, KeyModifiers) -> Bool)?
    /// Asked first for every click and wheel step over the video (input.conf's MBTN_…, WHEEL_…):
    /// true when the user's bindings took it.
    public var handleMouse: ((KeyChord) -> Bool)?
    /// The bindings in force, listed first in the `?` window.
    public var listing: [(keys: String, meaning: String)] = []
    private var shortcuts: ShortcutsWindow?

    init() {}

    /// Opens the `?` window (once: a second `?` brings it forward).
    func presentShortcuts(parent: UnsafeMutablePointer<GtkWidget>) {
        if shortcuts == nil || shortcuts?.isOpen == false { shortcuts = ShortcutsWindow(parent: parent, userBindings: listing) }
        shortcuts?.present()
    }

    func closeShortcuts() { shortcuts?.close() }

    var isShortcutsOpen: Bool { shortcuts?.isOpen ?? false }
    /// The `?` window's rows as shown, nil while it is closed.
    var shortcutsRows: [String]? { isShortcutsOpen ? shortcuts?.rows : nil }
}
