import Foundation

/// A real Wayland compositor for window tests: weston 10 headless (`--use-pixman`: the only
/// renderer that draws headless), optionally with Xwayland as a GNOME or Plasma session has it,
/// and `--debug` so that `weston-screenshooter` may read the screen back. Its own runtime
/// directory (mode 0700) and socket name; `environment` is what a client needs to reach it.
public final class WestonSession {
    public let socketName: String
    public let runtimeDirectory: URL
    public let width: Int, height: Int
    /// Xwayland's display (":N") when started with it.
    public private(set) var xDisplay: String?
    private let process = Process()
    private let log: URL

    /// - Parameter scale: the output's scale factor (2: a HiDPI screen; the screenshot has twice
    ///   the pixels each way, clients draw at scale 2).
    public init(xwayland: Bool = false, width: Int = 1280, height: Int = 800, scale: Int = 1) throws {
        self.width = width
        self.height = height
        runtimeDirectory = TestMedia.temporaryDirectory("reel-weston")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtimeDirectory.path)
        socketName = "reel-wayland-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        log = runtimeDirectory.appendingPathComponent("weston.log")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/weston") else {
            throw NSError(domain: "WestonSession", code: 1, userInfo: [NSLocalizedDescriptionKey: "weston is not installed (setup.sh installs weston and xwayland)"])
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/weston")
        process.arguments = ["--backend=headless-backend.so", "--use-pixman", "--width=\(width)", "--height=\(height)",
                             "--scale=\(scale)", "--socket=\(socketName)", "--idle-time=0", "--debug", "--log=\(log.path)"] + (xwayland ? ["--xwayland"] : [])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment.removeValue(forKey: "DISPLAY")
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let socket = runtimeDirectory.appendingPathComponent(socketName).path
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if xwayland, xDisplay == nil, let range = text.range(of: "xserver listening on display ") {
                let rest = text[range.upperBound...]  // ":0", at times followed by the next message on the same line
                xDisplay = ":" + String(rest.dropFirst().prefix { ("0"..."9").contains($0) })
            }
            if FileManager.default.fileExists(atPath: socket), !xwayland || xDisplay != nil,
               text.contains("launching '/usr/lib/x86_64-linux-gnu/weston-desktop-shell'") || text.contains("desktop-shell") {
                usleep(300_000)  // the shell's panel and background
                return
            }
            usleep(50_000)
        }
        stop()
        throw NSError(domain: "WestonSession", code: 2, userInfo: [NSLocalizedDescriptionKey: "weston did not start: \(logText)"])
    }

    public var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// What a client needs: the compositor's socket, and Xwayland's display or none at all (a
    /// display that does not exist, so nothing reaches the test run's Xvfb).
    public var environment: [String: String] {
        ["XDG_RUNTIME_DIR": runtimeDirectory.path, "WAYLAND_DISPLAY": socketName, "DISPLAY": xDisplay ?? ":255"]
    }

    /// The compositor's screen as PNG (`weston-screenshooter`), saved in `directory`.
    public func screenshot(in directory: URL) -> String? {
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        let shooter = Process()
        shooter.executableURL = URL(fileURLWithPath: "/usr/bin/weston-screenshooter")
        shooter.currentDirectoryURL = directory
        shooter.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtimeDirectory.path, "WAYLAND_DISPLAY": socketName]) { $1 }
        shooter.standardOutput = FileHandle.nullDevice
        shooter.standardError = FileHandle.nullDevice
        guard (try? shooter.run()) != nil else { return nil }
        shooter.waitUntilExit()
        let after = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        guard let name = after.first(where: { !before.contains($0) && $0.hasPrefix("wayland-screenshot") }) else { return nil }
        return directory.appendingPathComponent(name).path
    }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }

    deinit { stop() }
}
