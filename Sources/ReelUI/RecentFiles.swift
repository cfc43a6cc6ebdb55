import CGtk
import Foundation

/// The desktop's recent files (GtkRecentManager, `recently-used.xbel`), as Reel adds to and reads
/// them: what Reel opened shows in the desktop's own recent lists, and the window's "Open recent"
/// menu lists what Reel opened, newest first.
@MainActor
public final class RecentFiles {
    // Released in deinit (nonisolated); used only on the main thread otherwise.
    nonisolated(unsafe) private let manager: OpaquePointer

    /// `file` nil: the desktop's list; a path: that file (tests).
    public init(file: String? = nil) {
        manager = OpaquePointer(reel_recent_manager_new(file))
    }

    /// Adds `uri` (a file:// or http(s) URI that holds nothing secret: see `RecentRule`).
    public func add(_ uri: String, title: String, mimeType: String = "video/*") {
        _ = reel_recent_add(UnsafeMutablePointer(manager), uri, title, mimeType)
    }

    /// What Reel opened, newest first, at most `limit`.
    public func entries(limit: Int = 10) -> [PlayerViewState.RecentEntry] {
        guard let list = gtk_recent_manager_get_items(UnsafeMutablePointer(manager)) else { return [] }
        defer { g_list_free_full(list) { gtk_recent_info_unref(OpaquePointer($0)) } }
        var found: [(PlayerViewState.RecentEntry, Int)] = []
        var node: UnsafeMutablePointer<GList>? = list
        while let n = node {
            let info = OpaquePointer(n.pointee.data)
            if gtk_recent_info_has_application(info, "Reel") != 0, let uri = gtk_recent_info_get_uri(info) {
                let name = gtk_recent_info_get_display_name(info).map { String(cString: $0) } ?? String(cString: uri)
                found.append((PlayerViewState.RecentEntry(uri: String(cString: uri), title: name), Int(gtk_recent_info_get_modified(info))))
            }
            node = n.pointee.next
        }
        return found.sorted { $0.1 > $1.1 }.prefix(limit).map(\.0)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(manager))
    }
}
