import CGtk
import Foundation
import ReelCore

/// The frame shown above the seek bar while the pointer hovers it (issue 48): a non-modal popover
/// pointing at the pointer, with the frame and its time. The frames come from the app
/// (`PlayerWindow.onSeekHover` asks, `showSeekPreview` shows); this only places and draws them.
@MainActor
final class SeekPreviewPopover {
    private let popover: UnsafeMutablePointer<GtkWidget>
    private let image: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    /// Where the pointer is over the bar (its x in the bar), for the next frame.
    var pointerX = 0
    /// Whether the pointer is over the bar (a frame that comes after it left is not shown).
    var isHovering = false

    init(relativeTo seek: UnsafeMutablePointer<GtkWidget>) {
        popover = gtk_popover_new(seek)
        gtk_popover_set_modal(reel_gtk_popover(popover), 0)
        gtk_popover_set_position(reel_gtk_popover(popover), GTK_POS_TOP)
        reel_popover_no_transitions(popover)
        gtk_widget_set_name(popover, "reel-seek-preview")
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        image = gtk_image_new()
        label = gtk_label_new("")
        gtk_box_pack_start(reel_gtk_box(box), image, 0, 0, 0)
        gtk_box_pack_start(reel_gtk_box(box), label, 0, 0, 0)
        gtk_container_add(reel_gtk_container(popover), box)
        gtk_widget_show_all(box)
        AccessibleNames.name(popover, tr("Preview"))
    }

    /// Shows an RGB frame (`stride` bytes a row) with its time, pointing at the pointer.
    func show(rgb: Data, width: Int, height: Int, stride: Int, time: String) {
        guard isHovering, width > 0, height > 0, rgb.count >= stride * height else { return }
        let bytes = rgb.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize(stride * height)) }
        guard let pixbuf = gdk_pixbuf_new_from_bytes(bytes, GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height), Int32(stride)) else {
            g_bytes_unref(bytes)
            return
        }
        g_bytes_unref(bytes)
        gtk_image_set_from_pixbuf(reel_gtk_image(image), pixbuf)
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        gtk_label_set_text(reel_gtk_label(label), time)
        var rect = GdkRectangle(x: Int32(pointerX), y: 0, width: 1, height: 1)
        gtk_popover_set_pointing_to(reel_gtk_popover(popover), &rect)
        gtk_widget_show(popover)
    }

    func hide() {
        isHovering = false
        gtk_widget_hide(popover)
    }

    /// Shown now (for tests).
    var isShown: Bool { gtk_widget_get_visible(popover) != 0 }
    /// The frame's size as shown (for tests).
    var shownSize: (Int, Int)? {
        guard let pb = gtk_image_get_pixbuf(reel_gtk_image(image)) else { return nil }
        return (Int(gdk_pixbuf_get_width(pb)), Int(gdk_pixbuf_get_height(pb)))
    }
}
