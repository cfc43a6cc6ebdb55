import CGtk
import Foundation
import ReelGLib

/// GTK start-up and main-loop helpers. GTK, the engine's bus watch and its timers all run on the
/// GLib default main context: `gtk_main` (or these helpers) drive them all.
@MainActor
public enum UIRuntime {
    private static var initialised: Bool?

    /// GTK's animations for this process (`--no-animations`: a UI test's goldens; on a compositor a
    /// transition begun at the window's mapping was seen to stop midway until the next redraw, so
    /// two runs' captures differed by a shade in every button).
    @MainActor public static func setAnimations(_ on: Bool) { reel_gtk_set_animations(on ? 1 : 0) }

    /// Initialises GTK once. False when there is no display (GTK is then unusable: stay headless).
    public static func start() -> Bool {
        if let initialised { return initialised }
        // Reel's window draws nothing with OpenGL (the video sink draws into an X11 child window):
        // without this, GDK probes GLX at display open, which loads Mesa and, with no GPU,
        // llvmpipe's LLVM (measured: up to 50 MB more peak RSS and 0.1 s more CPU for 10 s of
        // 1080p). The user's own GDK_GL wins.
        g_setenv("GDK_GL", "disable", 0)
        let ok = gtk_init_check(nil, nil) != 0
        initialised = ok
        return ok
    }

    /// Pins everything that changes how the window looks between machines and runs, for
    /// screenshot tests: theme, icons, font, no animations, no cursor blink. (Set GDK_SCALE=1
    /// and GTK_THEME=Adwaita in the environment too; see the Makefile.)
    public static func pinAppearance() {
        guard let settings = gtk_settings_get_default() else { return }
        let s = UnsafeMutableRawPointer(settings)
        reel_gobject_set_string(s, "gtk-theme-name", "Adwaita")
        reel_gobject_set_string(s, "gtk-icon-theme-name", "Adwaita")
        reel_gobject_set_string(s, "gtk-font-name", "DejaVu Sans 10")
        reel_gobject_set_bool(s, "gtk-enable-animations", 0)
        reel_gobject_set_bool(s, "gtk-cursor-blink", 0)
        reel_gobject_set_bool(s, "gtk-application-prefer-dark-theme", 0)
        reel_gobject_set_int(s, "gtk-xft-antialias", 1)
        reel_gobject_set_string(s, "gtk-xft-hintstyle", "hintslight")
        reel_gobject_set_string(s, "gtk-xft-rgba", "none")
    }

    /// Runs the GTK main loop until `quit()`.
    /// Whether GTK runs on Wayland (the video then goes on a subsurface of the window: `VideoOutput`).
    public static var isWayland: Bool { reel_gdk_is_wayland() != 0 }

    /// The GTK library's version ("3.24.38"), read without a display.
    public nonisolated static var gtkVersion: String { "\(gtk_get_major_version()).\(gtk_get_minor_version()).\(gtk_get_micro_version())" }

    /// The primary (else first) monitor's size in application pixels, nil without a display.
    public static var screenSize: (width: Int, height: Int)? {
        guard let display = gdk_display_get_default(), let monitor = gdk_display_get_primary_monitor(display) ?? gdk_display_get_monitor(display, 0) else { return nil }
        var area = GdkRectangle()
        gdk_monitor_get_geometry(monitor, &area)
        return area.width > 0 && area.height > 0 ? (Int(area.width), Int(area.height)) : nil
    }

    /// GTK's `wl_display` on Wayland (for `Player.useWaylandDisplay`), nil elsewhere.
    public static var waylandDisplay: UInt? { reel_wayland_display().map { UInt(bitPattern: $0) } }

    public static func run() { gtk_main() }

    public static func quit() { if gtk_main_level() > 0 { gtk_main_quit() } }

    /// Spins the default main context until `condition` holds or `timeout` seconds pass
    /// (ReelGLib's `GLibMainLoop`, the one implementation).
    @discardableResult
    public static func run(until condition: () -> Bool, timeout: Double) -> Bool {
        GLibMainLoop.run(until: condition, timeout: timeout)
    }

    /// Spins the default main context for `seconds`.
    public static func spin(for seconds: Double) { GLibMainLoop.spin(for: seconds) }

    /// Processes everything pending and sends what is queued for the X server, without waiting.
    public static func flush() {
        while g_main_context_iteration(nil, 0) != 0 {}
        if let d = gdk_display_get_default() { gdk_display_flush(d) }
    }

    /// Processes everything pending, then waits for the X server to have drawn it.
    public static func settle() {
        for _ in 0..<3 {
            while g_main_context_iteration(nil, 0) != 0 {}
            if let d = gdk_display_get_default() { gdk_display_sync(d) }
            spin(for: 0.03)
        }
        while g_main_context_iteration(nil, 0) != 0 {}
    }
}
