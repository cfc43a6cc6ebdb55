import Foundation
import ReelCore
import ReelTestSupport
import ReelUI
import Synchronization
import XCTest
@testable import ReelApp

/// The user's input.conf in a real window: real key presses (XTest under Xvfb) run the bound
/// commands on the socket's road, `ignore` unbinds a default key, unbound keys keep the defaults,
/// and the lines that cannot be used are said with their line numbers.
final class InputConfWindowTests: XCTestCase {
    private final class Lines: Sendable { let all = Mutex<[String]>([]) }

    func testIShowsTheStatsForAWhileAndCapitalIKeepsThem() throws {
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("color10s.mp4")])
            defer { h.close() }
            h.wait("playing") { h.player.timeControlStatus == .playing }
            XCTAssertNil(h.window.statsText)
            h.press("i")
            h.wait("the stats shown") { h.window.statsText?.contains("Size: 640×360 at 30 fps") == true }
            let text = h.window.statsText ?? ""
            XCTAssertTrue(text.contains("Video: ") && text.contains("Frames: ") && text.contains("Bitrate: "), text)
            h.wait("gone after 5 s", timeout: 10) { h.window.statsText == nil }
            h.press("shift+i")
            h.wait("I: shown") { h.window.statsText != nil }
            _ = UIRuntime.run(until: { false }, timeout: 6)
            XCTAssertNotNil(h.window.statsText, "I keeps them past 5 s")
            h.press("shift+i")
            h.wait("I again: hidden") { h.window.statsText == nil }
        }
    }

    func testTheVolumeKeyGoesTo130PercentAndNoFurther() throws {
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("color10s.mp4")], play: false)
            defer { h.close() }
            h.wait("loaded") { h.player.status == .readyToPlay }
            XCTAssertEqual(h.player.volume, 1, accuracy: 0.001)
            for _ in 0..<8 { h.press("0") }
            h.wait("130 %") { abs(h.player.volume - 1.3) < 0.001 }
            h.press("0")
            XCTAssertEqual(h.player.volume, 1.3, accuracy: 0.001, "volume-max holds")
            XCTAssertEqual(h.session.state.volumeMax, 1.3)
        }
    }

    func testBoundKeysRunTheirCommandsIgnoreUnbindsAndTheRestStayDefault() throws {
        let dir = TestMedia.temporaryDirectory("reel-input-conf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let conf = dir.appendingPathComponent("input.conf")
        try """
        x cycle pause
        Ctrl+k add volume -10
        SPACE ignore
        a cycle-values aspect stretch fit
        4 add brightness 10
        Hyper+q quit
        y fly away
        """.write(to: conf, atomically: true, encoding: .utf8)
        let said = Lines()
        Log.redirect({ line in said.all.withLock { $0.append(line) } }, levels: [:])
        defer { Log.redirect(nil) }
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("color10s.mp4")], inputConf: conf.path)
            defer { h.close() }
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.press("x")
            h.wait("x: cycle pause") { h.player.intent == .paused }
            h.press("space")  // ignored: the default would play
            _ = UIRuntime.run(until: { false }, timeout: 0.5)
            XCTAssertEqual(h.player.intent, .paused, "SPACE ignore: the default play/pause is unbound")
            h.press("x")
            h.wait("x again: playing") { h.player.intent == .playing }
            let volume = h.player.volume
            h.press("ctrl+k")
            h.wait("Ctrl+k: 10 quieter") { abs(h.player.volume - (volume - 0.1)) < 0.005 }
            h.press("a")
            h.wait("a: stretch, the user's list") { h.player.aspectMode == .stretch }
            h.press("4")
            h.wait("4: brightness 10 (the default step is 1)") { h.player.pictureAdjustments[.brightness] == 10 }
            h.press("m")  // not bound: the default mute
            h.wait("m: muted by the default keys") { h.player.isMuted }
            h.press("question")
            h.wait("the ? window") { h.window.shortcutsRows != nil }
            let rows = h.window.shortcutsRows ?? []
            XCTAssertEqual(rows.first, "Your keys (input.conf)")
            XCTAssertTrue(rows.contains("x — cycle pause") && rows.contains("SPACE — does nothing (unbound)"), "\(rows.prefix(8))")
            XCTAssertTrue(rows.contains("Reel's keys"), "then the defaults")
        }
        let lines = said.all.withLock { $0 }.joined()
        XCTAssertTrue(lines.contains("input.conf:6: unknown key"), lines)
        XCTAssertTrue(lines.contains("input.conf:7: y: Unknown command “fly”"), lines)
    }

    /// `add brightness 1e19` from a binding trapped the window (exit 132, issue 56): every numeric
    /// verb lands within the property's range, whatever the number.
    func testHugeStepsFromBindingsLandWithinTheRange() throws {
        let dir = TestMedia.temporaryDirectory("reel-input-conf-huge")
        defer { try? FileManager.default.removeItem(at: dir) }
        let conf = dir.appendingPathComponent("input.conf")
        try """
        5 add brightness 1e19
        6 multiply hue -1e300
        7 add video-rotate 1e19
        8 add contrast -1e308
        """.write(to: conf, atomically: true, encoding: .utf8)
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("color10s.mp4")], inputConf: conf.path)
            defer { h.close() }
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.press("5")
            h.wait("5: brightness at its top") { h.player.pictureAdjustments[.brightness] == 100 }
            h.press("6")  // hue is 0: the product is 0, a number still
            h.press("8")
            h.wait("8: contrast at its bottom") { h.player.pictureAdjustments[.contrast] == -100 }
            h.press("7")
            _ = UIRuntime.run(until: { false }, timeout: 0.3)
            XCTAssertEqual(h.player.pictureAdjustments[.hue], 0)
            XCTAssertTrue([0, 90, 180, 270].contains(h.player.videoGeometry.rotate), "a right angle")
        }
    }

    /// The mouse in input.conf, as mpv names it (issue 48): real clicks and wheel steps over the
    /// video run the user's commands; `ignore` unbinds the double click's fullscreen; what is not
    /// bound keeps its default (the plain wheel's volume).
    func testMouseButtonsAndTheWheelRunTheUsersBindings() throws {
        let dir = TestMedia.temporaryDirectory("reel-input-conf-mouse")
        defer { try? FileManager.default.removeItem(at: dir) }
        let conf = dir.appendingPathComponent("input.conf")
        try """
        MBTN_RIGHT cycle pause
        MBTN_LEFT_DBL ignore
        Ctrl+WHEEL_UP add speed 0.25
        MBTN_MID set volume 40
        """.write(to: conf, atomically: true, encoding: .utf8)
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("color10s.mp4")], inputConf: conf.path)
            defer { h.close() }
            h.wait("playing") { h.player.timeControlStatus == .playing }
            let v = h.window.videoRect, id = h.window.windowID
            let (x, y) = (v.x + v.width / 2, v.y + v.height / 2)
            XKeyboard.click(window: id, x: x, y: y, button: 3)
            h.wait("MBTN_RIGHT: cycle pause (not the video menu)") { h.player.intent == .paused }
            XKeyboard.click(window: id, x: x, y: y, button: 1, repeat: 2)
            _ = UIRuntime.run(until: { false }, timeout: 0.7)
            XCTAssertFalse(h.session.state.isFullscreen, "MBTN_LEFT_DBL ignore: no fullscreen")
            XKeyboard.click(window: id, x: x, y: y, button: 2)
            h.wait("MBTN_MID: volume 40") { abs(h.player.volume - 0.4) < 0.005 }
            _ = ProcessRunner.run("/usr/bin/xdotool", ["keydown", "ctrl", "click", "4", "keyup", "ctrl"], timeout: 10)
            h.wait("Ctrl+WHEEL_UP: faster") { abs(h.player.rate - 1.25) < 0.001 }
            XCTAssertEqual(h.player.volume, 0.4, accuracy: 0.005, "Ctrl+wheel is the binding's, not the volume's")
            XKeyboard.click(window: id, x: x, y: y, button: 4)
            h.wait("the plain wheel keeps its default: louder") { h.player.volume > 0.41 }
        }
    }
}

/// mpv's autoload in the window: one episode opened plays among its folder's, from itself; a
/// headless run (QA's, scripts') plays only what it was given.
final class AutoloadTests: XCTestCase {
    func testOneEpisodeOpenedQueuesItsSiblingsAroundIt() throws {
        let dir = TestMedia.temporaryDirectory("reel-autoload")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (from, to) in [("gapless-00.mp4", "ep1.mp4"), ("gapless-01.mp4", "ep2.mp4"), ("gapless-02.mp4", "ep10.mp4")] {
            try FileManager.default.copyItem(atPath: TestMedia.path(from), toPath: dir.appendingPathComponent(to).path)
        }
        try "not media".write(to: dir.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let episode = dir.appendingPathComponent("ep2.mp4").path
        try MainActor.assumeIsolated {
            let h = try SessionHarness([episode], play: false, autoload: true)
            defer { h.close() }
            let s = h.session.core.commands.snapshot
            XCTAssertEqual(s.items.map { ($0.uri as NSString).lastPathComponent }, ["ep1.mp4", "ep2.mp4", "ep10.mp4"])
            XCTAssertEqual(s.index, 1, "ep2 is the one that plays")
            h.wait("ep2 loaded") { h.player.currentURI?.hasSuffix("ep2.mp4") == true }
        }
        let headless = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--no-resume", "--audio-sink", "fakesink", "--video-sink", "fakesink", episode],
                                         timeout: 30)
        let finished = headless.jsonObjects.first { $0["event"] as? String == "finished" }
        XCTAssertEqual(finished?["played"] as? Int, 1, "headless: only what was given")
    }
}
