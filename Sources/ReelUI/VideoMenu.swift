import CGtk
import ReelCore

/// The video area's context menu (right click): settings that do not earn a place in the control
/// bar: the metered-network policy ("On metered connections: Allow / Lower quality / Don't
/// play"), the window's setting for `--metered`, and "Hardware decoding" (`--hwdec`, from the
/// next item).
@MainActor
final class VideoMenu: SignalReceiver {
    let menu: UnsafeMutablePointer<GtkWidget>
    private var items: [(MeteredPolicy, UnsafeMutablePointer<GtkWidget>)] = []
    private var shown: MeteredPolicy = .default
    var emit: (UIAction) -> Void = { _ in }

    static let labels: [(MeteredPolicy, String)] = [
        (.allow, tr("On metered connections: play as usual")),
        (.cap, tr("On metered connections: lowest quality")),
        (.block, tr("On metered connections: don't play")),
    ]

    init() {
        menu = gtk_menu_new()
        gtk_widget_set_name(menu, "reel-video-menu")
        var group: UnsafeMutablePointer<GSList>?
        for (policy, label) in Self.labels {
            let item = gtk_radio_menu_item_new_with_label(group, label)!
            group = gtk_radio_menu_item_get_group(OpaquePointer(item).map { UnsafeMutablePointer<GtkRadioMenuItem>($0) })
            gtk_menu_shell_append(OpaquePointer(menu).map { UnsafeMutablePointer<GtkMenuShell>($0) }, item)
            gtk_widget_show(item)
            items.append((policy, item))
        }
        for (index, (_, item)) in items.enumerated() { SignalBridge.connect(item, "toggled", tag: index, to: self) }
        hwdecItem = gtk_check_menu_item_new_with_label(tr("Hardware decoding (from the next item)"))
        gtk_widget_set_name(hwdecItem, "reel-hwdec")
        gtk_menu_shell_append(OpaquePointer(menu).map { UnsafeMutablePointer<GtkMenuShell>($0) }, hwdecItem)
        gtk_widget_show(hwdecItem)
        SignalBridge.connect(hwdecItem, "toggled", tag: Self.hwdecTag, to: self)
        let separator = gtk_separator_menu_item_new()!
        gtk_menu_shell_append(OpaquePointer(menu).map { UnsafeMutablePointer<GtkMenuShell>($0) }, separator)
        gtk_widget_show(separator)
        recentItem = gtk_menu_item_new_with_label(tr("Open recent"))
        gtk_widget_set_name(recentItem, "reel-recent")
        gtk_menu_shell_append(OpaquePointer(menu).map { UnsafeMutablePointer<GtkMenuShell>($0) }, recentItem)
        gtk_widget_show(recentItem)
        outputItem = gtk_menu_item_new_with_label(tr("Sound output"))
        gtk_widget_set_name(outputItem, "reel-sound-output")
        gtk_menu_shell_append(OpaquePointer(menu).map { UnsafeMutablePointer<GtkMenuShell>($0) }, outputItem)
        gtk_widget_show(outputItem)
        let preferences = gtk_menu_item_new_with_label(tr("Preferences…"))!
        gtk_widget_set_name(preferences, "reel-preferences-item")
        gtk_menu_shell_append(OpaquePointer(menu).map { UnsafeMutablePointer<GtkMenuShell>($0) }, preferences)
        gtk_widget_show(preferences)
        SignalBridge.connect(preferences, "activate", tag: Self.preferencesTag, to: self)
        forgetItem = gtk_menu_item_new_with_label(tr("Forget this file (its place, tracks and speed)"))
        gtk_widget_set_name(forgetItem, "reel-forget")
        gtk_menu_shell_append(OpaquePointer(menu).map { UnsafeMutablePointer<GtkMenuShell>($0) }, forgetItem)
        gtk_widget_show(forgetItem)
        SignalBridge.connect(forgetItem, "activate", tag: Self.forgetTag, to: self)
        render(.default)
        renderRecent([])
        renderOutputs([], current: "auto")
    }

    private var recentItem: UnsafeMutablePointer<GtkWidget>!
    private var forgetItem: UnsafeMutablePointer<GtkWidget>!
    private var outputItem: UnsafeMutablePointer<GtkWidget>!
    private var outputs: [PlayerViewState.AudioOutputEntry] = []
    private var shownOutput = "auto"
    private var outputButtons: [UnsafeMutablePointer<GtkWidget>] = []
    private static let outputTagBase = 2000

    /// "Sound output": a radio item per output ("Autoselect device" first), the one in force checked.
    func renderOutputs(_ entries: [PlayerViewState.AudioOutputEntry], current: String) {
        shownOutput = current
        guard entries != outputs || outputButtons.isEmpty else {
            for (i, e) in outputs.enumerated() where (e.name == current) != checked(outputButtons[i]) && e.name == current {
                gtk_check_menu_item_set_active(OpaquePointer(outputButtons[i]).map { UnsafeMutablePointer<GtkCheckMenuItem>($0) }, 1)
            }
            return
        }
        outputs = entries
        outputButtons = []
        let submenu = gtk_menu_new()!
        var group: UnsafeMutablePointer<GSList>?
        for (index, entry) in entries.enumerated() {
            let item = gtk_radio_menu_item_new_with_label(group, entry.name == "auto" ? tr("The system's default") : entry.description)!
            group = gtk_radio_menu_item_get_group(OpaquePointer(item).map { UnsafeMutablePointer<GtkRadioMenuItem>($0) })
            if entry.name == current { gtk_check_menu_item_set_active(OpaquePointer(item).map { UnsafeMutablePointer<GtkCheckMenuItem>($0) }, 1) }
            gtk_menu_shell_append(OpaquePointer(submenu).map { UnsafeMutablePointer<GtkMenuShell>($0) }, item)
            gtk_widget_show(item)
            SignalBridge.connect(item, "toggled", tag: Self.outputTagBase + index, to: self)
            outputButtons.append(item)
        }
        gtk_menu_item_set_submenu(OpaquePointer(outputItem).map { UnsafeMutablePointer<GtkMenuItem>($0) }, submenu)
        gtk_widget_set_sensitive(outputItem, entries.count > 1 ? 1 : 0)
    }

    /// The outputs "Sound output" lists, by description, and the one checked.
    var outputLabels: (labels: [String], checked: String?) {
        (outputs.map(\.description), outputs.indices.first { checked(outputButtons[$0]) }.map { outputs[$0].name })
    }

    /// Chooses an output as a click on it does.
    func chooseOutput(_ name: String) {
        guard let i = outputs.firstIndex(where: { $0.name == name }) else { return }
        gtk_menu_item_activate(OpaquePointer(outputButtons[i]).map { UnsafeMutablePointer<GtkMenuItem>($0) })
    }
    private static let forgetTag = 901
    private static let preferencesTag = 902

    /// "Forget this file" can be used (an item plays and the resume book is kept).
    func renderForget(_ possible: Bool) { gtk_widget_set_sensitive(forgetItem, possible ? 1 : 0) }

    /// Chooses "Forget this file" as a click on it does.
    func forgetFile() { gtk_menu_item_activate(OpaquePointer(forgetItem).map { UnsafeMutablePointer<GtkMenuItem>($0) }) }
    private var hwdecItem: UnsafeMutablePointer<GtkWidget>!
    private var shownHardwareDecoding: HardwareDecodingMode = .auto
    private static let hwdecTag = 900

    /// Shows the hardware decoding mode in force (without emitting anything).
    func render(_ mode: HardwareDecodingMode) {
        shownHardwareDecoding = mode
        let active = mode == .auto
        if checked(hwdecItem) != active {
            gtk_check_menu_item_set_active(OpaquePointer(hwdecItem).map { UnsafeMutablePointer<GtkCheckMenuItem>($0) }, active ? 1 : 0)
        }
    }

    /// Whether "Hardware decoding" is checked.
    var hardwareDecodingChecked: Bool { checked(hwdecItem) }

    /// Toggles "Hardware decoding" as a click on it does.
    func toggleHardwareDecoding() { gtk_menu_item_activate(OpaquePointer(hwdecItem).map { UnsafeMutablePointer<GtkMenuItem>($0) }) }
    private var recentEntries: [PlayerViewState.RecentEntry] = []
    private static let recentTagBase = 1000

    /// Lists what Reel opened lately under "Open recent" (insensitive while empty).
    func renderRecent(_ entries: [PlayerViewState.RecentEntry]) {
        recentEntries = entries
        let submenu = gtk_menu_new()!
        for (index, entry) in entries.enumerated() {
            let item = gtk_menu_item_new_with_label(entry.title)!
            gtk_widget_set_tooltip_text(item, entry.uri)
            gtk_menu_shell_append(OpaquePointer(submenu).map { UnsafeMutablePointer<GtkMenuShell>($0) }, item)
            gtk_widget_show(item)
            SignalBridge.connect(item, "activate", tag: Self.recentTagBase + index, to: self)
        }
        gtk_menu_item_set_submenu(OpaquePointer(recentItem).map { UnsafeMutablePointer<GtkMenuItem>($0) }, submenu)
        gtk_widget_set_sensitive(recentItem, entries.isEmpty ? 0 : 1)
    }

    /// The titles under "Open recent", in order.
    var recentTitles: [String] { recentEntries.map(\.title) }

    /// Opens a recent entry as a click on it does.
    func chooseRecent(at index: Int) {
        guard recentEntries.indices.contains(index) else { return }
        onSignal(Self.recentTagBase + index, instance: nil)
    }

    /// Shows the policy in force (without emitting anything).
    func render(_ policy: MeteredPolicy) {
        shown = policy
        for (p, item) in items where p == policy && checked(item) == false {
            gtk_check_menu_item_set_active(OpaquePointer(item).map { UnsafeMutablePointer<GtkCheckMenuItem>($0) }, 1)
        }
    }

    /// The policy whose item is checked.
    var checkedPolicy: MeteredPolicy? { items.first { checked($0.1) }?.0 }

    /// Chooses a policy as a click on its item does.
    func choose(_ policy: MeteredPolicy) {
        guard let item = items.first(where: { $0.0 == policy })?.1 else { return }
        gtk_menu_item_activate(OpaquePointer(item).map { UnsafeMutablePointer<GtkMenuItem>($0) })
    }

    func popUp(at event: UnsafeMutablePointer<GdkEvent>) {
        gtk_menu_popup_at_pointer(OpaquePointer(menu).map { UnsafeMutablePointer<GtkMenu>($0) }, event)
    }

    private func checked(_ item: UnsafeMutablePointer<GtkWidget>) -> Bool {
        gtk_check_menu_item_get_active(OpaquePointer(item).map { UnsafeMutablePointer<GtkCheckMenuItem>($0) }) != 0
    }

    func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?) {
        if tag >= Self.outputTagBase {
            let index = tag - Self.outputTagBase
            if outputs.indices.contains(index), checked(outputButtons[index]), outputs[index].name != shownOutput { emit(.setAudioOutput(outputs[index].name)) }
            return
        }
        if tag >= Self.recentTagBase {
            let index = tag - Self.recentTagBase
            if recentEntries.indices.contains(index) { emit(.openURL(recentEntries[index].uri)) }
            return
        }
        if tag == Self.forgetTag {
            emit(.forgetFile)
            return
        }
        if tag == Self.preferencesTag {
            emit(.openPreferences)
            return
        }
        if tag == Self.hwdecTag {
            let mode: HardwareDecodingMode = checked(hwdecItem) ? .auto : .no
            if mode != shownHardwareDecoding { emit(.setHardwareDecoding(mode)) }
            return
        }
        guard items.indices.contains(tag), checked(items[tag].1), items[tag].0 != shown else { return }
        emit(.setMeteredPolicy(items[tag].0))
    }
}
