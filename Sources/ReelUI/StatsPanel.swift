import CGtk

/// mpv's stats (`i` for 5 s, `I` to keep them): the decoders, size and frame rate, frames,
/// bitrate, buffer and rendition, as lines in a panel above the video. A panel of the window,
/// not drawn into the picture: frame captures (`s`, `--screenshot-at`) never carry it; window
/// captures show it as the user sees it.
@MainActor
final class StatsPanel {
    let root: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>

    init() {
        root = gtk_event_box_new()
        gtk_widget_set_name(root, "reel-stats")
        label = gtk_label_new("")
        gtk_widget_set_name(label, "reel-stats-text")
        gtk_label_set_xalign(reel_gtk_label(label), 0)
        gtk_label_set_selectable(reel_gtk_label(label), 0)
        gtk_container_add(reel_gtk_container(root), label)
        gtk_widget_show(label)
    }

    func render(_ old: PlayerViewState, _ new: PlayerViewState, force: Bool) {
        guard force || old.stats != new.stats else { return }
        gtk_label_set_text(reel_gtk_label(label), (new.stats ?? []).joined(separator: "\n"))
        gtk_widget_set_visible(root, new.stats == nil ? 0 : 1)
    }

    var text: String? {
        guard gtk_widget_get_visible(root) != 0, let p = gtk_label_get_text(reel_gtk_label(label)) else { return nil }
        return String(cString: p)
    }
}
