import CGtk
import ReelCore

/// The control bar's quality menu: a button that says what plays ("Auto · 720p", "720p") and a
/// popover of radio entries (Auto, then each rendition from the tallest down). Shown only for
/// adaptive streams. Drawn inside the window (a popover, not a menu window), so window
/// screenshots show it open.
@MainActor
final class QualityMenu: SignalReceiver {
    let button: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let popover: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private var radios: [(entry: QualityEntry, widget: UnsafeMutablePointer<GtkWidget>)] = []
    private var shown: [QualityEntry] = []
    private var chosen = "auto"
    /// Set while the menu itself changes the radios, so that a toggle is not an action.
    private var rendering = false
    var emit: (UIAction) -> Void = { _ in }

    init() {
        button = gtk_menu_button_new()
        label = gtk_label_new("Auto")
        gtk_container_add(reel_gtk_container(button), label)
        gtk_button_set_relief(reel_gtk_button(button), GTK_RELIEF_NONE)
        gtk_widget_set_can_focus(button, 0)
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(button, "Quality")
        gtk_widget_set_name(button, "reel-quality")
        gtk_widget_show(label)
        popover = gtk_popover_new(button)
        list = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)
        gtk_container_set_border_width(reel_gtk_container(list), 6)
        gtk_container_add(reel_gtk_container(popover), list)
        gtk_widget_show(list)
        gtk_menu_button_set_popover(OpaquePointer(button).map { UnsafeMutablePointer<GtkMenuButton>($0) }, popover)
        gtk_widget_set_no_show_all(button, 1)
    }

    /// Shows the state's entries, choice and label; hides the button when there are no entries.
    func render(entries: [QualityEntry], choice: String, label text: String) {
        rendering = true
        defer { rendering = false }
        if entries != shown {
            shown = entries
            for (_, widget) in radios { gtk_widget_destroy(widget) }
            radios.removeAll()
            var group: UnsafeMutablePointer<GtkWidget>?
            for entry in entries {
                let radio = gtk_radio_button_new_with_label_from_widget(OpaquePointer(group).map { UnsafeMutablePointer<GtkRadioButton>($0) }, entry.label)!
                group = radio
                gtk_widget_set_can_focus(radio, 0)
                gtk_box_pack_start(reel_gtk_box(list), radio, 0, 0, 0)
                gtk_widget_show(radio)
                SignalBridge.connect(radio, "toggled", tag: radios.count, to: self)
                radios.append((entry, radio))
            }
            chosen = ""
        }
        if chosen != choice, let radio = radios.first(where: { $0.entry.choice == choice })?.widget {
            chosen = choice
            gtk_toggle_button_set_active(OpaquePointer(radio).map { UnsafeMutablePointer<GtkToggleButton>($0) }, 1)
        }
        gtk_label_set_text(reel_gtk_label(label), text)
        if entries.isEmpty { gtk_widget_hide(button) } else { gtk_widget_show(button) }
    }

    /// Opens or closes the popover (as a click on the button does).
    func setOpen(_ open: Bool) {
        gtk_toggle_button_set_active(OpaquePointer(button).map { UnsafeMutablePointer<GtkToggleButton>($0) }, open ? 1 : 0)
    }

    var isVisible: Bool { gtk_widget_get_visible(button) != 0 }
    var buttonText: String { String(cString: gtk_label_get_text(reel_gtk_label(label))) }
    var entryLabels: [String] { radios.map(\.entry.label) }

    /// Chooses an entry as a click on it does.
    func choose(_ choice: String) {
        guard let radio = radios.first(where: { $0.entry.choice == choice })?.widget else { return }
        gtk_button_clicked(reel_gtk_button(radio))
    }

    func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?) {
        guard !rendering, radios.indices.contains(tag) else { return }
        let (entry, widget) = radios[tag]
        guard gtk_toggle_button_get_active(OpaquePointer(widget).map { UnsafeMutablePointer<GtkToggleButton>($0) }) != 0,
              entry.choice != chosen else { return }
        chosen = entry.choice
        emit(.setQuality(entry.choice))
        gtk_popover_popdown(OpaquePointer(popover).map { UnsafeMutablePointer<GtkPopover>($0) })
    }
}
