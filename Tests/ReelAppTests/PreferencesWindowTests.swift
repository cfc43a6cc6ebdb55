import Foundation
import ReelTestSupport
import XCTest

/// Issue 60: the preferences window (Ctrl+,), driven as a keyboard user does over the socket, on
/// X11 and on Wayland: it opens with what is in force, Alt+H turns hardware decoding off at once
/// (the player says so), and reel.conf gets `hwdec=no` on its own line with every comment and
/// other line kept.
final class PreferencesWindowTests: XCTestCase {
    func testHardwareDecodingOffFromThePreferencesKeepsReelConfsOtherLinesOnXvfb() throws { try hardwareDecodingOff(weston: false) }
    func testHardwareDecodingOffFromThePreferencesKeepsReelConfsOtherLinesOnWeston() throws { try hardwareDecodingOff(weston: true) }

    private func hardwareDecodingOff(weston onWeston: Bool) throws {
        let weston = onWeston ? try WestonSession(xwayland: false) : nil
        defer { weston?.stop() }
        let dir = TestMedia.temporaryDirectory("reel-preferences")
        defer { try? FileManager.default.removeItem(at: dir) }
        let conf = dir.appendingPathComponent("config/reel/reel.conf")
        try FileManager.default.createDirectory(at: conf.deletingLastPathComponent(), withIntermediateDirectories: true)
        let original = "# my settings, kept as they are\nvolume-max=120\nhwdec=auto # fast\n\nsub-scale=1.2\n"
        try Data(original.utf8).write(to: conf)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: conf.path)
        let socket = dir.appendingPathComponent("p.sock").path
        var environment = weston?.environment ?? [:]
        environment.merge(["GTK_CSD": "0", "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path, "XDG_STATE_HOME": dir.path]) { $1 }
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--ipc", socket, "--no-mpris", "--no-resume", "--autoload=no", "--pause",
                                                                       "--audio-sink", "fakesink sync=true", TestMedia.path("color10s.mp4")], environment: environment)
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket, timeout: 20), reel.stderr)
        var id = 0
        func ask(_ command: [Any]) -> [String: Any] { id += 1; return c.request(command, id: id) ?? [:] }
        func eventually(_ what: String, _ condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(10)
            while !condition() && Date() < deadline { usleep(100_000) }
            XCTAssertTrue(condition(), what)
        }
        func preferences() -> [[String: Any]]? {
            (ask(["window-tree"])["data"] as? [[String: Any]] ?? []).first { ($0["title"] as? String ?? "").hasPrefix("Preferences") }?["widgets"] as? [[String: Any]]
        }
        func hwdecBox() -> [String: Any]? { preferences()?.first { $0["id"] as? String == "reel-pref-hwdec" } }
        eventually("loaded") { (ask(["get_property", "duration"])["data"] as? Double ?? 0) > 9 }
        XCTAssertEqual(ask(["get_property", "hwdec"])["data"] as? String, "auto")
        XCTAssertEqual(ask(["keypress", "Ctrl+,"])["error"] as? String, "success")
        eventually("the preferences window is open") { hwdecBox() != nil }
        let box = try XCTUnwrap(hwdecBox())
        XCTAssertEqual(box["name"] as? String, "Hardware decoding", "what a screen reader says")
        XCTAssertEqual(box["checked"] as? Bool, true, "what is in force")
        let volume = preferences()?.first { $0["id"] as? String == "reel-pref-volumeMax" }
        XCTAssertEqual(volume?["name"] as? String, "Loudest volume (%):")
        XCTAssertEqual(ask(["keypress", "Alt+h"])["error"] as? String, "success")
        eventually("off at once") { ask(["get_property", "hwdec"])["data"] as? String == "no" }
        eventually("the box says so") { hwdecBox()?["checked"] as? Bool != true }
        let written = try String(contentsOf: conf, encoding: .utf8)
        XCTAssertEqual(written, "# my settings, kept as they are\nvolume-max=120\nhwdec=no # fast\n\nsub-scale=1.2\n")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: conf.path)[.posixPermissions] as? Int, 0o644, "its mode kept")
        XCTAssertEqual(ask(["keypress", "ESC"])["error"] as? String, "success")
        eventually("closed") { preferences() == nil }
        XCTAssertEqual(ask(["quit"])["error"] as? String, "success")
        XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0, reel.stderr)
    }
}
