import Foundation
import ReelCore
import ReelTestSupport
import XCTest
@testable import ReelUI

/// Real X input (xdotool/XTEST under Xvfb) into the state-driven window: what each key, click,
/// drag and wheel turn asks for. (ReelAppTests drives the same keys into a real player.)
final class WindowInputTests: XCTestCase {
    private func withWindow(width: Int = 640, height: Int = 400, state: PlayerViewState = WindowHarness.sample(),
                            _ body: @MainActor (WindowHarness) throws -> Void) throws {
        try MainActor.assumeIsolated {
            let h = try WindowHarness(width: width, height: height, state: state)
            defer { h.close() }
            try body(h)
        }
    }

    func testKeysBecomeActions() throws {
        try withWindow { h in
            let table: [(String, UIAction)] = [
                ("space", .playPause), ("p", .playPause), ("f", .toggleFullscreen), ("F11", .toggleFullscreen),
                ("m", .toggleMute), ("9", .setVolume(0.75)), ("0", .setVolume(0.85)),
                ("Left", .skip(by: -5)), ("Right", .skip(by: 5)), ("Up", .skip(by: 60)), ("Down", .skip(by: -60)),
                ("shift+Left", .skip(by: -1)), ("shift+Right", .skip(by: 1)),
                ("bracketleft", .setRate(0.75)), ("bracketright", .setRate(1.25)), ("BackSpace", .resetRate),
                ("period", .frameStep(forward: true)), ("comma", .frameStep(forward: false)),
                ("less", .previous), ("greater", .next), ("s", .captureFrame), ("ctrl+s", .captureWindow),
                ("q", .quit), ("F9", .togglePlaylist),
            ]
            for (chord, expected) in table {
                XCTAssertEqual(h.press(chord), [expected], chord)
            }
        }
    }

    func testEscapeLeavesFullscreen() throws {
        var s = WindowHarness.sample()
        s.isFullscreen = true
        try withWindow(state: s) { h in
            XCTAssertEqual(h.press("Escape"), [.toggleFullscreen])
        }
    }

    func testDialogsAndShortcutsWindowOpenFromTheKeyboard() throws {
        try withWindow { h in
            XKeyboard.key("ctrl+l", window: h.window.windowID)
            XCTAssertTrue(UIRuntime.run(until: { h.window.openDialog == "open-url" }, timeout: 3))
            UIRuntime.settle()
            XKeyboard.type("http://127.0.0.1:9/x.mp4")
            XKeyboard.key("Return")
            XCTAssertTrue(UIRuntime.run(until: { !h.actions.isEmpty }, timeout: 3))
            XCTAssertEqual(h.actions.last, .openURL("http://127.0.0.1:9/x.mp4"))
            XCTAssertNil(h.window.openDialog)

            XKeyboard.key("ctrl+o", window: h.window.windowID)
            XCTAssertTrue(UIRuntime.run(until: { h.window.openDialog == "open-files" }, timeout: 3))
            UIRuntime.settle()
            let file = TestMedia.path("clip2s.mp4")
            XKeyboard.type(file)  // "/" opens the chooser's location entry
            UIRuntime.settle()
            XKeyboard.key("Return")
            XCTAssertTrue(UIRuntime.run(until: { h.actions.count >= 2 }, timeout: 5))
            XCTAssertEqual(h.actions.last, .openFiles([file]))

            XKeyboard.key("question", window: h.window.windowID)
            XCTAssertTrue(UIRuntime.run(until: { h.window.isShortcutsWindowOpen }, timeout: 3))
            UIRuntime.settle()
            XKeyboard.key("Escape")
            XCTAssertTrue(UIRuntime.run(until: { !h.window.isShortcutsWindowOpen }, timeout: 3))
        }
    }

    func testDoubleClickOnVideoTogglesFullscreenAndWheelChangesVolume() throws {
        try withWindow { h in
            let v = h.window.videoRect
            let id = h.window.windowID
            XKeyboard.click(window: id, x: v.x + v.width / 2, y: v.y + v.height / 2, button: 1, repeat: 2)
            XCTAssertTrue(UIRuntime.run(until: { h.actions.contains(.toggleFullscreen) }, timeout: 3))
            h.actions.removeAll()
            XKeyboard.click(window: id, x: v.x + v.width / 2, y: v.y + v.height / 2, button: 4)
            XCTAssertTrue(UIRuntime.run(until: { !h.actions.isEmpty }, timeout: 3))
            XCTAssertEqual(h.actions.first, .setVolume(0.85))
            h.actions.removeAll()
            XKeyboard.click(window: id, x: v.x + v.width / 2, y: v.y + v.height / 2, button: 5)
            XCTAssertTrue(UIRuntime.run(until: { !h.actions.isEmpty }, timeout: 3))
            XCTAssertEqual(h.actions.first, .setVolume(0.75))
        }
    }

    func testClickOnTheSeekBarSeeksOnce() throws {
        try withWindow(state: WindowHarness.sample(position: 0)) { h in
            let r = h.window.seekBarRect
            XKeyboard.click(window: h.window.windowID, x: r.x + r.width * 3 / 4, y: r.y + r.height / 2)
            XCTAssertTrue(UIRuntime.run(until: { h.actions.contains { if case .seek = $0 { true } else { false } } }, timeout: 3))
            UIRuntime.spin(for: 0.2)
            let seeks = h.actions.compactMap { if case .seek(let t) = $0 { t } else { nil } }
            XCTAssertEqual(seeks.count, 1, "one seek, on release: \(h.actions)")
            XCTAssertEqual(seeks.first ?? 0, 7.5, accuracy: 1.0, "clicked at three quarters of 10 s")
            XCTAssertEqual(h.window.timeTexts.elapsed, TimeFormat.clock(seeks.first ?? 0), "the label shows the target until the state catches up")
        }
    }

    func testDraggingTheSeekBarShowsTheTargetAndSeeksOnRelease() throws {
        try withWindow(state: WindowHarness.sample(position: 0)) { h in
            h.window.sendPointerToSeekBar(.press, at: 0.2)
            UIRuntime.settle()
            for f in stride(from: 0.25, through: 0.6, by: 0.05) {
                h.window.sendPointerToSeekBar(.drag, at: f)
                UIRuntime.spin(for: 0.02)
            }
            UIRuntime.spin(for: 0.2)
            let seeksWhileDragging = h.actions.filter { if case .seek = $0 { true } else { false } }
            XCTAssertEqual(seeksWhileDragging, [], "no seek while the handle is held")
            let shown = try XCTUnwrap(TimeFormat.parse(h.window.timeTexts.elapsed), h.window.timeTexts.elapsed)
            XCTAssertEqual(shown, 6, accuracy: 1.0, "the elapsed label shows the drag target (60 % of 10 s)")
            h.window.sendPointerToSeekBar(.release, at: 0.6)
            XCTAssertTrue(UIRuntime.run(until: { h.actions.contains { if case .seek = $0 { true } else { false } } }, timeout: 3), "\(h.actions)")
            UIRuntime.spin(for: 0.2)
            let seeks = h.actions.compactMap { if case .seek(let t) = $0 { t } else { nil } }
            XCTAssertEqual(seeks.count, 1, "one seek, on release: \(h.actions)")
            XCTAssertEqual(seeks.first ?? 0, 6, accuracy: 1.0)
        }
    }

    func testDroppedFilesAndURLsOpen() throws {
        try withWindow { h in
            // A file manager's drop: a URI list (CRLF, a comment line allowed by RFC 2483).
            XCTAssertTrue(h.window.simulateDrop("# from a file manager\r\nfile:///media/a%20b.mp4\r\nhttps://example.com/live/master.m3u8\r\n"))
            XCTAssertTrue(UIRuntime.run(until: { !h.actions.isEmpty }, timeout: 3))
            XCTAssertEqual(h.actions, [.openFiles(["file:///media/a%20b.mp4", "https://example.com/live/master.m3u8"])])
            h.actions.removeAll()
            // A browser's drop of a link as plain text.
            XCTAssertTrue(h.window.simulateDrop("https://example.com/clip.mp4", target: "text/plain;charset=utf-8"))
            XCTAssertTrue(UIRuntime.run(until: { !h.actions.isEmpty }, timeout: 3))
            XCTAssertEqual(h.actions, [.openFiles(["https://example.com/clip.mp4"])])
            h.actions.removeAll()
            // Nothing usable: no action.
            XCTAssertTrue(h.window.simulateDrop("   \n", target: "text/plain;charset=utf-8"))
            UIRuntime.spin(for: 0.2)
            XCTAssertEqual(h.actions, [])
        }
    }

    func testPlaylistDoubleClickPlaysDeleteRemoves() throws {
        var s = WindowHarness.sample()
        s.isPlaylistVisible = true
        s.playlist = (0..<4).map { PlaylistRow(title: "item-\($0).mp4", duration: Double($0 + 1), isCurrent: $0 == 0) }
        try withWindow(width: 800, height: 400, state: s) { h in
            // Select the second row, press Delete (a real key event).
            h.window.selectPlaylistRow(1)
            h.window.focusPlaylist()
            UIRuntime.settle()
            XKeyboard.key("Delete")
            XCTAssertTrue(UIRuntime.run(until: { h.actions.contains(.removeItem(1)) }, timeout: 3), "\(h.actions)")
            XCTAssertEqual(h.window.playlistSelection, 1, "the panel does not edit itself; the next state does")
        }
    }
}
