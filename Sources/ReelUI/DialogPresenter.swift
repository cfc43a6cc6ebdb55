import CGtk
import ReelCore

/// The Ctrl+O "Open Files" chooser and the Ctrl+L "Open URL" prompt. Non-blocking: each answers
/// through the main loop and emits `.openFiles` / `.openURL`. It also keeps the preferences window.
@MainActor
final class DialogPresenter: SignalReceiver {
    var emit: (UIAction) -> Void = { _ in }
    private var dialog: UnsafeMutablePointer<GtkWidget>?
    private var entry: UnsafeMutablePointer<GtkWidget>?
    private(set) var openKind: String?
    /// Ctrl+, (`preferences`); nil until first opened.
    private var preferencesWindow: PreferencesWindow?

    /// The preferences window, opened with `p` (what is in force), or raised showing it.
    func preferences(parent: UnsafeMutablePointer<GtkWidget>, _ p: Preferences) {
        if let open = preferencesWindow, open.isOpen {
            open.render(p)
            open.present()
            return
        }
        let w = PreferencesWindow(parent: parent, preferences: p)
        w.emit = { [weak self] in self?.emit($0) }
        preferencesWindow = w
        w.present()
    }

    private enum Tag: Int { case files, url }

    func openFiles(parent: UnsafeMutablePointer<GtkWidget>) {
        presentChooser(reel_open_files_dialog(reel_gtk_window(parent), tr("Open Files"), tr("_Cancel"), tr("_Open"))!, kind: "open-files")
    }

    func openFolder(parent: UnsafeMutablePointer<GtkWidget>) {
        presentChooser(reel_open_folder_dialog(reel_gtk_window(parent), tr("Open Folder"), tr("_Cancel"), tr("_Open"))!, kind: "open-folder")
    }

    /// Shows a file chooser (files or a folder) whose answer is `openFiles`.
    private func presentChooser(_ d: UnsafeMutablePointer<GtkWidget>, kind: String) {
        closeAll()
        dialog = d
        openKind = kind
        SignalBridge.connectResponse(d, tag: Tag.files.rawValue, to: self)
        gtk_widget_show_all(d)
        gtk_window_present(reel_gtk_window(d))
    }

    func openURL(parent: UnsafeMutablePointer<GtkWidget>) {
        closeAll()
        let d = reel_dialog_new(reel_gtk_window(parent), tr("Open URL"), tr("_Cancel"), tr("_Open"))!
        let e = gtk_entry_new()!
        gtk_entry_set_activates_default(reel_gtk_entry(e), 1)
        gtk_entry_set_placeholder_text(reel_gtk_entry(e), "https://example.com/video.m3u8")
        gtk_entry_set_width_chars(reel_gtk_entry(e), 48)
        let area = gtk_dialog_get_content_area(reel_gtk_dialog(d))
        gtk_container_set_border_width(reel_gtk_container(area), 12)
        gtk_box_pack_start(reel_gtk_box(area), gtk_label_new(tr("Address of a video or stream:")), 0, 0, 4)
        gtk_box_pack_start(reel_gtk_box(area), e, 0, 0, 4)
        dialog = d
        entry = e
        openKind = "open-url"
        SignalBridge.connectResponse(d, tag: Tag.url.rawValue, to: self)
        gtk_widget_show_all(d)
        gtk_window_present(reel_gtk_window(d))
        gtk_widget_grab_focus(e)
    }

    func onResponse(_ tag: Int, dialog d: UnsafeMutableRawPointer?, response: Int32) {
        let accepted = response == reel_response_accept()
        var action: UIAction?
        if accepted, let dialog {
            switch Tag(rawValue: tag) {
            case .files:
                var paths: [String] = []
                var node = gtk_file_chooser_get_filenames(reel_gtk_file_chooser(dialog))
                let head = node
                while let n = node {
                    if let p = n.pointee.data { paths.append(String(cString: p.assumingMemoryBound(to: CChar.self))) }
                    node = n.pointee.next
                }
                g_slist_free_full(head, g_free)
                // A folder chooser with nothing selected in it means the folder it shows.
                if paths.isEmpty, openKind == "open-folder", let current = gtk_file_chooser_get_current_folder(reel_gtk_file_chooser(dialog)) {
                    paths = [String(cString: current)]
                    g_free(current)
                }
                if !paths.isEmpty { action = .openFiles(paths) }
            case .url:
                if let entry {
                    let text = String(cString: gtk_entry_get_text(reel_gtk_entry(entry))).trimmingCharacters(in: .whitespaces)
                    if !text.isEmpty { action = .openURL(text) }
                }
            case nil: break
            }
        }
        closeAll()
        if let action { emit(action) }
    }

    /// Answers the open dialog as a user would (tests).
    func answer(text: String?, files: [String], accept: Bool) {
        guard let dialog else { return }
        if let text, let entry { gtk_entry_set_text(reel_gtk_entry(entry), text) }
        for f in files {
            // A folder chooser answers with its current folder when nothing in it is selected.
            if openKind == "open-folder" {
                _ = gtk_file_chooser_set_current_folder(reel_gtk_file_chooser(dialog), f)
                UIRuntime.run(until: { gtk_file_chooser_get_current_folder(reel_gtk_file_chooser(dialog)).map { p in defer { g_free(p) }; return String(cString: p) == f } ?? false }, timeout: 2)
            }
            else { _ = gtk_file_chooser_select_filename(reel_gtk_file_chooser(dialog), f) }
        }
        gtk_dialog_response(reel_gtk_dialog(dialog), accept ? reel_response_accept() : -6)
    }

    func closeAll() {
        if let dialog { gtk_widget_destroy(dialog) }
        dialog = nil
        entry = nil
        openKind = nil
    }
}
