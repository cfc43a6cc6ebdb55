import CGtk
import ReelCore

/// The controls under the video: a seek row (`SeekRow`: elapsed, seek bar, total, and the LIVE
/// badge of a live item) and a button row
/// (previous, back, play/pause, forward, next, spinner · mute, volume, speed, quality, playlist, fullscreen).
/// Renders a `PlayerViewState`; emits `UIAction`s.
@MainActor
final class ControlBar: SignalReceiver {
    let root: UnsafeMutablePointer<GtkWidget>
    var emit: (UIAction) -> Void = { _ in }

    /// Elapsed, the seek bar, total and the LIVE badge, with the bar's drag.
    let seekRow = SeekRow()
    private let previous: UnsafeMutablePointer<GtkWidget>
    private let back: UnsafeMutablePointer<GtkWidget>
    private let playPause: UnsafeMutablePointer<GtkWidget>
    private let forward: UnsafeMutablePointer<GtkWidget>
    private let next: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let mute: UnsafeMutablePointer<GtkWidget>
    private let volume: UnsafeMutablePointer<GtkWidget>
    private let speed: UnsafeMutablePointer<GtkWidget>
    private let playlist: UnsafeMutablePointer<GtkWidget>
    private let fullscreen: UnsafeMutablePointer<GtkWidget>
    /// The quality menu (adaptive streams only) and the tracks menu (audio and subtitle tracks).
    let quality = ChoiceMenu(name: "reel-quality", tooltip: tr("Quality"), label: tr("Auto")) { .setQuality($0) }
    let tracks = ChoiceMenu(name: "reel-tracks", tooltip: tr("Audio and subtitles"), label: "", action: TrackMenuContent.action)

    /// Seconds the skip buttons jump.
    static let skipStep = 10.0

    /// Set while the bar itself changes widget values, so that value-changed is not an action.
    private var rendering = false
    /// While the seek bar is held, it shows the target, not the position.
    var isDraggingSeek: Bool { seekRow.isDragging }
    private var iconNames: [UnsafeMutablePointer<GtkWidget>: String] = [:]
    private var volumeTooltip = tr("Volume (9/0, wheel)")

    private enum Tag: Int {
        case previous, back, playPause, forward, next, mute, playlist, fullscreen
        case volumeValue, speedChanged
    }

    init() {
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        let buttonRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2)!
        previous = ControlBar.iconButton("media-skip-backward-symbolic", tooltip: tr("Previous (<)"))
        back = ControlBar.iconButton("media-seek-backward-symbolic", tooltip: tr("Back 10 s (←: 5 s)"))
        playPause = ControlBar.iconButton("media-playback-start-symbolic", tooltip: tr("Play/Pause (Space)"))
        forward = ControlBar.iconButton("media-seek-forward-symbolic", tooltip: tr("Forward 10 s (→: 5 s)"))
        next = ControlBar.iconButton("media-skip-forward-symbolic", tooltip: tr("Next (>)"))
        spinner = gtk_spinner_new()
        mute = ControlBar.iconButton("audio-volume-high-symbolic", tooltip: tr("Mute (m)"))
        volume = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 1, 0.05)
        speed = gtk_combo_box_text_new()
        playlist = ControlBar.iconButton("view-list-symbolic", tooltip: tr("Playlist (F9)"))
        fullscreen = ControlBar.iconButton("view-fullscreen-symbolic", tooltip: tr("Fullscreen (f)"))

        gtk_style_context_add_class(gtk_widget_get_style_context(root), "reel-controls")
        gtk_scale_set_draw_value(reel_gtk_scale(volume), 0)
        gtk_widget_set_size_request(volume, 64, -1)
        gtk_widget_set_size_request(spinner, 16, 16)
        for w in [volume, speed] { gtk_widget_set_can_focus(w, 0) }
        gtk_widget_set_tooltip_text(volume, tr("Volume (9/0, wheel)"))
        gtk_widget_set_tooltip_text(speed, tr("Speed ([ ] Backspace)"))
        for r in KeyMap.rates { gtk_combo_box_text_append_text(reel_gtk_combo_box_text(speed), ControlBar.rateText(r)) }
        gtk_combo_box_set_active(reel_gtk_combo_box(speed), 2)
        gtk_widget_set_name(playPause, "reel-play-pause")
        for (w, name) in [(previous, tr("Previous item")), (back, tr("Back 10 seconds")), (forward, tr("Forward 10 seconds")), (next, tr("Next item")),
                          (volume, tr("Volume")), (speed, tr("Speed")), (playlist, tr("Playlist")), (fullscreen, tr("Fullscreen"))] {
            AccessibleNames.name(w, name)
        }

        for w in [previous, back, playPause, forward, next] { gtk_box_pack_start(reel_gtk_box(buttonRow), w, 0, 0, 0) }
        gtk_box_pack_start(reel_gtk_box(buttonRow), spinner, 0, 0, 6)
        for w in [fullscreen, playlist, quality.button, tracks.button, speed, volume, mute] { gtk_box_pack_end(reel_gtk_box(buttonRow), w, 0, 0, 0) }
        gtk_widget_set_valign(speed, GTK_ALIGN_CENTER)
        gtk_box_pack_start(reel_gtk_box(root), seekRow.root, 0, 0, 0)
        gtk_box_pack_start(reel_gtk_box(root), buttonRow, 0, 0, 0)

        for (w, tag) in [(previous, Tag.previous), (back, .back), (playPause, .playPause), (forward, .forward), (next, .next),
                         (mute, .mute), (playlist, .playlist), (fullscreen, .fullscreen)] {
            SignalBridge.connect(w, "clicked", tag: tag.rawValue, to: self)
        }
        SignalBridge.connect(volume, "value-changed", tag: Tag.volumeValue.rawValue, to: self)
        SignalBridge.connect(speed, "changed", tag: Tag.speedChanged.rawValue, to: self)
        seekRow.emit = { [weak self] action in self?.emit(action) }
        quality.emit = { [weak self] action in self?.emit(action) }
        tracks.emit = { [weak self] action in self?.emit(action) }
        render(PlayerViewState(), force: true)
    }

    private static func iconButton(_ icon: String, tooltip: String) -> UnsafeMutablePointer<GtkWidget> {
        let b = gtk_button_new_from_icon_name(icon, GTK_ICON_SIZE_BUTTON)!
        gtk_button_set_relief(reel_gtk_button(b), GTK_RELIEF_NONE)
        KeyboardFocus.reachable(b)
        gtk_widget_set_tooltip_text(b, tooltip)
        gtk_widget_set_valign(b, GTK_ALIGN_CENTER)
        return b
    }

    static func rateText(_ rate: Double) -> String {
        let text = rate == rate.rounded() ? String(Int(rate)) : String(rate)
        return text + "×"
    }

    private func setIcon(_ button: UnsafeMutablePointer<GtkWidget>, _ name: String) {
        guard iconNames[button] != name else { return }
        iconNames[button] = name
        gtk_button_set_image(reel_gtk_button(button), gtk_image_new_from_icon_name(name, GTK_ICON_SIZE_BUTTON))
    }

    // MARK: Rendering

    func render(_ new: PlayerViewState, force: Bool = false) {
        rendering = true
        defer { rendering = false }
        let hasItem = new.title != nil
        seekRow.render(new, force: force)
        for w in [back, forward] { gtk_widget_set_sensitive(w, hasItem && new.isSeekable ? 1 : 0) }
        gtk_widget_set_sensitive(playPause, hasItem ? 1 : 0)
        gtk_widget_set_sensitive(previous, new.canGoPrevious ? 1 : 0)
        gtk_widget_set_sensitive(next, new.canGoNext ? 1 : 0)
        setIcon(playPause, new.wantsToPlay ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
        AccessibleNames.name(playPause, new.wantsToPlay ? tr("Pause") : tr("Play"))
        AccessibleNames.name(mute, new.isMuted ? tr("Unmute") : tr("Mute"))
        AccessibleNames.describe(volume, "\(Int((new.volume * 100).rounded())) %\(new.isMuted ? ", muted" : "")")
        AccessibleNames.name(fullscreen, new.isFullscreen ? tr("Leave fullscreen") : tr("Fullscreen"))
        AccessibleNames.name(playlist, new.isPlaylistVisible ? tr("Hide the playlist") : tr("Show the playlist"))
        if new.showsSpinner { gtk_spinner_start(reel_gtk_spinner(spinner)) } else { gtk_spinner_stop(reel_gtk_spinner(spinner)) }
        let volumeIcon: String
        if new.isMuted || new.volume <= 0 { volumeIcon = "audio-volume-muted-symbolic" }
        else if new.volume < 0.34 { volumeIcon = "audio-volume-low-symbolic" }
        else if new.volume < 0.67 { volumeIcon = "audio-volume-medium-symbolic" }
        else { volumeIcon = "audio-volume-high-symbolic" }
        setIcon(mute, volumeIcon)
        // The slider spans 0–100 %; above it (9/0, the wheel, the socket: up to `volume-max`) it
        // stays at its end and its tooltip says how far.
        gtk_range_set_value(reel_gtk_range(volume), min(1, max(0, new.volume)))
        let amplified = new.volume > 1.001 ? String(format: tr("Volume %d %% (9/0, wheel)"), Int((new.volume * 100).rounded())) : tr("Volume (9/0, wheel)")
        if amplified != volumeTooltip {
            volumeTooltip = amplified
            gtk_widget_set_tooltip_text(volume, amplified)
        }
        let rateIndex = KeyMap.rates.firstIndex { abs($0 - new.rate) < 1e-6 } ?? -1
        if gtk_combo_box_get_active(reel_gtk_combo_box(speed)) != Int32(rateIndex) {
            gtk_combo_box_set_active(reel_gtk_combo_box(speed), Int32(rateIndex))
        }
        setIcon(fullscreen, new.isFullscreen ? "view-restore-symbolic" : "view-fullscreen-symbolic")
        quality.render(entries: new.qualityEntries, choice: new.qualityChoice, label: new.qualityLabel)
        let trackMenu = TrackMenuContent.make(new)
        tracks.render(sections: trackMenu.sections, chosen: trackMenu.chosen, label: trackMenu.label)
    }

    // MARK: Signals

    func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?) {
        guard let tag = Tag(rawValue: tag) else { return }
        switch tag {
        case .previous: emit(.previous)
        case .back: emit(.skip(by: -ControlBar.skipStep))
        case .playPause: emit(.playPause)
        case .forward: emit(.skip(by: ControlBar.skipStep))
        case .next: emit(.next)
        case .mute: emit(.toggleMute)
        case .playlist: emit(.togglePlaylist)
        case .fullscreen: emit(.toggleFullscreen)
        case .volumeValue:
            guard !rendering else { return }
            emit(.setVolume(KeyMap.volume(gtk_range_get_value(reel_gtk_range(volume)), by: 0)))
        case .speedChanged:
            guard !rendering else { return }
            let i = Int(gtk_combo_box_get_active(reel_gtk_combo_box(speed)))
            if KeyMap.rates.indices.contains(i) { emit(.setRate(KeyMap.rates[i])) }
        }
    }

    // MARK: Test and app hooks

    /// The elapsed and total labels as shown.
    var timeTexts: (elapsed: String, total: String) { seekRow.timeTexts }

    var seekValue: Double { gtk_range_get_value(reel_gtk_range(seek)) }
    private var seek: UnsafeMutablePointer<GtkWidget> { seekRow.seek }
    var seekFraction: Double {
        let adjustment = gtk_range_get_adjustment(reel_gtk_range(seek))
        let upper = gtk_adjustment_get_upper(adjustment), lower = gtk_adjustment_get_lower(adjustment)
        return upper > lower ? (seekValue - lower) / (upper - lower) : 0
    }
    var isSpinning: Bool {
        reel_gobject_get_bool(UnsafeMutableRawPointer(spinner), "active") != 0
    }
    /// The clickable controls by name (for tests that click them with a real pointer).
    var controlWidgets: [String: UnsafeMutablePointer<GtkWidget>] {
        ["previous": previous, "back": back, "playPause": playPause, "forward": forward, "next": next,
         "mute": mute, "volume": volume, "speed": speed, "playlist": playlist, "fullscreen": fullscreen, "quality": quality.button,
         "tracks": tracks.button]
    }

    var seekWidget: UnsafeMutablePointer<GtkWidget> { seek }

    /// The LIVE badge's text, nil when hidden.
    var liveBadgeText: String? { seekRow.liveBadgeText }
    var liveBadgeWidget: UnsafeMutablePointer<GtkWidget> { seekRow.liveBadge }
}
