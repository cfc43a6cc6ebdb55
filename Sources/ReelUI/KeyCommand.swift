/// What a key press means: an action for the app, or something the window does itself.
public enum KeyCommand: Sendable, Equatable {
    case action(UIAction)
    case openFilesDialog
    case openURLDialog
    case shortcutsWindow
}
