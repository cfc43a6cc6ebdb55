import CGio
import Foundation

/// Keeps the screensaver off while playing, through org.freedesktop.ScreenSaver on the session
/// bus (Inhibit/UnInhibit with a cookie): what KDE, GNOME (gsd-screensaver-proxy), Xfce and
/// xscreensaver's bridges implement, and what mpv and VLC use. No GtkApplication needed, and a
/// test can stand in for the service on a private bus. When no service answers, it says so once
/// and stops trying.
@MainActor
public final class ScreenSaverInhibitor {
    public private(set) var cookie: UInt32?
    public private(set) var unavailableReason: String?
    nonisolated(unsafe) private var bus: OpaquePointer?
    private let appName: String
    private let timeoutMs: Int32 = 1000
    public var log: (String) -> Void = { FileHandle.standardError.write(Data(("reel: " + $0 + "\n").utf8)) }

    public init(appName: String = "Reel") {
        self.appName = appName
    }

    public var isInhibiting: Bool { cookie != nil }

    /// Inhibits while `playing`, releases otherwise. Idempotent.
    public func update(playing: Bool) {
        if playing { inhibit() } else { release() }
    }

    private func connection() -> OpaquePointer? {
        if let bus { return bus }
        // No session bus to reach: GLib would autolaunch a dbus-daemon (a fork on the main thread,
        // a daemon left behind) on which no screensaver answers.
        guard SessionBus.isAvailable() else {
            unavailable("no session bus (DBUS_SESSION_BUS_ADDRESS is unset and there is no $XDG_RUNTIME_DIR/bus)")
            return nil
        }
        var error: UnsafeMutablePointer<GError>?
        bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
        if let error {
            unavailable("no session bus (\(String(cString: error.pointee.message)))")
            g_error_free(error)
        }
        return bus
    }

    private func inhibit() {
        guard cookie == nil, unavailableReason == nil, let bus = connection() else { return }
        var error: UnsafeMutablePointer<GError>?
        let c = reel_screensaver_inhibit(bus, appName, "Playing a video", timeoutMs, &error)
        if let error {
            unavailable(String(cString: error.pointee.message))
            g_error_free(error)
            return
        }
        cookie = c
    }

    private func release() {
        guard let c = cookie, let bus = connection() else { return }
        cookie = nil
        var error: UnsafeMutablePointer<GError>?
        if reel_screensaver_uninhibit(bus, c, timeoutMs, &error) == 0, let error {
            log("could not release the screensaver inhibition: \(String(cString: error.pointee.message))")
            g_error_free(error)
        }
    }

    private func unavailable(_ why: String) {
        unavailableReason = why
        log("the screensaver cannot be held off while playing: \(why)")
    }

    deinit {
        // Inhibitions end with the bus connection; the cookie needs no explicit release here.
        if let bus { g_object_unref(UnsafeMutableRawPointer(bus)) }
    }
}
