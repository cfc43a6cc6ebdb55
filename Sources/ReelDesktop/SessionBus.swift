import Foundation

/// The desktop's session bus, as far as the environment tells without connecting.
public enum SessionBus {
    /// Whether a session bus can be reached without starting one: `DBUS_SESSION_BUS_ADDRESS`, or
    /// the systemd user bus at `$XDG_RUNTIME_DIR/bus`. Desktop sessions have one of the two;
    /// without either, GLib would autolaunch a private dbus-daemon (a fork and a daemon left
    /// running) on which no desktop service answers.
    public static func isAvailable(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        var info = stat()
        return stat(runtime + "/bus", &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }
}
