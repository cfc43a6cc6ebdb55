import CGtk

/// What a screen reader (Orca, through AT-SPI) says of a control: its name, and for a slider or a
/// button whose meaning changes its description. An icon-only button has no name of its own (GTK
/// names some from their icons, not all), so every control gets one here.
@MainActor
enum AccessibleNames {
    static func name(_ widget: UnsafeMutablePointer<GtkWidget>, _ name: String) {
        guard let accessible = gtk_widget_get_accessible(widget) else { return }
        if let current = atk_object_get_name(accessible), String(cString: current) == name { return }
        atk_object_set_name(accessible, name)
    }

    static func describe(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        guard let accessible = gtk_widget_get_accessible(widget) else { return }
        if let current = atk_object_get_description(accessible), String(cString: current) == text { return }
        atk_object_set_description(accessible, text)
    }
}
