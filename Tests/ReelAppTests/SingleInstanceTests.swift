import Foundation
import ReelTestSupport
import XCTest

/// Issue 60: one Reel per user session, on a private session bus of the test's own: a second
/// `reel FILE` hands its file to the open window and exits 0 (the window plays it, MPRIS says so);
/// `--enqueue` queues it without interrupting; a first Reel killed with SIGKILL leaves no stale
/// name (the next one owns it); scripted runs keep their own process.
final class SingleInstanceTests: XCTestCase {
    private var bus: BackgroundProcess!
    private var address = ""

    override func setUpWithError() throws {
        TestMedia.ensureGenerated()
        bus = try BackgroundProcess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"])
        let deadline = Date().addingTimeInterval(10)
        while address.isEmpty, Date() < deadline {
            address = bus.stdout.split(separator: "\n").first.map(String.init) ?? ""
            usleep(50_000)
        }
        XCTAssertFalse(address.isEmpty, "a private session bus")
    }

    override func tearDown() {
        weston?.stop()
        weston = nil
        bus.process.terminate()
        _ = bus.finish(timeout: 5, dumpStacks: false)
    }

    /// A Wayland session for the windows (weston headless, no Xwayland), when a test wants one.
    private var weston: WestonSession?

    private var environment: [String: String] { (weston?.environment ?? [:]).merging(["DBUS_SESSION_BUS_ADDRESS": address, "GTK_CSD": "0"]) { $1 } }

    private func call(_ arguments: [String]) -> String {
        ProcessRunner.run("/usr/bin/gdbus", ["call", "--session"] + arguments, timeout: 10, environment: environment).stdout
    }

    /// The MPRIS url of what the open Reel plays, and whether it can go next.
    private func playing() -> (url: String, canGoNext: Bool)? {
        let names = call(["--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.ListNames"])
        guard let range = names.range(of: #"org\.mpris\.MediaPlayer2\.reel\.instance[0-9]+"#, options: .regularExpression) else { return nil }
        let name = String(names[range])
        func get(_ property: String) -> String {
            call(["--dest", name, "--object-path", "/org/mpris/MediaPlayer2", "--method", "org.freedesktop.DBus.Properties.Get",
                  "org.mpris.MediaPlayer2.Player", property])
        }
        let metadata = get("Metadata")
        guard let url = metadata.range(of: #"file://[^']+"#, options: .regularExpression).map({ String(metadata[$0]) }) else { return nil }
        return (url, get("CanGoNext").contains("true"))
    }

    private func eventually(_ what: String, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(15)
        while !condition() && Date() < deadline { usleep(100_000) }
        XCTAssertTrue(condition(), what)
    }

    func testASecondReelHandsItsFileToTheOpenOneAndAKilledOneLeavesNoName() throws {
        let common = ["--no-resume", "--autoload=no", "--audio-sink", "fakesink sync=true"]
        let first = try BackgroundProcess(ProcessRunner.reelExecutable, common + [TestMedia.path("color10s.mp4")], environment: environment)
        defer { if first.process.isRunning { first.process.terminate(); _ = first.finish(timeout: 5, dumpStacks: false) } }
        eventually("the first plays A") { playing()?.url.hasSuffix("color10s.mp4") == true }

        let second = ProcessRunner.run(ProcessRunner.reelExecutable, common + [TestMedia.path("demo-smpte.mp4")], timeout: 15, environment: environment)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("handed to the Reel already open"), second.stderr)
        eventually("the open window plays B") { playing()?.url.hasSuffix("demo-smpte.mp4") == true }

        XCTAssertEqual(playing()?.canGoNext, false, "B is last")

        let third = ProcessRunner.run(ProcessRunner.reelExecutable, common + ["--enqueue", TestMedia.path("demo-ball.mp4")], timeout: 15, environment: environment)
        XCTAssertEqual(third.status, 0, third.stderr)
        eventually("queued after it, B still playing") { playing().map { $0.url.hasSuffix("demo-smpte.mp4") && $0.canGoNext } == true }

        // Handed over without --enqueue: after the item playing (before the one queued), playing.
        let fourth = ProcessRunner.run(ProcessRunner.reelExecutable, common + [TestMedia.path("long60s.mp4")], timeout: 15, environment: environment)
        XCTAssertEqual(fourth.status, 0, fourth.stderr)
        eventually("C plays, the queued one still after it") { playing().map { $0.url.hasSuffix("long60s.mp4") && $0.canGoNext } == true }

        // A scripted run keeps its own process (it plays, headless, and ends by itself).
        let scripted = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--exit-at-end", "--audio-sink", "fakesink", "--video-sink", "fakesink",
                                                                       TestMedia.path("clip2s.mp4")], timeout: 30, environment: environment)
        XCTAssertEqual(scripted.status, 0)
        XCTAssertFalse(scripted.stderr.contains("handed"), scripted.stderr)

        kill(first.process.processIdentifier, SIGKILL)
        _ = first.finish(timeout: 5, dumpStacks: false)
        let again = try BackgroundProcess(ProcessRunner.reelExecutable, common + [TestMedia.path("demo-colors.mp4")], environment: environment)
        defer { again.process.terminate(); _ = again.finish(timeout: 5, dumpStacks: false) }
        eventually("a new Reel after a SIGKILL owns the name and plays") { playing()?.url.hasSuffix("demo-colors.mp4") == true }
        XCTAssertFalse(again.stderr.contains("handed"), again.stderr)
    }

    /// The same hand-over with the windows on Wayland (weston headless, no Xwayland): the second
    /// `reel` exits 0 and the first window plays its file after the one playing.
    func testAHandOverOnWaylandPlaysInTheOpenWindow() throws {
        weston = try WestonSession(xwayland: false)
        let common = ["--no-resume", "--autoload=no", "--audio-sink", "fakesink sync=true"]
        let first = try BackgroundProcess(ProcessRunner.reelExecutable, common + [TestMedia.path("long60s.mp4"), TestMedia.path("color10s.mp4")],
                                          environment: environment)
        defer { if first.process.isRunning { first.process.terminate(); _ = first.finish(timeout: 5, dumpStacks: false) } }
        eventually("the first plays A, on Wayland") { playing()?.url.hasSuffix("long60s.mp4") == true }
        let second = ProcessRunner.run(ProcessRunner.reelExecutable, common + [TestMedia.path("demo-smpte.mp4")], timeout: 15, environment: environment)
        XCTAssertEqual(second.status, 0, second.stderr)
        eventually("B plays in the open window, the queued one still after it") { playing().map { $0.url.hasSuffix("demo-smpte.mp4") && $0.canGoNext } == true }
        XCTAssertFalse(first.stderr.contains("no display"), "a window, on Wayland: \(first.stderr)")
    }

    /// DBusActivatable=true, as a file manager opens a file: GIO launches the desktop entry by
    /// asking the bus for the app's name; the bus starts Reel through the service file (with
    /// `--gapplication-service`), and the Open that started it plays the file. A second open
    /// (GLib's `gapplication launch`) goes to the same process. Both are other people's clients of
    /// org.freedesktop.Application: Reel's own spoke a form with GApplication's private hint
    /// argument, which every one of them was refused with InvalidArgs.
    func testTheBusStartsReelThroughItsServiceFileForAFileManagersOpen() throws {
        tearDown()  // a bus of this test's own, with Reel's service file
        let dir = TestMedia.temporaryDirectory("reel-dbus-activation")
        defer { try? FileManager.default.removeItem(at: dir) }
        let services = dir.appendingPathComponent("services"), applications = dir.appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        let root = TestMedia.packageRoot.appendingPathComponent("Resources")
        let service = try String(contentsOf: root.appendingPathComponent("io.github.reel_player.Reel.service"), encoding: .utf8)
            .replacingOccurrences(of: "@bindir@/reel --gapplication-service",
                                  with: "\(ProcessRunner.reelExecutable) --gapplication-service --no-resume --audio-sink \"fakesink sync=true\"")
        try service.write(to: services.appendingPathComponent("io.github.reel_player.Reel.service"), atomically: true, encoding: .utf8)
        let desktop = applications.appendingPathComponent("io.github.reel_player.Reel.desktop")
        try FileManager.default.copyItem(at: root.appendingPathComponent("io.github.reel_player.Reel.desktop"), to: desktop)
        let config = dir.appendingPathComponent("session.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig><type>session</type><listen>unix:tmpdir=\(dir.path)</listen><servicedir>\(services.path)</servicedir>
        <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        bus = try BackgroundProcess("/usr/bin/dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--print-address=1"], environment: ["GTK_CSD": "0"])
        address = ""
        let deadline = Date().addingTimeInterval(10)
        while address.isEmpty, Date() < deadline {
            address = bus.stdout.split(separator: "\n").first.map(String.init) ?? ""
            usleep(50_000)
        }
        XCTAssertFalse(address.isEmpty)
        var owner: String? {
            let r = call(["--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID",
                          "io.github.reel_player.Reel"])
            return r.range(of: #"[0-9]+"#, options: .regularExpression).map { String(r[$0]) }
        }
        defer { if let pid = owner.flatMap({ Int32($0) }) { kill(pid, SIGTERM) } }
        XCTAssertNil(owner, "no Reel yet")

        // As a file manager does (Nautilus: GDesktopAppInfo by its id, launch_uris with a launch
        // context): GIO asks the bus for the app's name (D-Bus activation, not the Exec line).
        // TryExec=reel: GIO loads the entry only with a `reel` on PATH. (`gio launch FILE` is not
        // this road: GLib 2.74's loads the entry without its file name, and spawns Exec.)
        let path = (ProcessRunner.reelExecutable as NSString).deletingLastPathComponent + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
        let script = """
        import gi, sys
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio
        from gi.repository import GLib
        app = Gio.DesktopAppInfo.new("io.github.reel_player.Reel.desktop")
        if app is None or not app.launch_uris([sys.argv[1]], Gio.AppLaunchContext()):
            sys.exit(1)
        # Alive until the call is through, as a file manager is (the bus drops a call waiting on
        # an activation when its sender leaves).
        loop = GLib.MainLoop()
        GLib.timeout_add_seconds(3, loop.quit)
        loop.run()
        """
        let launch = ProcessRunner.run("/usr/bin/python3", ["-c", script, URL(fileURLWithPath: TestMedia.path("color10s.mp4")).absoluteString], timeout: 20,
                                       environment: environment.merging(["PATH": path, "XDG_DATA_DIRS": dir.path + ":/usr/share"]) { $1 })
        XCTAssertEqual(launch.status, 0, launch.stderr)
        eventually("the bus started Reel and it plays the file") { playing()?.url.hasSuffix("color10s.mp4") == true }
        let first = try XCTUnwrap(owner)
        // Another file through GLib's own launcher of D-Bus-activatable apps: the same process plays it.
        let again = ProcessRunner.run("/usr/bin/gapplication", ["launch", "io.github.reel_player.Reel", TestMedia.path("demo-smpte.mp4")], timeout: 20,
                                      environment: environment)
        XCTAssertEqual(again.status, 0, again.stderr)
        eventually("the same Reel plays the next file") { playing()?.url.hasSuffix("demo-smpte.mp4") == true }
        XCTAssertEqual(owner, first)
    }
}
