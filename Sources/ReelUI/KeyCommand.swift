/// What a key press means: an action for the app, or something the window does itself.
public enum KeyCommand: Sendable, Equatable {
    case action(UIAction)
    case openFilesDialog
    /// Ctrl+Shift+O: a folder, whose media files join the queue.
    case openFolderDialog
    case openURLDialog
    case shortcutsWindow
}
