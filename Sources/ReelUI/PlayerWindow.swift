import CGtk
import Foundation
import ReelCore

/// Reel's window: an error banner, the video area (black; the engine's sink draws into its X11
/// window), the controls, and the playlist panel on the right. A view: `render(_:)` shows a
/// `PlayerViewState`, and every click, key, wheel turn and drop becomes a `UIAction` on `onAction`.
/// It owns no playback logic, so the same state always looks the same.
@MainActor
public final class PlayerWindow: SignalReceiver {
    /// Called for every action; the app turns it into player and queue commands.
    public var onAction: (UIAction) -> Void = { _ in }
    /// The pointer hovers the seek bar at this time (nil: it left): the app may show a frame
    /// there (`showSeekPreview`).
    public var onSeekHover: (Double?) -> Void {
        get { controls.seekRow.onHover }
        set { controls.seekRow.onHover = newValue }
    }
    /// The video area was laid out at this size in device pixels (not a user action: the aspect
    /// modes' fill and stretch take its shape).
    public var onVideoAreaResized: (_ width: Int, _ height: Int) -> Void = { _, _ in }
    /// Wayland: the video area moved or changed size in the toplevel's surface (`videoRectangle`).
    public var onVideoRectangleChanged: (_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Void = { _, _, _, _ in }
    /// Seconds of stillness before the controls hide in fullscreen (while playing).
    public var controlsHideDelay: Double { get { autoHide.delay } set { autoHide.delay = newValue } }

    public private(set) var state = PlayerViewState()
    let window: UnsafeMutablePointer<GtkWidget>
    let video: UnsafeMutablePointer<GtkWidget>
    let controls = ControlBar()
    let playlist = PlaylistPanel()
    /// The video area's right-click menu (the metered-network setting).
    let videoMenu = VideoMenu()
    let banner = ErrorBanner()
    let statsPanel = StatsPanel()
    let resumeNotice = ResumeNotice()
    let dialogs = DialogPresenter()
    /// The user's bindings and the `?` window (`UserKeys`).
    public let userKeys = UserKeys()
    /// `--title`: the title whatever plays (nil: the item's).
    public var fixedTitle: String? {
        didSet { if let fixedTitle { gtk_window_set_title(reel_gtk_window(window), fixedTitle) } }
    }
    /// `reel review`'s bar (hidden in other sessions).
    public let reviewBar = ReviewBar()
    private var appliedFullscreen = false
    /// The video area's size and place last told to the app (`onVideoAreaResized`, `onVideoRectangleChanged`).
    private var reported: (area: (Int, Int), rectangle: (x: Int, y: Int, width: Int, height: Int)?) = ((0, 0), nil)
    private var savedGeometry: (x: Int32, y: Int32, width: Int32, height: Int32)?
    /// The controls hide in fullscreen while playing (`ControlsAutoHide`).
    private let autoHide: ControlsAutoHide
    private var destroyed = false

    private enum Tag: Int { case key, videoButton, scroll, motion, delete, drop, destroy, videoResized }

    /// Builds the window (not shown yet). `width`×`height` is the default size.
    public init(width: Int = 960, height: Int = 600) {
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        gtk_window_set_default_size(reel_gtk_window(window), Int32(width), Int32(height))
        gtk_window_set_title(reel_gtk_window(window), "Reel")
        gtk_widget_set_name(window, "reel-window")
        PlayerWindow.installCSS()

        let rootBox = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        let mainBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!

        video = gtk_drawing_area_new()
        gtk_widget_set_name(video, "reel-video")
        gtk_widget_set_hexpand(video, 1)
        gtk_widget_set_vexpand(video, 1)
        gtk_widget_set_size_request(video, 160, 90)
        gtk_widget_add_events(video, Int32(GDK_BUTTON_PRESS_MASK.rawValue | GDK_SCROLL_MASK.rawValue | GDK_POINTER_MOTION_MASK.rawValue))
        reel_video_area_connect_draw(video)  // black, or an audio file's cover art
        AccessibleNames.name(video, tr("Video"))
        gtk_widget_set_can_focus(video, 1)  // the focus at the start: Tab goes from it to the controls
        autoHide = ControlsAutoHide(controls: controls.root, video: video)

        gtk_box_pack_start(reel_gtk_box(mainBox), banner.root, 0, 0, 0)
        gtk_box_pack_start(reel_gtk_box(mainBox), reviewBar.root, 0, 0, 0)
        gtk_box_pack_start(reel_gtk_box(mainBox), resumeNotice.root, 0, 0, 0)
        gtk_box_pack_start(reel_gtk_box(mainBox), statsPanel.root, 0, 0, 0)
        gtk_box_pack_start(reel_gtk_box(mainBox), video, 1, 1, 0)
        gtk_box_pack_start(reel_gtk_box(mainBox), controls.root, 0, 0, 0)
        gtk_box_pack_start(reel_gtk_box(rootBox), mainBox, 1, 1, 0)
        gtk_box_pack_start(reel_gtk_box(rootBox), playlist.root, 0, 0, 0)
        gtk_container_add(reel_gtk_container(window), rootBox)
        gtk_widget_show_all(rootBox)
        gtk_widget_set_no_show_all(playlist.root, 1)
        gtk_widget_set_no_show_all(statsPanel.root, 1)
        gtk_widget_hide(statsPanel.root)
        gtk_widget_hide(playlist.root)

        gtk_widget_add_events(window, Int32(GDK_POINTER_MOTION_MASK.rawValue))
        // Files and URLs can be dropped from the start; the document portal's targets (which
        // GTK finds by asking the session bus, synchronously) join later: `acceptDrops`.
        reel_widget_accept_uri_drops(window, 0)
        SignalBridge.connectEvent(window, "key-press-event", tag: Tag.key.rawValue, to: self)
        SignalBridge.connectEvent(window, "motion-notify-event", tag: Tag.motion.rawValue, to: self)
        SignalBridge.connectEvent(window, "delete-event", tag: Tag.delete.rawValue, to: self)
        SignalBridge.connectEvent(video, "button-press-event", tag: Tag.videoButton.rawValue, to: self)
        SignalBridge.connectEvent(video, "scroll-event", tag: Tag.scroll.rawValue, to: self)
        // size-allocate's second argument is the allocation, not an event: onEvent only reads the widget.
        SignalBridge.connectEvent(video, "size-allocate", tag: Tag.videoResized.rawValue, to: self)
        SignalBridge.connectDragData(window, tag: Tag.drop.rawValue, to: self)
        SignalBridge.connect(window, "destroy", tag: Tag.destroy.rawValue, to: self)

        let forward: (UIAction) -> Void = { [weak self] in self?.onAction($0) }
        controls.emit = forward
        playlist.emit = forward
        videoMenu.emit = forward
        banner.emit = forward
        resumeNotice.emit = forward
        dialogs.emit = forward
        autoHide.canHide = { [weak self] in self.map { $0.state.isFullscreen && $0.state.wantsToPlay && !$0.state.showsSpinner } ?? false }
        render(state, force: true)
    }

    private static var cssInstalled = false
    private static func installCSS() {
        guard !cssInstalled, let screen = gdk_screen_get_default() else { return }
        cssInstalled = true
        let css = """
        #reel-video { background-color: black; }
        #reel-stats { background-color: #1e1e1e; padding: 4px 8px; }
        #reel-stats-text { color: #e0e0e0; font-family: monospace; font-size: smaller; }
        .reel-controls { padding: 2px 4px; }
        .reel-controls button { padding: 2px 4px; min-width: 24px; min-height: 24px; }
        .reel-controls combobox button { padding: 2px 6px; }
        .reel-time { font-feature-settings: "tnum"; }
        #reel-live { font-weight: bold; font-size: smaller; padding: 0 6px; min-width: 40px; color: alpha(currentColor, 0.7); }
        #reel-live.reel-live-edge { background-color: #c01c28; color: white; border-radius: 3px; }
        .reel-controls spinner { -gtk-icon-source: -gtk-icontheme("view-refresh-symbolic"); }
        """
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1, nil)
        gtk_style_context_add_provider_for_screen(screen, reel_gtk_style_provider(UnsafeMutableRawPointer(provider)),
                                                  UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }

    /// Drops: with `documentPortal`, GTK's URI targets, which take files from sandboxed apps
    /// through the document portal when one answers on the session bus. GTK asks the bus
    /// synchronously (and GLib autolaunches a dbus-daemon when there is none), so the session
    /// calls this after the first frame, and only with a session bus.
    public func acceptDrops(documentPortal: Bool) {
        guard !destroyed else { return }
        reel_widget_accept_uri_drops(window, documentPortal ? 1 : 0)
    }

    // MARK: Showing

    /// Shows the window and realizes the video area (so that its X11 window exists).
    public func show() {
        gtk_widget_show(window)
        gtk_widget_realize(video)
        gtk_widget_grab_focus(video)
        gtk_window_present(reel_gtk_window(window))
    }

    /// The window the video sink draws into, for `Player.setWindowHandle(_:)`: on X11 the video
    /// area's own window id; on Wayland the toplevel's `wl_surface` (the sink's subsurface goes at
    /// `videoRectangle` in it). 0 when there is none. Call after `show()`.
    public var videoWindowHandle: UInt {
        gtk_widget_realize(video)
        if UIRuntime.isWayland { return UInt(reel_widget_wl_surface(video)) }
        return UInt(reel_widget_xid(video))
    }

    /// Where the video area is in the toplevel's surface (logical pixels), on Wayland; nil on X11
    /// (the sink fills the area's own window there).
    public var videoRectangle: (x: Int, y: Int, width: Int, height: Int)? {
        guard UIRuntime.isWayland else { return nil }
        var x: Int32 = 0, y: Int32 = 0
        guard reel_widget_position_in_toplevel(video, &x, &y) != 0 else { return nil }
        return (Int(x), Int(y), Int(gtk_widget_get_allocated_width(video)), Int(gtk_widget_get_allocated_height(video)))
    }

    /// The X11 window id of the toplevel (for xdotool and `import -window`).
    public var windowID: UInt {
        gtk_widget_realize(window)
        return UInt(reel_widget_xid(window))
    }

    /// Destroys the window and its dialogs.
    public func close() {
        guard !destroyed else { return }
        userKeys.closeShortcuts()
        dialogs.closeAll()
        gtk_widget_destroy(window)
    }

    /// Resizes the (unmaximised, windowed) window.
    public func resize(width: Int, height: Int) {
        gtk_window_resize(reel_gtk_window(window), Int32(width), Int32(height))
    }

    /// Where the toplevel is on the screen, on X11 (Wayland gives clients no position: nil).
    public var position: (x: Int, y: Int)? {
        guard !UIRuntime.isWayland else { return nil }
        var x: Int32 = 0, y: Int32 = 0
        gtk_window_get_position(reel_gtk_window(window), &x, &y)
        return (Int(x), Int(y))
    }

    /// Places the toplevel at `position` on X11 when it is on the screen (at least 64 px of the
    /// window in it); nothing on Wayland.
    public func move(to position: (x: Int, y: Int)) {
        guard !UIRuntime.isWayland, let display = gdk_display_get_default(),
              let monitor = gdk_display_get_monitor_at_point(display, Int32(position.x + 64), Int32(position.y)) else { return }
        var area = GdkRectangle()
        gdk_monitor_get_geometry(monitor, &area)
        // On the monitor nearest the place: at least 64 px of the window's top edge on it.
        guard position.x + 64 >= Int(area.x), position.x + 64 <= Int(area.x + area.width),
              position.y >= Int(area.y), position.y <= Int(area.y + area.height) - 64 else { return }
        gtk_window_move(reel_gtk_window(window), Int32(position.x), Int32(position.y))
    }

    /// The toplevel's size as allocated.
    public var size: (width: Int, height: Int) {
        (Int(gtk_widget_get_allocated_width(window)), Int(gtk_widget_get_allocated_height(window)))
    }

    /// The video area's size and place in the window.
    public var videoRect: (x: Int, y: Int, width: Int, height: Int) { rect(of: video) }
    /// The seek bar's place in the window.
    public var seekBarRect: (x: Int, y: Int, width: Int, height: Int) { rect(of: controls.seekWidget) }
    /// The stats panel's text as shown, nil while hidden.
    public var statsText: String? { statsPanel.text }
    /// The `?` window's rows as shown, nil while it is closed.
    public var shortcutsRows: [String]? { userKeys.shortcutsRows }
    /// The seek bar's tooltip as GTK shows it on hover (with chapters: their list).
    public var seekBarTooltip: String? {
        gtk_widget_get_tooltip_text(controls.seekWidget).map { p in
            defer { g_free(p) }
            return String(cString: p)
        }
    }
    /// A control's place in the window: "previous", "back", "playPause", "forward", "next",
    /// "mute", "volume", "speed", "playlist" or "fullscreen".
    public func controlRect(_ name: String) -> (x: Int, y: Int, width: Int, height: Int)? {
        controls.controlWidgets[name].map { rect(of: $0) }
    }
    /// The playlist's place in the window (rows start at its top).
    public var playlistRect: (x: Int, y: Int, width: Int, height: Int) { rect(of: playlist.view) }
    public var playlistRowHeight: Int { Int(reel_tree_view_row_height(reel_gtk_tree_view(playlist.view))) }
    public var playlistSelection: Int { playlist.selectedIndex }
    /// The playlist's titles as its view holds them, and whether a row is scrolled into view.
    public var playlistShownTitles: [String] { playlist.shownTitles }
    public func playlistShowsRow(_ index: Int) -> Bool { playlist.showsRow(index) }
    /// The tooltip (Pango markup) GTK shows over the playlist at (x, y) in the panel's own coordinates.
    public func playlistTooltip(x: Int, y: Int) -> String? { playlist.tooltip(x: x, y: y) }

    public func focusPlaylist() { gtk_widget_grab_focus(playlist.view) }

    func rect(of widget: UnsafeMutablePointer<GtkWidget>) -> (x: Int, y: Int, width: Int, height: Int) {
        var x: Int32 = 0, y: Int32 = 0
        _ = gtk_widget_translate_coordinates(widget, window, 0, 0, &x, &y)
        return (Int(x), Int(y), Int(gtk_widget_get_allocated_width(widget)), Int(gtk_widget_get_allocated_height(widget)))
    }

    // MARK: Rendering

    public func render(_ new: PlayerViewState, force: Bool = false) {
        guard !destroyed else { return }
        let old = state
        state = new
        if force || old.windowTitle != new.windowTitle { gtk_window_set_title(reel_gtk_window(window), fixedTitle ?? new.windowTitle) }
        banner.render(old, new, force: force)
        statsPanel.render(old, new, force: force)
        resumeNotice.render(old, new, force: force)
        if force || old.meteredPolicy != new.meteredPolicy { videoMenu.render(new.meteredPolicy) }
        if force || old.hardwareDecoding != new.hardwareDecoding { videoMenu.render(new.hardwareDecoding) }
        if force || old.recent != new.recent { videoMenu.renderRecent(new.recent) }
        if force || (old.title == nil) != (new.title == nil) { videoMenu.renderForget(new.title != nil) }
        if force || old.audioOutputs != new.audioOutputs || old.audioOutput != new.audioOutput { videoMenu.renderOutputs(new.audioOutputs, current: new.audioOutput) }
        controls.render(new, force: force)
        playlist.render(new.playlist)
        if force || old.isPlaylistVisible != new.isPlaylistVisible {
            gtk_widget_set_visible(playlist.root, new.isPlaylistVisible ? 1 : 0)
            if new.isPlaylistVisible { playlist.scrollToCurrent() }  // opened: where playback is
        }
        if new.isFullscreen != appliedFullscreen { applyFullscreen(new.isFullscreen) }
        if force || old.coverArt != new.coverArt { showPicture(new.coverArt) }
        if force || old.wantsToPlay != new.wantsToPlay || old.timeControl != new.timeControl || old.isFullscreen != new.isFullscreen {
            autoHide.reveal()
        }
    }

    /// The video area's picture when there is no video: an image file's bytes, or black (nil).
    private func showPicture(_ bytes: Data?) {
        guard let bytes else {
            _ = reel_video_area_set_picture(video, nil, 0)
            return
        }
        _ = bytes.withUnsafeBytes { raw in
            reel_video_area_set_picture(video, raw.bindMemory(to: UInt8.self).baseAddress, gsize(raw.count))
        }
    }

    // MARK: Fullscreen

    private func applyFullscreen(_ on: Bool) {
        appliedFullscreen = on
        let w = reel_gtk_window(window)
        if reel_wm_supports_fullscreen(window) != 0 {
            if on { gtk_window_fullscreen(w) } else { gtk_window_unfullscreen(w) }
        } else if on {
            // No window manager (Xvfb, kiosks): cover the monitor ourselves.
            var x: Int32 = 0, y: Int32 = 0, width: Int32 = 0, height: Int32 = 0
            gtk_window_get_position(w, &x, &y)
            gtk_window_get_size(w, &width, &height)
            savedGeometry = (x, y, width, height)
            var mx: Int32 = 0, my: Int32 = 0, mw: Int32 = 0, mh: Int32 = 0
            reel_widget_monitor_geometry(window, &mx, &my, &mw, &mh)
            gtk_window_move(w, mx, my)
            gtk_window_resize(w, mw, mh)
        } else if let g = savedGeometry {
            gtk_window_move(w, g.x, g.y)
            gtk_window_resize(w, g.width, g.height)
            savedGeometry = nil
        }
    }

    /// Whether the controls are on screen (they hide in fullscreen after `controlsHideDelay`).
    public var areControlsVisible: Bool { gtk_widget_get_visible(controls.root) != 0 }

    // MARK: Events

    public func onEvent(_ tag: Int, _ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        switch Tag(rawValue: tag) {
        case .videoResized:
            let scale = Int(gtk_widget_get_scale_factor(video))
            let size = (Int(gtk_widget_get_allocated_width(video)) * scale, Int(gtk_widget_get_allocated_height(video)) * scale)
            if size != reported.area {
                reported.area = size
                onVideoAreaResized(size.0, size.1)
            }
            if let r = videoRectangle, r != reported.rectangle ?? (-1, -1, -1, -1) {
                reported.rectangle = r
                onVideoRectangleChanged(r.x, r.y, r.width, r.height)
            }
            return false
        case .key:
            return handleKey(keyval: reel_event_keyval(event), modifiers: KeyModifiers(gdkState: reel_event_state(event)))
        case .videoButton:
            // The user's bindings (input.conf: MBTN_LEFT, MBTN_LEFT_DBL, MBTN_RIGHT, …) first.
            let double = reel_event_type(event) == GDK_2BUTTON_PRESS
            if reel_event_type(event) == GDK_BUTTON_PRESS || double,
               let chord = KeyChord(button: reel_event_button(event), double: double, modifiers: KeyModifiers(gdkState: reel_event_state(event))),
               userKeys.handleMouse?(chord) == true { return true }
            if reel_event_type(event) == GDK_2BUTTON_PRESS, reel_event_button(event) == 1 { onAction(.toggleFullscreen); return true }
            if reel_event_type(event) == GDK_BUTTON_PRESS, reel_event_button(event) == 3 {
                onAction(.videoMenuOpening)  // the sound outputs there are now
                videoMenu.popUp(at: event)
                return true
            }
            return false
        case .scroll:
            let direction = reel_event_scroll_direction(event)
            guard direction != 0 else { return false }
            if let chord = KeyChord(wheel: Int(direction), modifiers: KeyModifiers(gdkState: reel_event_state(event))),
               userKeys.handleMouse?(chord) == true { return true }
            onAction(.setVolume(KeyMap.volume(state.volume, by: direction < 0 ? KeyMap.volumeStep : -KeyMap.volumeStep, max: state.volumeMax)))
            return true
        case .motion:
            autoHide.reveal()
            return false
        case .delete:
            onAction(.quit)
            return true  // the app decides; it closes the window
        default:
            return false
        }
    }

    public func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?) {
        switch Tag(rawValue: tag) {
        case .destroy:
            destroyed = true
            autoHide.release()
        default: break
        }
    }

    public func onDragData(_ tag: Int, context: OpaquePointer?, x: Int, y: Int, selection: OpaquePointer?, time: UInt32) {
        let items = PlayerWindow.droppedItems(selection)
        if !items.isEmpty { onAction(.openFiles(items)) }
    }

    /// The URIs (or URL lines) in a drop.
    static func droppedItems(_ selection: OpaquePointer?) -> [String] {
        guard let list = reel_selection_uris(selection) else { return [] }
        defer { g_strfreev(list) }
        var items: [String] = []
        var i = 0
        while let p = list[i] {
            let line = String(cString: p).trimmingCharacters(in: .whitespaces)
            if !line.isEmpty, !line.hasPrefix("#") { items.append(line) }
            i += 1
        }
        return items
    }

    /// A key as the display sends it (mpv's `keypress`, `keydown`, `keyup` over the socket): a GDK
    /// key event handed to GTK, so it takes the road a typed key takes (the focus, the bindings).
    public func sendKey(keyval: UInt32, modifiers: KeyModifiers, press: Bool = true, release: Bool = true) {
        var state: UInt32 = 0
        if modifiers.contains(.shift) { state |= 1 }  // GDK_SHIFT_MASK
        if modifiers.contains(.control) { state |= 4 }  // GDK_CONTROL_MASK
        if modifiers.contains(.alt) { state |= 8 }  // GDK_MOD1_MASK
        if press { reel_send_key(window, keyval, state, 1) }
        if release { reel_send_key(window, keyval, state, 0) }
    }

    /// The pointer as the display moves and clicks it (mpv's `mouse X Y [BUTTON [single|double]]`
    /// and Reel's `mouse-drag`), in window coordinates: GDK events handed to GTK at the window
    /// under the point. False when the point is outside the window.
    @discardableResult
    public func sendPointer(_ kind: PointerAction, x: Int, y: Int) -> PointerResult {
        let held: UInt32 = 1 << 8  // GDK_BUTTON1_MASK
        let r: Int32 = switch kind {
        case .move(let dragging): reel_send_pointer(window, GDK_MOTION_NOTIFY, Int32(x), Int32(y), 0, dragging ? held : 0)
        case .press(let button): reel_send_pointer(window, GDK_BUTTON_PRESS, Int32(x), Int32(y), button, 0)
        case .doublePress(let button): reel_send_pointer(window, GDK_2BUTTON_PRESS, Int32(x), Int32(y), button, 0)
        case .release(let button): reel_send_pointer(window, GDK_BUTTON_RELEASE, Int32(x), Int32(y), button, button == 1 ? held : 0)
        }
        return r > 0 ? .sent : r < 0 ? .noPointer : .outside
    }

    public enum PointerResult: Sendable { case sent, outside, noPointer }

    /// The preferences window (`PreferencesWindow`), opened with what is in force, or raised.
    public func showPreferences(_ preferences: Preferences) { dialogs.preferences(parent: window, preferences) }

    /// Raises the window (files came from another `reel`).
    public func present() { gtk_window_present(reel_gtk_window(window)) }

    /// The visible widgets as data (`WidgetTree`): the socket's `window-tree`.
    public var widgetTree: JSONValue { WidgetTree.json(main: window) }

    /// A visible widget's rectangle by its accessible name (`capture-mask`).
    public func widgetRect(named name: String) -> (x: Int, y: Int, width: Int, height: Int)? { WidgetTree.rect(named: name, in: window) }

    public enum PointerAction: Equatable, Sendable {
        case move(dragging: Bool)
        case press(UInt32), doublePress(UInt32), release(UInt32)
    }

    private func handleKey(keyval: UInt32, modifiers: KeyModifiers) -> Bool {
        autoHide.reveal()
        if keyval == KeySym.delete { return false }  // the playlist's own
        if reviewBar.isTyping { return false }  // the note entry's
        // The user's bindings (input.conf) first, then the built-in input.conf, then the window's own.
        if userKeys.handle?(keyval, modifiers) == true { return true }
        if let command = KeyMap.defaultCommand(keyval: keyval, modifiers: modifiers) { onAction(.command(command)); return true }
        guard let command = KeyMap.command(keyval: keyval, modifiers: modifiers, state: state) else { return false }
        perform(command)
        return true
    }

    /// Runs what a key press means.
    public func perform(_ command: KeyCommand) {
        switch command {
        case .action(let action): onAction(action)
        case .openFilesDialog: dialogs.openFiles(parent: window)
        case .openFolderDialog: dialogs.openFolder(parent: window)
        case .openURLDialog: dialogs.openURL(parent: window)
        case .shortcutsWindow:
            userKeys.presentShortcuts(parent: window)
        }
    }

}
