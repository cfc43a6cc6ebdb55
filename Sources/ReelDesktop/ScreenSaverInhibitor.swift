import CGio
import Foundation
import ReelCore

/// Keeps the screensaver off while playing, through org.freedesktop.ScreenSaver on the session
/// bus (Inhibit/UnInhibit with a cookie): what KDE, GNOME (gsd-screensaver-proxy), Xfce and
/// xscreensaver's bridges implement, and what mpv and VLC use. No GtkApplication needed, and a
/// test can stand in for the service on a private bus. When no service answers, it says so once
/// and stops trying.
///
/// Nothing here blocks the main thread: the bus connection and the calls are asynchronous, their
/// replies handled on the main loop (GTK's). `update` only says what is wanted; one call is under
/// way at a time, and a reply that finds the wish changed (paused before the cookie came) is
/// followed by the call that matches it.
@MainActor
public final class ScreenSaverInhibitor {
    public private(set) var cookie: UInt32?
    public private(set) var unavailableReason: String?
    nonisolated(unsafe) private var bus: OpaquePointer?
    private let appName: String
    /// How long a call may wait for the service's reply.
    private static let timeoutMs: Int32 = 1000
    /// Playing: the screensaver should be held off.
    private var wanted = false
    /// The bus connection or an Inhibit call is under way.
    private var busy = false
    public var log: (String) -> Void = { Log.say($0) }

    public init(appName: String = "Reel") {
        self.appName = appName
    }

    /// Whether the screensaver is held off now (the service gave a cookie).
    public var isInhibiting: Bool { cookie != nil }
    /// Whether a connection or a call is still waiting for its reply (tests).
    public var isSettled: Bool { !busy && (wanted == (cookie != nil) || unavailableReason != nil) }

    /// Inhibits while `playing`, releases otherwise. Idempotent; returns at once.
    public func update(playing: Bool) {
        wanted = playing
        advance()
    }

    /// Does the next call towards what is wanted, unless one is under way (its reply calls again).
    private func advance() {
        guard !busy else { return }
        if wanted, cookie == nil, unavailableReason == nil {
            guard let bus else { return connect() }
            busy = true
            reel_screensaver_inhibit_start(bus, appName, "Playing a video", Self.timeoutMs, { source, result, data in
                let call = Unmanaged<Call>.fromOpaque(data!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let cookie = reel_screensaver_inhibit_finish(source, result, &error)
                let message = error.map { String(cString: $0.pointee.message) }
                if let error { g_error_free(error) }
                MainActor.assumeIsolated { call.inhibited(cookie: message == nil ? cookie : nil, error: message, bus: source) }
            }, Unmanaged.passRetained(Call(self)).toOpaque())
        } else if !wanted, let c = cookie, let bus {
            cookie = nil
            Self.uninhibit(c, on: bus, owner: self)
        }
    }

    private func connect() {
        // No session bus to reach: GLib would autolaunch a dbus-daemon (a fork, a daemon left
        // behind) on which no screensaver answers.
        guard SessionBus.isAvailable() else {
            return unavailable("no session bus (DBUS_SESSION_BUS_ADDRESS is unset and there is no $XDG_RUNTIME_DIR/bus)")
        }
        busy = true
        reel_session_bus_get({ _, result, data in
            let call = Unmanaged<Call>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let bus = reel_session_bus_finish(result, &error)
            let message = error.map { String(cString: $0.pointee.message) }
            if let error { g_error_free(error) }
            MainActor.assumeIsolated { call.connected(bus, error: message) }
        }, Unmanaged.passRetained(Call(self)).toOpaque())
    }

    fileprivate func connected(_ connection: OpaquePointer?, error: String?) {
        busy = false
        if let connection { bus = connection } else { unavailable("no session bus (\(error ?? "no connection"))") }
        advance()
    }

    fileprivate func inhibited(cookie c: UInt32?, error: String?) {
        busy = false
        if let c { cookie = c } else { unavailable(error ?? "no cookie") }
        advance()
    }

    /// UnInhibit; a failure is only said (the inhibition ends with the connection anyway).
    fileprivate static func uninhibit(_ cookie: UInt32, on bus: OpaquePointer, owner: ScreenSaverInhibitor?) {
        reel_screensaver_uninhibit_start(bus, cookie, timeoutMs, { source, result, data in
            let call = Unmanaged<Call>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            guard reel_screensaver_uninhibit_finish(source, result, &error) == 0, let error else { return }
            let message = String(cString: error.pointee.message)
            g_error_free(error)
            MainActor.assumeIsolated { call.owner?.log("could not release the screensaver inhibition: \(message)") }
        }, Unmanaged.passRetained(Call(owner)).toOpaque())
    }

    private func unavailable(_ why: String) {
        unavailableReason = why
        log("the screensaver cannot be held off while playing: \(why)")
    }

    deinit {
        // Inhibitions end with the bus connection; the cookie needs no explicit release here.
        if let bus { g_object_unref(UnsafeMutableRawPointer(bus)) }
    }

    /// One call's way back to its inhibitor, which may be gone by the reply.
    @MainActor
    private final class Call {
        weak var owner: ScreenSaverInhibitor?
        init(_ owner: ScreenSaverInhibitor?) { self.owner = owner }

        func connected(_ bus: OpaquePointer?, error: String?) {
            guard let owner else {
                if let bus { g_object_unref(UnsafeMutableRawPointer(bus)) }
                return
            }
            owner.connected(bus, error: error)
        }

        /// A cookie for an inhibitor that is gone is handed back at once.
        func inhibited(cookie: UInt32?, error: String?, bus: UnsafeMutablePointer<GObject>?) {
            guard let owner else {
                if let cookie, let bus { ScreenSaverInhibitor.uninhibit(cookie, on: OpaquePointer(bus), owner: nil) }
                return
            }
            owner.inhibited(cookie: cookie, error: error)
        }
    }
}
