import CGtk
import ReelCore

/// What the preferences window shows: the settings users change most, as reel.conf names them.
public struct Preferences: Equatable, Sendable {
    public var hardwareDecoding = true
    public var autoload = true
    public var resume = true
    public var audioLanguages = ""
    public var subtitleLanguages = ""
    public var subtitleScale = 1.0
    /// Percent, 100–150.
    public var volumeMax = 130.0
    public var metered: MeteredPolicy = .default
    /// Files opened while a Reel is open go to it (not `new-window`).
    public var oneWindow = true

    public init() {}
}

/// Preferences (Ctrl+, and the right-click menu): each setting applies as it is changed — a
/// `setPreference` with reel.conf's name and value, which the session writes to reel.conf and
/// applies at once where the player can (`hwdec`, `metered`, `sub-scale`, `volume-max`; the rest
/// from the next item or the next Reel, as each row says). Every row has a mnemonic (Alt+H …).
@MainActor
final class PreferencesWindow: SignalReceiver {
    private let second: SecondWindow
    var emit: (UIAction) -> Void = { _ in }
    private var shown = Preferences()
    private var rendering = false
    private var widgets: [Row: UnsafeMutablePointer<GtkWidget>] = [:]

    private enum Row: Int, CaseIterable { case hwdec, autoload, resume, alang, slang, subScale, volumeMax, metered, oneWindow, destroy, key }

    init(parent: UnsafeMutablePointer<GtkWidget>, preferences: Preferences) {
        second = SecondWindow(title: tr("Preferences — Reel"), parent: parent, name: "reel-preferences")
        let w = second.widget!
        gtk_window_set_resizable(reel_gtk_window(w), 0)
        let grid = gtk_grid_new()!
        gtk_grid_set_row_spacing(reel_gtk_grid(grid), 8)
        gtk_grid_set_column_spacing(reel_gtk_grid(grid), 12)
        gtk_container_set_border_width(reel_gtk_container(grid), 18)
        var line: Int32 = 0
        func attach(_ label: UnsafeMutablePointer<GtkWidget>?, _ widget: UnsafeMutablePointer<GtkWidget>, note: String? = nil) {
            if let label {
                gtk_label_set_xalign(reel_gtk_label(label), 1)
                gtk_grid_attach(reel_gtk_grid(grid), label, 0, line, 1, 1)
                gtk_label_set_mnemonic_widget(reel_gtk_label(label), widget)
                gtk_grid_attach(reel_gtk_grid(grid), widget, 1, line, 1, 1)
            } else {
                gtk_grid_attach(reel_gtk_grid(grid), widget, 0, line, 2, 1)
            }
            if let note {
                gtk_widget_set_tooltip_text(widget, note)
            }
            line += 1
        }
        func check(_ row: Row, _ text: String, _ note: String) {
            let b = gtk_check_button_new_with_mnemonic(text)!
            gtk_widget_set_name(b, "reel-pref-\(row)")
            attach(nil, b, note: note)
            widgets[row] = b
            SignalBridge.connect(b, "toggled", tag: row.rawValue, to: self)
        }
        func entry(_ row: Row, _ text: String, _ note: String) {
            let e = gtk_entry_new()!
            gtk_entry_set_placeholder_text(reel_gtk_entry(e), "fr,en")
            gtk_entry_set_width_chars(reel_gtk_entry(e), 16)
            gtk_widget_set_name(e, "reel-pref-\(row)")
            attach(gtk_label_new_with_mnemonic(text), e, note: note)
            AccessibleNames.name(e, text.replacingOccurrences(of: "_", with: ""))
            widgets[row] = e
            SignalBridge.connect(e, "changed", tag: row.rawValue, to: self)
        }
        func spin(_ row: Row, _ text: String, _ range: ClosedRange<Double>, step: Double, digits: UInt32, _ note: String) {
            let s = gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step)!
            gtk_spin_button_set_digits(reel_gtk_spin_button(s), digits)
            gtk_widget_set_name(s, "reel-pref-\(row)")
            attach(gtk_label_new_with_mnemonic(text), s, note: note)
            AccessibleNames.name(s, text.replacingOccurrences(of: "_", with: ""))
            widgets[row] = s
            SignalBridge.connect(s, "value-changed", tag: row.rawValue, to: self)
        }
        check(.hwdec, tr("_Hardware decoding"), tr("Decode video on the graphics card where it can (from the next item)."))
        check(.autoload, tr("Play the _folder's other files after one opened"), tr("From the next file opened."))
        check(.resume, tr("_Resume files where they were left"), tr("With their tracks, delays and speed (from the next item)."))
        entry(.alang, tr("Preferred _audio languages:"), tr("Language codes, most wanted first (from the next item)."))
        entry(.slang, tr("Preferred _subtitle languages:"), tr("Language codes, most wanted first (from the next item)."))
        spin(.subScale, tr("Subtitle si_ze:"), SubtitleStyle.scaleRange, step: 0.1, digits: 1, tr("A factor of the usual size."))
        spin(.volumeMax, tr("Loudest _volume (%):"), 100...150, step: 5, digits: 0, tr("How far the volume goes above 100 %."))
        let metered = gtk_combo_box_text_new()!
        for (_, label) in VideoMenu.labels { gtk_combo_box_text_append_text(reel_gtk_combo_box_text(metered), label) }
        gtk_widget_set_name(metered, "reel-pref-metered")
        attach(gtk_label_new_with_mnemonic(tr("_Metered networks:")), metered, note: nil)
        AccessibleNames.name(metered, tr("Metered networks"))
        widgets[.metered] = metered
        SignalBridge.connect(metered, "changed", tag: Row.metered.rawValue, to: self)
        check(.oneWindow, tr("Open files in the _window already open"), tr("Off: every file opened starts a Reel of its own (from the next Reel)."))
        gtk_container_add(reel_gtk_container(w), grid)
        SignalBridge.connectEvent(w, "key-press-event", tag: Row.key.rawValue, to: self)
        SignalBridge.connect(w, "destroy", tag: Row.destroy.rawValue, to: self)
        render(preferences)
    }

    var isOpen: Bool { second.isOpen }
    func present() { second.present() }
    func close() { second.close() }

    /// Shows `p` without emitting anything.
    func render(_ p: Preferences) {
        shown = p
        rendering = true
        defer { rendering = false }
        for (row, on) in [(Row.hwdec, p.hardwareDecoding), (.autoload, p.autoload), (.resume, p.resume), (.oneWindow, p.oneWindow)] {
            if let b = widgets[row] { gtk_toggle_button_set_active(reel_gtk_toggle_button(b), on ? 1 : 0) }
        }
        for (row, text) in [(Row.alang, p.audioLanguages), (.slang, p.subtitleLanguages)] {
            if let e = widgets[row], String(cString: gtk_entry_get_text(reel_gtk_entry(e))) != text { gtk_entry_set_text(reel_gtk_entry(e), text) }
        }
        if let s = widgets[.subScale] { gtk_spin_button_set_value(reel_gtk_spin_button(s), p.subtitleScale) }
        if let s = widgets[.volumeMax] { gtk_spin_button_set_value(reel_gtk_spin_button(s), p.volumeMax) }
        if let m = widgets[.metered], let i = VideoMenu.labels.firstIndex(where: { $0.0 == p.metered }) { gtk_combo_box_set_active(reel_gtk_combo_box(m), Int32(i)) }
    }

    func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?) {
        guard let row = Row(rawValue: tag) else { return }
        if row == .destroy { second.destroyed(); return }
        guard !rendering, let w = widgets[row] else { return }
        func on() -> Bool { gtk_toggle_button_get_active(reel_gtk_toggle_button(w)) != 0 }
        func text() -> String { String(cString: gtk_entry_get_text(reel_gtk_entry(w))).trimmingCharacters(in: .whitespaces) }
        func number() -> Double { gtk_spin_button_get_value(reel_gtk_spin_button(w)) }
        func yesNo(_ b: Bool) -> String { b ? "yes" : "no" }
        let change: (key: String, value: String)? = switch row {
        case .hwdec: ("hwdec", on() ? "auto" : "no")
        case .autoload: ("autoload", yesNo(on()))
        case .resume: ("resume", yesNo(on()))
        case .alang: ("alang", text())
        case .slang: ("slang", text())
        case .subScale: ("sub-scale", String(format: "%.1f", number()))
        case .volumeMax: ("volume-max", String(format: "%.0f", number()))
        case .metered:
            VideoMenu.labels.indices.contains(Int(gtk_combo_box_get_active(reel_gtk_combo_box(w))))
                ? ("metered", VideoMenu.labels[Int(gtk_combo_box_get_active(reel_gtk_combo_box(w)))].0.rawValue) : nil
        case .oneWindow: ("new-window", yesNo(!on()))
        case .destroy, .key: nil
        }
        if let change { emit(.setPreference(key: change.key, value: change.value)) }
    }

    func onEvent(_ tag: Int, _ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        if reel_event_keyval(event) == KeySym.escape { close(); return true }
        return false
    }
}
