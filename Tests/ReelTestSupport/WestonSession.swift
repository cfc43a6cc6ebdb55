import Foundation

/// A real Wayland compositor for window tests: weston 10 headless (`--use-pixman`: the only
/// renderer that draws headless), optionally with Xwayland as a GNOME or Plasma session has it,
/// and `--debug` so that `weston-screenshooter` may read the screen back. Its own runtime
/// directory (mode 0700) and socket name; `environment` is what a client needs to reach it.
///
/// Input: the headless backend has no seat a test can drive, so `.x11` runs weston on its X11
/// backend as a window of the test run's Xvfb (still pixman): xdotool's XTEST events go to that
/// window and weston hands them to its clients as Wayland pointer and keyboard input, as a real
/// seat would (`movePointer`, `click`, `key`).
public final class WestonSession {
    public enum Backend: Sendable { case headless, x11 }
    public let socketName: String
    public let runtimeDirectory: URL
    public let width: Int, height: Int
    /// Xwayland's display (":N") when started with it.
    public private(set) var xDisplay: String?
    private let process = Process()
    private let log: URL

    /// - Parameter scale: the output's scale factor (2: a HiDPI screen; the screenshot has twice
    ///   the pixels each way, clients draw at scale 2).
    private let backend: Backend

    public init(xwayland: Bool = false, width: Int = 1280, height: Int = 800, scale: Int = 1, backend: Backend = .headless) throws {
        self.backend = backend
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
        if backend == .x11, ProcessInfo.processInfo.environment["DISPLAY"]?.isEmpty ?? true {
            throw NSError(domain: "WestonSession", code: 3, userInfo: [NSLocalizedDescriptionKey: "weston's X11 backend needs the test run's X display (DISPLAY)"])
        }
        process.arguments = [backend == .x11 ? "--backend=x11-backend.so" : "--backend=headless-backend.so", "--use-pixman", "--width=\(width)", "--height=\(height)",
                             "--scale=\(scale)", "--socket=\(socketName)", "--idle-time=0", "--debug", "--log=\(log.path)"] + (xwayland ? ["--xwayland"] : [])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        if backend == .headless { environment.removeValue(forKey: "DISPLAY") }
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

    // MARK: Input (the `.x11` backend)

    /// Where weston's output is on the X screen (its window's top left).
    private lazy var origin: (x: Int, y: Int) = {
        let tree = ProcessRunner.run("/usr/bin/xwininfo", ["-root", "-tree"], timeout: 10).stdout
        for line in tree.split(separator: "\n") where line.contains("Weston Compositor") {
            // ... 1280x800+0+0  +0+0: the last pair is the absolute position.
            let last = line.split(separator: " ").last.map(String.init) ?? ""
            let parts = last.split(separator: "+").compactMap { Int($0) }
            if parts.count == 2 { return (parts[0], parts[1]) }
        }
        return (0, 0)
    }()

    /// Moves the pointer to (x, y) on weston's output (in screenshot pixels at scale 1), in three
    /// steps 150 ms apart: weston was seen to miss motions into its window that did not come from
    /// outside it (the click then landed where its pointer had been, on the panel's launcher).
    public func movePointer(to x: Int, _ y: Int) {
        precondition(backend == .x11, "input needs the x11 backend")
        let o = origin
        // From outside weston's window first (when the X screen has room), as a user's pointer
        // comes in: weston then sees the entry and the motions after it.
        let screen = ProcessRunner.run("/usr/bin/xdotool", ["getdisplaygeometry"], timeout: 10).stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        if screen.count == 2, screen[0] > o.x + width + 2 || screen[1] > o.y + height + 2 {
            _ = ProcessRunner.run("/usr/bin/xdotool", ["mousemove", String(screen[0] - 1), String(screen[1] - 1)], timeout: 10)
            usleep(150_000)
        }
        for (dx, dy) in [(-24, -16), (-1, -1), (0, 0)] {
            _ = ProcessRunner.run("/usr/bin/xdotool", ["mousemove", String(o.x + x + dx), String(o.y + y + dy)], timeout: 10)
            usleep(150_000)
        }
        usleep(100_000)
    }

    /// Button 1 where the pointer is, `count` times (2: a double-click, 80 ms apart).
    public func click(count: Int = 1) {
        precondition(backend == .x11, "input needs the x11 backend")
        _ = ProcessRunner.run("/usr/bin/xdotool", ["click", "--repeat", String(count), "--delay", "80", "1"], timeout: 10)
        usleep(200_000)
    }

    /// Key presses (xdotool's names: "f", "Escape", "ctrl+q") to the focused surface.
    public func key(_ names: String...) {
        precondition(backend == .x11, "input needs the x11 backend")
        _ = ProcessRunner.run("/usr/bin/xdotool", ["key", "--delay", "40"] + names, timeout: 10)
        usleep(200_000)
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
