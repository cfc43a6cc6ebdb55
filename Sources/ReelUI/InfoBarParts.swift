import CGtk

/// A GtkInfoBar with a label and one button, as the window's banners have it (`ErrorBanner`,
/// `ResumeNotice`): hidden until shown (no_show_all), the label left-aligned.
@MainActor
struct InfoBarParts {
    let root: UnsafeMutablePointer<GtkWidget>
    let label: UnsafeMutablePointer<GtkWidget>
    let button: UnsafeMutablePointer<GtkWidget>

    init(type: GtkMessageType, labelName: String?, button title: String, buttonName: String) {
        root = gtk_info_bar_new()
        gtk_info_bar_set_message_type(OpaquePointer(root).map { UnsafeMutablePointer<GtkInfoBar>($0) }, type)
        label = gtk_label_new("")
        gtk_label_set_xalign(reel_gtk_label(label), 0)
        if let labelName { gtk_widget_set_name(label, labelName) }
        let content = gtk_info_bar_get_content_area(OpaquePointer(root).map { UnsafeMutablePointer<GtkInfoBar>($0) })
        gtk_container_add(reel_gtk_container(content), label)
        button = gtk_button_new_with_label(title)
        gtk_widget_set_name(button, buttonName)
        gtk_container_add(reel_gtk_container(content), button)
        gtk_widget_set_no_show_all(root, 1)
        gtk_widget_show(label)
    }

    /// The label's text while the bar is shown.
    var text: String? { gtk_widget_get_visible(root) != 0 ? String(cString: gtk_label_get_text(reel_gtk_label(label))) : nil }

    func click() { gtk_button_clicked(OpaquePointer(button).map { UnsafeMutablePointer<GtkButton>($0) }) }
}
