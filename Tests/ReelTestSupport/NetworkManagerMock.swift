import Foundation

/// NetworkManager on a private system bus, for GIO's `GNetworkMonitorNM`: a dbus-daemon of its
/// own and python3-dbusmock's `networkmanager` template (Debian's python3-dbusmock, run with the
/// system's /usr/bin/python3). The template has no `Metered` property until `AddProperty` adds it,
/// after which GIO reports metered. Give a process `environment` to make its GIO use this mock.
public final class NetworkManagerMock {
    public let busAddress: String
    private let daemon: BackgroundProcess
    private let mock: BackgroundProcess
    private var hasMetered = false

    public enum MockError: Error { case unavailable(String) }

    /// Whether the pieces are installed (the setup script installs them).
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
            && ProcessRunner.run("/usr/bin/python3", ["-c", "import dbusmock"], timeout: 20).status == 0
    }

    public init() throws {
        daemon = try BackgroundProcess("/usr/bin/dbus-daemon", ["--config-file=/usr/share/dbus-1/session.conf", "--nofork", "--print-address=1"])
        let deadline = Date().addingTimeInterval(10)
        var address = ""
        while Date() < deadline {
            address = daemon.stdout.split(separator: "\n").first.map(String.init) ?? ""
            if !address.isEmpty { break }
            usleep(20_000)
        }
        guard !address.isEmpty else { daemon.finish(timeout: 0, dumpStacks: false); throw MockError.unavailable("dbus-daemon printed no address") }
        busAddress = address
        mock = try BackgroundProcess("/usr/bin/python3", ["-m", "dbusmock", "--template", "networkmanager", "--system"],
                                    environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
        // Ready once the manager answers.
        while Date() < deadline {
            if call("org.freedesktop.DBus.Properties.Get", ["org.freedesktop.NetworkManager", "State"]) { return }
            usleep(50_000)
        }
        stop()
        throw MockError.unavailable("the NetworkManager mock did not answer: \(mock.stderr)")
    }

    /// What a process needs to see this NetworkManager through GIO (and to count servers on
    /// 127.0.0.1 as remote, so the network policy applies to the tests' own servers).
    public var environment: [String: String] {
        ["DBUS_SYSTEM_BUS_ADDRESS": busAddress, "GIO_USE_NETWORK_MONITOR": "networkmanager", "REEL_LOOPBACK_IS_REMOTE": "1"]
    }

    /// Connected to the Internet (State 70, Connectivity 4), or not at all (State 20, Connectivity 1).
    /// Returns once NetworkManager (the mock) says so when asked: a call that timed out on a
    /// loaded machine once left it online while reel started, and reel fetched what it should
    /// have waited for (NetworkPolicyTests under make test LOAD=1).
    public func setOnline(_ online: Bool) {
        let connectivity = online ? "4" : "1"
        let deadline = Date().addingTimeInterval(20)
        repeat {
            _ = call("org.freedesktop.DBus.Mock.SetConnectivity", [connectivity])
            _ = call("org.freedesktop.DBus.Mock.SetGlobalConnectionState", [online ? "70" : "20"])
            if property("Connectivity") == connectivity { return }
            usleep(100_000)
        } while Date() < deadline
    }

    /// A property of NetworkManager's main object as `gdbus` prints its value ("4" for `(<uint32 4>,)`).
    private func property(_ name: String) -> String? {
        let r = ProcessRunner.run("/usr/bin/gdbus", ["call", "--address", busAddress, "-d", "org.freedesktop.NetworkManager", "-o", "/org/freedesktop/NetworkManager",
                                                     "-m", "org.freedesktop.DBus.Properties.Get", "org.freedesktop.NetworkManager", name], timeout: 10)
        guard r.status == 0 else { return nil }
        return r.stdout.split(whereSeparator: { !$0.isNumber }).last.map(String.init)
    }

    /// NM_METERED_YES (1) or NM_METERED_NO (2).
    public func setMetered(_ metered: Bool) {
        let value = "<uint32 \(metered ? 1 : 2)>"
        if !hasMetered {
            hasMetered = call("org.freedesktop.DBus.Mock.AddProperty", ["org.freedesktop.NetworkManager", "Metered", value])
        }
        _ = call("org.freedesktop.DBus.Properties.Set", ["org.freedesktop.NetworkManager", "Metered", value])
    }

    public func stop() {
        mock.finish(timeout: 0, dumpStacks: false)
        daemon.finish(timeout: 0, dumpStacks: false)
    }

    deinit { stop() }

    @discardableResult
    private func call(_ method: String, _ args: [String]) -> Bool {
        ProcessRunner.run("/usr/bin/gdbus", ["call", "--address", busAddress, "-d", "org.freedesktop.NetworkManager",
                                             "-o", "/org/freedesktop/NetworkManager", "-m", method] + args, timeout: 10).status == 0
    }
}
