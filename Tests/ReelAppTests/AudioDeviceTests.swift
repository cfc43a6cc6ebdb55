import Foundation
import ReelTestSupport
import XCTest

/// Issue 60: the sound's output chosen from Reel (mpv's `audio-device`, `audio-device-list`,
/// `--audio-device`), on a real PulseAudio with two sinks: the list names both, a choice moves the
/// playing stream there (PulseAudio says which sink it is on), and the command line starts there.
final class AudioDeviceTests: XCTestCase {
    private var requestID = 0
    private func ask(_ c: IPCTestClient, _ command: [Any]) -> [String: Any] { requestID += 1; return c.request(command, id: requestID) ?? [:] }

    private func eventually(_ what: String, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline { usleep(100_000) }
        XCTAssertTrue(condition(), what)
    }

    private func sinkOfOurStream(_ pulse: PulseAudioServer) -> String? {
        let sinks = Dictionary(uniqueKeysWithValues: pulse.pactl(["list", "short", "sinks"]).lines.compactMap { line -> (String, String)? in
            let f = line.split(separator: "\t").map(String.init)
            return f.count >= 2 ? (f[0], f[1]) : nil
        })
        let input = pulse.pactl(["list", "short", "sink-inputs"]).lines.first?.split(separator: "\t").map(String.init)
        return input.flatMap { $0.count >= 2 ? sinks[$0[1]] : nil }
    }

    func testTheListTheChoiceAndTheCommandLine() throws {
        let pulse = try PulseAudioServer(modules: ["module-null-sink sink_name=reel_headphones sink_properties=device.description=Headphones"])
        defer { pulse.stop() }
        let dir = TestMedia.temporaryDirectory("reel-audio-device")
        defer { try? FileManager.default.removeItem(at: dir) }
        for fromCommandLine in [false, true] {
            let socket = dir.appendingPathComponent("d\(fromCommandLine).sock").path
            // No --audio-sink: playbin3's own choice (autoaudiosink), which finds the server.
            let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--ipc", socket, "--no-resume", "--video-sink", "fakesink sync=true"]
                                             + (fromCommandLine ? ["--audio-device", "pulse/reel_headphones"] : []) + [TestMedia.path("color10s.mp4")],
                                             environment: pulse.environment)
            defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
            let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
            eventually("playing on a sink") { sinkOfOurStream(pulse) != nil }
            if fromCommandLine {
                eventually("--audio-device started it there") { sinkOfOurStream(pulse) == "reel_headphones" }
                XCTAssertEqual(ask(c, ["get_property", "audio-device"])["data"] as? String, "pulse/reel_headphones")
            } else {
                XCTAssertEqual(sinkOfOurStream(pulse), "reel_test_sink", "the server's default")
                XCTAssertEqual(ask(c, ["get_property", "audio-device"])["data"] as? String, "auto")
                let list = ask(c, ["get_property", "audio-device-list"])["data"] as? [[String: Any]] ?? []
                XCTAssertEqual(list.first?["name"] as? String, "auto")
                XCTAssertTrue(list.contains { $0["name"] as? String == "pulse/reel_headphones" && $0["description"] as? String == "Headphones" }, "\(list)")
                XCTAssertTrue(list.contains { $0["name"] as? String == "pulse/reel_test_sink" }, "\(list)")
                XCTAssertEqual(ask(c, ["set_property", "audio-device", "pulse/reel_headphones"])["error"] as? String, "success")
                eventually("the playing stream moved to the headphones") { sinkOfOurStream(pulse) == "reel_headphones" }
                XCTAssertEqual(ask(c, ["set_property", "audio-device", "pulse/nothing-here"])["error"] as? String, "unavailable")
                XCTAssertEqual(ask(c, ["set_property", "audio-device", "auto"])["error"] as? String, "success")
                eventually("back to the default") { sinkOfOurStream(pulse) == "reel_test_sink" }
            }
            XCTAssertEqual(ask(c, ["quit"])["error"] as? String, "success")
            XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0, reel.stderr)
        }
    }

    /// Headphones unplugged mid-play (their sink unloaded): the sound goes on on the default
    /// output, the position keeps moving, the item does not fail, and Reel says so (a warning,
    /// `audio-device` back to auto).
    func testAnOutputThatGoesAwayFallsBackToTheDefaultWithoutStopping() throws {
        let pulse = try PulseAudioServer(modules: ["module-null-sink sink_name=reel_headphones sink_properties=device.description=Headphones"])
        defer { pulse.stop() }
        let dir = TestMedia.temporaryDirectory("reel-audio-unplug")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("u.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--ipc", socket, "--no-resume", "--events", "--video-sink", "fakesink sync=true",
                                                                       "--audio-device", "pulse/reel_headphones", TestMedia.path("long60s.mp4")],
                                         environment: pulse.environment)
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        eventually("playing on the headphones") { sinkOfOurStream(pulse) == "reel_headphones" && (ask(c, ["get_property", "time-pos"])["data"] as? Double ?? 0) > 0.5 }
        let module = pulse.pactl(["list", "short", "modules"]).lines.first { $0.contains("reel_headphones") }?.split(separator: "\t").first.map(String.init)
        XCTAssertEqual(pulse.pactl(["unload-module", try XCTUnwrap(module)]).status, 0)
        let before = ask(c, ["get_property", "time-pos"])["data"] as? Double ?? 0
        eventually("on the default output") { sinkOfOurStream(pulse) == "reel_test_sink" }
        eventually("the position moves on") { (ask(c, ["get_property", "time-pos"])["data"] as? Double ?? 0) > before + 1.5 }
        XCTAssertEqual(ask(c, ["get_property", "time-control"])["data"] as? String, "playing")
        eventually("audio-device says auto") { ask(c, ["get_property", "audio-device"])["data"] as? String == "auto" }
        XCTAssertFalse(reel.stdout.contains("\"event\":\"error\""), reel.stdout)
        XCTAssertTrue(reel.stdout.contains("Headphones") || reel.stdout.contains("reel_headphones"), "a warning names the output that went: \(reel.stdout.suffix(800))")
        XCTAssertEqual(ask(c, ["quit"])["error"] as? String, "success")
        XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0, reel.stderr)
    }

    /// The window's right-click menu, "Sound output" (with the pointer and the keys, over the
    /// socket): it lists the server's outputs by their descriptions, the one in force checked, and
    /// choosing "Headphones" moves the playing stream there.
    func testTheSoundOutputMenuListsTheOutputsAndMovesTheStreamOnXvfb() throws { try soundOutputMenu(weston: false) }
    /// On Wayland: weston's x11 backend (a seat for the right click; no Xwayland).
    func testTheSoundOutputMenuListsTheOutputsAndMovesTheStreamOnWeston() throws { try soundOutputMenu(weston: true) }

    private func soundOutputMenu(weston onWeston: Bool) throws {
        let weston = onWeston ? try WestonSession(xwayland: false, width: 1200, height: 750, backend: .x11) : nil
        defer { weston?.stop() }
        let pulse = try PulseAudioServer(modules: ["module-null-sink sink_name=reel_headphones sink_properties=device.description=Headphones"])
        defer { pulse.stop() }
        let dir = TestMedia.temporaryDirectory("reel-audio-menu")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("m.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--ipc", socket, "--no-resume", "--no-mpris", "--autoload=no",
                                                                       TestMedia.path("long60s.mp4")],
                                         environment: (weston?.environment ?? [:]).merging(pulse.environment.merging(["GTK_CSD": "0", "XDG_STATE_HOME": dir.path]) { $1 }) { $1 })
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket, timeout: 20), reel.stderr)
        func popups() -> [[[String: Any]]] {
            (ask(c, ["window-tree"])["data"] as? [[String: Any]] ?? []).filter { $0["main"] as? Bool == false }.map { $0["widgets"] as? [[String: Any]] ?? [] }
        }
        eventually("playing on the default") { sinkOfOurStream(pulse) == "reel_test_sink" }
        let video = try XCTUnwrap((ask(c, ["window-tree"])["data"] as? [[String: Any]])?.first?["widgets"] as? [[String: Any]]).first { $0["name"] as? String == "Video" }
        var items: [String] = []
        func submenu() -> [String] {
            popups().first { !$0.contains { $0["id"] as? String == "reel-sound-output" } && $0.contains { $0["name"] as? String == "Headphones" } }?
                .filter { $0["role"] as? String == "radio menu item" }.compactMap { $0["name"] as? String } ?? []
        }
        // The right click opens the menu; from the keys, Up from none is the last item (Preferences…
        // then Forget this file below it: Up twice more is Sound output) and Right opens it. Under
        // load the first keys can come before the menu has the keyboard: then again from the start.
        for attempt in 1...3 where !items.contains("Headphones") {
            if attempt > 1 { _ = ask(c, ["keypress", "ESC"]); usleep(300_000) }
            XCTAssertEqual(ask(c, ["mouse", (video?["width"] as? Int ?? 0) / 2, (video?["height"] as? Int ?? 0) / 2, 2])["error"] as? String, "success")
            eventually("the menu is open") { popups().contains { $0.contains { $0["id"] as? String == "reel-sound-output" } } }
            usleep(200_000)
            for key in ["UP", "UP", "UP", "RIGHT"] { XCTAssertEqual(ask(c, ["keypress", key])["error"] as? String, "success") }
            let deadline = Date().addingTimeInterval(3)
            repeat { items = submenu(); if !items.contains("Headphones") { usleep(100_000) } } while !items.contains("Headphones") && Date() < deadline
        }
        XCTAssertTrue(items.contains("Headphones"), "its submenu lists the outputs")
        XCTAssertEqual(items.first, "The system's default", "\(items)")
        let submenu = popups().first { $0.contains { $0["name"] as? String == "Headphones" } } ?? []
        let checked = submenu.first { $0["role"] as? String == "radio menu item" && $0["checked"] as? Bool == true }?["name"] as? String
        XCTAssertEqual(checked, "The system's default")
        // The submenu opened from the keys has its first item selected: Down to the headphones.
        let steps = try XCTUnwrap(items.firstIndex(of: "Headphones"))
        for _ in 0..<steps { XCTAssertEqual(ask(c, ["keypress", "DOWN"])["error"] as? String, "success") }
        XCTAssertEqual(ask(c, ["keypress", "ENTER"])["error"] as? String, "success")
        eventually("the stream moved to the headphones") { sinkOfOurStream(pulse) == "reel_headphones" }
        XCTAssertEqual(ask(c, ["get_property", "audio-device"])["data"] as? String, "pulse/reel_headphones")
        XCTAssertEqual(ask(c, ["quit"])["error"] as? String, "success")
        XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0, reel.stderr)

        // Remembered (0600; not under --geometry or --no-remember-window, as the window's size):
        // the next window starts on the headphones; with them gone, on the default, and it says so.
        let kept = dir.appendingPathComponent("reel/audio-device")
        XCTAssertEqual(try String(contentsOf: kept, encoding: .utf8), "pulse/reel_headphones\n")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: kept.path)[.posixPermissions] as? Int, 0o600)
        for present in [true, false] {
            if !present {
                let module = pulse.pactl(["list", "short", "modules"]).lines.first { $0.contains("reel_headphones") }?.split(separator: "\t").first.map(String.init)
                XCTAssertEqual(pulse.pactl(["unload-module", try XCTUnwrap(module)]).status, 0)
            }
            let again = try BackgroundProcess(ProcessRunner.reelExecutable, ["--no-resume", "--no-mpris", "--autoload=no", "--events", TestMedia.path("long60s.mp4")],
                                              environment: (weston?.environment ?? [:]).merging(pulse.environment.merging(["GTK_CSD": "0", "XDG_STATE_HOME": dir.path]) { $1 }) { $1 })
            defer { _ = again.finish(timeout: 5, dumpStacks: false) }
            eventually(present ? "the next window plays on the headphones" : "on the default without them") {
                sinkOfOurStream(pulse) == (present ? "reel_headphones" : "reel_test_sink")
            }
            if !present { eventually("it says so") { again.stdout.contains("There is no sound output") } }
            again.process.terminate()
            _ = again.finish(timeout: 10, dumpStacks: false)
        }
    }
}
