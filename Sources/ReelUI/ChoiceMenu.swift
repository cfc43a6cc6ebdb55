import CGtk
import ReelCore

/// A control-bar menu of choices: a button that says what is chosen and a popover of radio
/// entries in sections (one choice per section), drawn inside the window (a popover, not a menu
/// window), so window screenshots show it open. The quality menu (Auto, then the renditions) and
/// the tracks menu (audio, subtitles) are two of these. Hidden when it has no entries.
@MainActor
final class ChoiceMenu: SignalReceiver {
    /// A section: its heading (none for a single list) and its entries.
    struct Section: Equatable {
        var heading: String?
        var entries: [QualityEntry]
    }

    let button: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let popover: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private var radios: [(entry: QualityEntry, widget: UnsafeMutablePointer<GtkWidget>)] = []
    private var headings: [UnsafeMutablePointer<GtkWidget>] = []
    private var shown: [Section] = []
    private var chosen: Set<String> = []
    /// Set while the menu itself changes the radios, so that a toggle is not an action.
    private var rendering = false
    /// The action for an entry's choice.
    private let action: (String) -> UIAction
    var emit: (UIAction) -> Void = { _ in }

    init(name: String, tooltip: String, label text: String, action: @escaping (String) -> UIAction) {
        self.action = action
        button = gtk_menu_button_new()
        label = gtk_label_new(text)
        gtk_container_add(reel_gtk_container(button), label)
        gtk_button_set_relief(reel_gtk_button(button), GTK_RELIEF_NONE)
        KeyboardFocus.reachable(button)
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(button, tooltip)
        gtk_widget_set_name(button, name)
        AccessibleNames.name(button, tooltip)
        gtk_widget_show(label)
        popover = gtk_popover_new(button)
        list = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)
        gtk_container_set_border_width(reel_gtk_container(list), 6)
        gtk_container_add(reel_gtk_container(popover), list)
        gtk_widget_show(list)
        gtk_menu_button_set_popover(OpaquePointer(button).map { UnsafeMutablePointer<GtkMenuButton>($0) }, popover)
        gtk_widget_set_no_show_all(button, 1)
    }

    /// One list without a heading (the quality menu).
    func render(entries: [QualityEntry], choice: String, label text: String) {
        render(sections: entries.isEmpty ? [] : [Section(entries: entries)], chosen: [choice], label: text)
    }

    /// Shows the sections, the chosen entries and the label; hides the button when there are no
    /// entries.
    func render(sections: [Section], chosen choices: Set<String>, label text: String) {
        rendering = true
        defer { rendering = false }
        if sections != shown {
            shown = sections
            for (_, widget) in radios { gtk_widget_destroy(widget) }
            for widget in headings { gtk_widget_destroy(widget) }
            radios.removeAll()
            headings.removeAll()
            for section in sections {
                if let heading = section.heading {
                    let title = gtk_label_new(nil)!
                    gtk_label_set_markup(reel_gtk_label(title), "<b>\(heading)</b>")
                    gtk_widget_set_halign(title, GTK_ALIGN_START)
                    gtk_box_pack_start(reel_gtk_box(list), title, 0, 0, 2)
                    gtk_widget_show(title)
                    headings.append(title)
                }
                var group: UnsafeMutablePointer<GtkWidget>?
                for entry in section.entries {
                    let radio = gtk_radio_button_new_with_label_from_widget(OpaquePointer(group).map { UnsafeMutablePointer<GtkRadioButton>($0) }, entry.label)!
                    group = radio
                    gtk_widget_set_can_focus(radio, 0)
                    gtk_box_pack_start(reel_gtk_box(list), radio, 0, 0, 0)
                    gtk_widget_show(radio)
                    SignalBridge.connect(radio, "toggled", tag: radios.count, to: self)
                    radios.append((entry, radio))
                }
            }
            chosen = []
        }
        if chosen != choices {
            chosen = choices
            for (entry, radio) in radios where choices.contains(entry.choice) {
                gtk_toggle_button_set_active(OpaquePointer(radio).map { UnsafeMutablePointer<GtkToggleButton>($0) }, 1)
            }
        }
        QuietUpdates.setText(label, text)
        if radios.isEmpty { gtk_widget_hide(button) } else { gtk_widget_show(button) }
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
              !chosen.contains(entry.choice) else { return }
        chosen.insert(entry.choice)
        emit(action(entry.choice))
        gtk_popover_popdown(OpaquePointer(popover).map { UnsafeMutablePointer<GtkPopover>($0) })
    }
}
