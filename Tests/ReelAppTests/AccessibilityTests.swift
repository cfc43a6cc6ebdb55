import Foundation
import ReelTestSupport
import XCTest

/// The window as a screen reader reads it (issue 50): the real binary with GTK's AT-SPI bridge on
/// (the suite runs with NO_AT_BRIDGE=1; this test takes it away for reel), its tree read over
/// the accessibility bus by Resources/scripts/atspi-tree.py, as Orca reads it.
final class AccessibilityTests: XCTestCase {
    private static let controlRoles: Set<String> = ["push button", "toggle button", "slider", "menu item", "combo box", "check box", "radio button",
                                                   "check menu item", "radio menu item", "spin button"]

    /// `reel`'s window's tree. `required`: the application must be on the bus (else the caller
    /// waits and asks again). Read by its process: a lane's tests share one accessibility bus, where
    /// an earlier test's reel may still be on its way out (a CI run read such a one for 40 s).
    private func tree(of reel: BackgroundProcess, timeout: Double = 20, required: Bool = true) -> [[String: Any]] {
        let r = ProcessRunner.run("/usr/bin/python3", [TestMedia.packageRoot.appendingPathComponent("Resources/scripts/atspi-tree.py").path, "reel", String(Int(timeout)),
                                                       String(reel.process.processIdentifier)],
                                  timeout: timeout + 20)
        if required { XCTAssertEqual(r.status, 0, r.stderr) }
        return r.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    private func shown(_ nodes: [[String: Any]], role: String? = nil) -> [[String: Any]] {
        nodes.filter { node in node["showing"] as? Bool == true && (role.map { node["role"] as? String == $0 } ?? true) }
    }

    func testEveryShownControlHasANameAndSaysItsState() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no X display: run under xvfb-run (make test does)") }
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-a11y")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        let reel = try BackgroundProcess("/usr/bin/env", ["-u", "NO_AT_BRIDGE", ProcessRunner.reelExecutable, "--no-mpris", "--autoload=no", "--no-resume",
                                                          "--ipc", socket, "--audio-sink", "fakesink sync=true",
                                                          TestMedia.path("color10s.mp4"), TestMedia.path("clip2s.mp4")])
        defer { reel.finish(timeout: 10) }
        let client = try XCTUnwrap(IPCTestClient(path: socket, timeout: 30), reel.stderr)
        let deadline = Date().addingTimeInterval(20)
        while client.request(["get_property", "time-control"], id: 1)?["data"] as? String != "playing" && Date() < deadline { usleep(100_000) }

        var nodes = tree(of: reel)
        let controls = shown(nodes).filter { Self.controlRoles.contains($0["role"] as? String ?? "") }
        XCTAssertGreaterThanOrEqual(controls.count, 10, "the controls are on the bus: \(nodes.prefix(40))")
        XCTAssertEqual(controls.filter { ($0["name"] as? String ?? "").isEmpty }.map { $0["role"] as? String ?? "?" }, [],
                       "every shown control has a name: \(controls.map { "\($0["role"] ?? "?") “\($0["name"] ?? "")”" })")
        let names = Set(controls.compactMap { $0["name"] as? String })
        for expected in ["Pause", "Seek", "Volume", "Mute", "Speed", "Next item", "Show the playlist", "Fullscreen"] {
            XCTAssertTrue(names.contains(expected), "“\(expected)” among \(names.sorted())")
        }
        let seek = try XCTUnwrap(shown(nodes, role: "slider").first { $0["name"] as? String == "Seek" })
        XCTAssertNotNil((seek["description"] as? String)?.range(of: #"^0:\d\d of 0:10$"#, options: .regularExpression),
                        "the seek bar says its position and the duration: \(seek)")
        let volume = try XCTUnwrap(shown(nodes, role: "slider").first { $0["name"] as? String == "Volume" })
        XCTAssertEqual(volume["description"] as? String, "100 %", "the volume says its level")

        // The state follows: paused, the button says Play; muted, Unmute; the playlist shown is a
        // named list a screen reader walks, with a row per item.
        XCTAssertEqual(client.request(["set_property", "pause", true], id: 2)?["error"] as? String, "success")
        XCTAssertEqual(client.request(["set_property", "mute", true], id: 3)?["error"] as? String, "success")
        let window = ProcessRunner.run("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", "color10s.mp4 — Reel"], timeout: 20)
        let id = try XCTUnwrap(window.stdout.split(separator: "\n").first.map(String.init), window.stderr)
        XCTAssertTrue(XKeyboard.key("F9", window: UInt(id) ?? 0))
        usleep(500_000)
        nodes = tree(of: reel)
        let names2 = Set(shown(nodes).compactMap { $0["name"] as? String })
        XCTAssertTrue(names2.contains("Play"), "paused: the button says Play: \(names2.sorted())")
        XCTAssertTrue(names2.contains("Unmute"), "muted: Unmute")
        XCTAssertTrue(names2.contains("Hide the playlist"))
        let list = try XCTUnwrap(shown(nodes).first { $0["name"] as? String == "Playlist" }, "the playlist is named")
        XCTAssertEqual(list["role"] as? String, "table")
        let cells = shown(nodes, role: "table cell").compactMap { $0["name"] as? String }
        XCTAssertTrue(cells.contains("color10s.mp4") && cells.contains("clip2s.mp4"), "its rows are readable: \(cells)")
        XCTAssertEqual(client.request(["quit"], id: 4)?["error"] as? String, "success")
    }

    /// Every button is reached by keyboard (issue 50): the focus starts on the video, Tab walks
    /// the controls in order and a screen reader is told which has it; Enter activates the one
    /// focused; the player's own keys (space) stay the player's while a button has the focus.
    func testTabReachesTheControlsAndEnterActivatesTheFocusedOne() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no X display: run under xvfb-run (make test does)") }
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-a11y-keys")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        let reel = try BackgroundProcess("/usr/bin/env", ["-u", "NO_AT_BRIDGE", ProcessRunner.reelExecutable, "--no-mpris", "--autoload=no", "--no-resume",
                                                          "--ipc", socket, "--audio-sink", "fakesink sync=true", TestMedia.path("color10s.mp4")])
        defer { reel.finish(timeout: 10) }
        let client = try XCTUnwrap(IPCTestClient(path: socket, timeout: 30), reel.stderr)
        let deadline = Date().addingTimeInterval(20)
        while client.request(["get_property", "time-control"], id: 1)?["data"] as? String != "playing" && Date() < deadline { usleep(100_000) }
        let window = ProcessRunner.run("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", "color10s.mp4 — Reel"], timeout: 20)
        let id = try XCTUnwrap(window.stdout.split(separator: "\n").first.map(String.init).flatMap(UInt.init), window.stderr)
        func focused() -> [String] {
            shown(tree(of: reel)).filter { ($0["states"] as? [String] ?? []).contains("focused") && $0["role"] as? String != "frame" }
                .map { "\($0["role"] ?? "?") \($0["name"] ?? "")" }
        }
        XCTAssertEqual(focused(), ["drawing area Video"], "the focus starts on the video")
        XCTAssertTrue(XKeyboard.key("Tab", "Tab", window: id))
        usleep(300_000)
        XCTAssertEqual(focused(), ["push button Pause"], "Tab, Tab: the second control (after Back 10 seconds)")
        func pause(becomes value: Bool) -> Bool {
            for _ in 0..<30 {
                if client.request(["get_property", "pause"], id: 2)?["data"] as? Bool == value { return true }
                usleep(100_000)
            }
            return false
        }
        XCTAssertTrue(XKeyboard.key("Return", window: id))
        XCTAssertTrue(pause(becomes: true), "Enter pressed the focused button")
        XCTAssertEqual(focused(), ["push button Play"], "it says what it does now, and keeps the focus")
        XCTAssertTrue(XKeyboard.key("space", window: id))
        XCTAssertTrue(pause(becomes: false), "space is still the player's play/pause")
        XCTAssertTrue(XKeyboard.key("Tab", window: id))
        usleep(300_000)
        XCTAssertEqual(focused(), ["push button Forward 10 seconds"])
        XCTAssertEqual(client.request(["quit"], id: 4)?["error"] as? String, "success")
    }

    /// The same window under `LANGUAGE=de` (issue 50): the names a screen reader says are German
    /// (at least eight of them differ from the English ones), from po/de.po.
    func testUnderLanguageDeTheControlsAreNamedInGerman() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no X display: run under xvfb-run (make test does)") }
        TestMedia.ensureGenerated()
        func names(_ language: String) throws -> [String] {
            let reel = try BackgroundProcess("/usr/bin/env", ["-u", "NO_AT_BRIDGE", "LANG=C.UTF-8", "LANGUAGE=\(language)", ProcessRunner.reelExecutable,
                                                              "--no-mpris", "--autoload=no", "--no-resume", "--audio-sink", "fakesink sync=true",
                                                              TestMedia.path("color10s.mp4")])
            defer { reel.finish(timeout: 1, dumpStacks: false) }
            usleep(1_500_000)
            let controls = shown(tree(of: reel)).filter { Self.controlRoles.contains($0["role"] as? String ?? "") }
            return controls.compactMap { $0["name"] as? String }
        }
        let english = try names("en")
        let german = try names("de")
        XCTAssertEqual(english.count, german.count, "the same controls: \(english) \(german)")
        let changed = zip(english, german).filter { $0 != $1 }
        XCTAssertGreaterThanOrEqual(changed.count, 8, "translated: \(changed)")
        for word in ["Lautstärke", "Geschwindigkeit", "Vollbild", "Wiedergabeliste anzeigen", "Nächster Titel"] {
            XCTAssertTrue(german.contains(word), "“\(word)” among \(german)")
        }
    }

    /// The preferences window (issue 60) on the accessibility bus, in English and under
    /// `LANGUAGE=de`: every control in it has a name, the check boxes say whether they are checked,
    /// and the names are the catalogue's.
    func testThePreferencesWindowsControlsAreNamedAndSayTheirState() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no X display: run under xvfb-run (make test does)") }
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-a11y-prefs")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (language, hwdec, volume) in [("en", "Hardware decoding", "Loudest volume (%):"), ("de", "Hardware-Dekodierung", "Größte Lautstärke (%):")] {
            let socket = dir.appendingPathComponent("\(language).sock").path
            let reel = try BackgroundProcess("/usr/bin/env", ["-u", "NO_AT_BRIDGE", "LANG=C.UTF-8", "LANGUAGE=\(language)", "XDG_CONFIG_HOME=\(dir.path)",
                                                              ProcessRunner.reelExecutable, "--no-mpris", "--autoload=no", "--no-resume", "--pause",
                                                              "--ipc", socket, "--audio-sink", "fakesink sync=true", TestMedia.path("color10s.mp4")])
            defer { reel.finish(timeout: 5, dumpStacks: false) }
            let client = try XCTUnwrap(IPCTestClient(path: socket, timeout: 30), reel.stderr)
            XCTAssertEqual(client.request(["keypress", "Ctrl+,"], id: 1)?["error"] as? String, "success")
            var nodes: [[String: Any]] = []
            let deadline = Date().addingTimeInterval(20)
            repeat {
                nodes = shown(tree(of: reel))
                if nodes.contains(where: { $0["name"] as? String == hwdec }) { break }
                usleep(300_000)
            } while Date() < deadline
            let box = try XCTUnwrap(nodes.first { $0["name"] as? String == hwdec }, "\(language): \(nodes.compactMap { $0["name"] })")
            XCTAssertEqual(box["role"] as? String, "check box")
            XCTAssertTrue((box["states"] as? [String] ?? []).contains("checked"), "what is in force: \(box)")
            XCTAssertTrue(nodes.contains { $0["role"] as? String == "spin button" && $0["name"] as? String == volume }, "\(nodes.compactMap { $0["name"] })")
            let controls = nodes.filter { ["check box", "spin button", "combo box", "text"].contains($0["role"] as? String ?? "") }
            XCTAssertGreaterThanOrEqual(controls.count, 8, "\(controls)")
            XCTAssertEqual(controls.filter { ($0["name"] as? String ?? "").isEmpty }.map { $0["role"] as? String ?? "?" }, [], "every control is named")
            XCTAssertEqual(client.request(["quit"], id: 2)?["error"] as? String, "success")
        }
    }

    /// An error is in the tree where a screen reader looks for it: a showing info bar (Orca reads
    /// an info bar as it appears) whose label is the error's text.
    func testAnErrorBannerIsAShowingInfoBarWithItsText() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no X display: run under xvfb-run (make test does)") }
        let reel = try BackgroundProcess("/usr/bin/env", ["-u", "NO_AT_BRIDGE", ProcessRunner.reelExecutable, "--no-mpris", "--autoload=no", "--no-resume",
                                                          "--audio-sink", "fakesink sync=true", "/nonexistent/film.mp4"])
        defer { reel.finish(timeout: 1, dumpStacks: false) }
        var nodes: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(40)
        repeat {
            nodes = tree(of: reel, timeout: 10, required: false)
            if shown(nodes, role: "info bar").contains(where: { $0["name"] as? String == "Error" }) { break }
            usleep(300_000)
        } while Date() < deadline
        let i = try XCTUnwrap(nodes.firstIndex { $0["role"] as? String == "info bar" && $0["showing"] as? Bool == true && $0["name"] as? String == "Error" },
                              "a showing error info bar: \(nodes.filter { $0["showing"] as? Bool == true }.prefix(20))")
        let depth = nodes[i]["depth"] as? Int ?? 0
        let inside = nodes[(i + 1)...].prefix { ($0["depth"] as? Int ?? 0) > depth }
        XCTAssertTrue(inside.contains { $0["role"] as? String == "label" && ($0["name"] as? String ?? "").contains("The file does not exist") },
                      "its label is the error: \(Array(inside))")
    }
}

