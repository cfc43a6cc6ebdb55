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
            // The built-in input.conf's keys come as its commands (run on the socket's road by
            // the session); the window's own as actions.
            let table: [(String, UIAction)] = [
                ("space", .command("cycle pause")), ("p", .command("cycle pause")), ("f", .command("cycle fullscreen")), ("F11", .command("cycle fullscreen")),
                ("m", .command("cycle mute")), ("9", .command("add volume -5")), ("0", .command("add volume 5")),
                ("Left", .command("seek -5")), ("Right", .command("seek 5")), ("Up", .command("seek 60")), ("Down", .command("seek -60")),
                ("shift+Left", .command("seek -1")), ("shift+Right", .command("seek 1")),
                ("bracketleft", .setRate(0.75)), ("bracketright", .setRate(1.25)), ("BackSpace", .command("set speed 1")),
                ("period", .command("frame-step")), ("comma", .command("frame-back-step")),
                ("less", .command("playlist-prev")), ("greater", .command("playlist-next")), ("s", .captureFrame), ("ctrl+s", .captureWindow),
                ("q", .quit), ("F9", .togglePlaylist),
            ]
            for (chord, expected) in table {
                XCTAssertEqual(h.press(chord), [expected], chord)
            }
        }
    }

    func testChaptersAreMarksUnderTheSeekBarListedInItsTooltipAndPageKeysStepThem() throws {
        let plain = WindowHarness.sample(position: 4)
        var chaptered = plain
        chaptered.chapters = [Chapter(title: "Opening", time: 0), Chapter(title: "Middle part", time: 3), Chapter(title: nil, time: 6.5)]
        try withWindow(state: plain) { h in
            XCTAssertEqual(h.press("Page_Up"), [.command("add chapter 1")], "the window's own, never the speed control's paging (the session finds no chapter)")
            XCTAssertEqual(h.window.seekBarTooltip, "Seek")
            let before = try h.capture("no-chapters")
            h.window.render(chaptered)
            UIRuntime.settle()
            let after = try h.capture("chapters")
            // The marks: pixels under the bar change, at the chapters' places and nowhere else.
            let bar = h.window.seekBarRect
            let changed = ScreenshotGolden.differingPixels(before, after, x: bar.x, y: bar.y, width: bar.width, height: bar.height) ?? 0
            XCTAssertGreaterThan(changed, 6, "three marks drawn under the bar")
            let outside = ScreenshotGolden.differingPixels(before, after, x: 0, y: 0, width: 640, height: bar.y - 2) ?? -1
            XCTAssertEqual(outside, 0, "nothing above the seek row changed")
            let tooltip = h.window.seekBarTooltip ?? ""
            XCTAssertEqual(tooltip.split(separator: "\n").map(String.init),
                           ["Seek — chapters (PgUp, PgDn):", "   0:00  Opening", "▶ 0:03  Middle part", "   0:06  Chapter 3"])
            XCTAssertEqual(h.press("Page_Up"), [.command("add chapter 1")], "mpv: PGUP add chapter 1")
            XCTAssertEqual(h.press("Page_Down"), [.command("add chapter -1")], "mpv: PGDWN add chapter -1")
        }
    }

    /// 10,000 chapters froze the window ~100 s (GTK 3 adds marks one by one): the bar draws one
    /// mark per few pixels, the tooltip lists the chapters around the one playing, and the
    /// window still answers a key at once after the render.
    func testTenThousandChaptersAreMergedMarksAndABoundedTooltip() throws {
        var many = WindowHarness.sample(position: 4)
        many.duration = 10
        many.chapters = (0..<10_000).map { Chapter(title: "C\($0)", time: Double($0) * 0.001) }
        try withWindow(state: WindowHarness.sample(position: 4)) { h in
            h.window.render(many)
            UIRuntime.settle()
            let width = h.window.seekBarRect.width
            XCTAssertGreaterThan(h.window.chapterMarkCount, 0)
            XCTAssertLessThanOrEqual(h.window.chapterMarkCount, width / 3 + 1, "one mark per 3 pixels at most on a \(width) px bar")
            let lines = (h.window.seekBarTooltip ?? "").split(separator: "\n")
            XCTAssertLessThanOrEqual(lines.count, ChapterMarks.tooltipLines + 2)
            XCTAssertTrue(lines.last?.contains("10000 chapters in all") == true, "\(lines.suffix(2))")
            XCTAssertTrue(lines.contains { $0.hasPrefix("▶") && $0.contains("C4010") }, "the one playing (4 s, with the 10 ms a seek may fall short): \(lines)")
            XCTAssertEqual(h.press("Page_Up"), [.command("add chapter 1")])
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

            // Open Folder…: the folder joins the queue as its media files (the intake expands it).
            XKeyboard.key("ctrl+shift+o", window: h.window.windowID)
            XCTAssertTrue(UIRuntime.run(until: { h.window.openDialog == "open-folder" }, timeout: 3))
            UIRuntime.settle()
            let folder = (TestMedia.path("clip2s.mp4") as NSString).deletingLastPathComponent
            h.window.answerDialog(files: [folder])
            XCTAssertTrue(UIRuntime.run(until: { h.actions.count >= 3 }, timeout: 5))
            XCTAssertEqual(h.actions.last, .openFiles([folder]))
            XCTAssertNil(h.window.openDialog)

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
            // Drops are taken from the start, without the document portal (GTK asks the session
            // bus for it synchronously): a URI list and text; the portal's targets come later.
            let targets = h.window.dropTargets
            XCTAssertEqual(targets.first, "text/uri-list", "\(targets)")
            XCTAssertTrue(targets.contains("text/plain;charset=utf-8") && targets.contains("UTF8_STRING"), "\(targets)")
            XCTAssertFalse(targets.contains { $0.hasPrefix("application/vnd.portal") }, "\(targets)")
            h.window.acceptDrops(documentPortal: true)  // no portal on the test bus: the same targets, once each
            XCTAssertEqual(h.window.dropTargets.filter { $0 == "text/uri-list" }.count, 1, "\(h.window.dropTargets)")
            XCTAssertTrue(h.window.dropTargets.contains("text/plain;charset=utf-8"))
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

    /// The panel with the pointer, as a reviewer uses it: a real double-click plays the row, a
    /// real drag (XTEST: the panel's own pointer handling, not X's drag protocol) moves it to where
    /// it is released, and a failed row's tooltip says why.
    func testPlaylistDoubleClickPlaysDragReordersAndAFailedRowSaysWhyOnHover() throws {
        var s = WindowHarness.sample()
        s.isPlaylistVisible = true
        s.playlist = (0..<4).map { PlaylistRow(title: "item-\($0).mp4", duration: Double($0 + 1), isCurrent: $0 == 0) }
        s.playlist[2].failure = "The file does not exist <here> & there."
        try withWindow(width: 800, height: 400, state: s) { h in
            UIRuntime.settle()
            let list = h.window.playlistRect, rowHeight = h.window.playlistRowHeight
            XCTAssertGreaterThan(rowHeight, 10)
            func rowCentre(_ i: Int) -> (x: Int, y: Int) { (list.x + 40, list.y + rowHeight * i + rowHeight / 2) }

            XKeyboard.click(window: h.window.windowID, x: rowCentre(3).x, y: rowCentre(3).y, repeat: 2)
            XCTAssertTrue(UIRuntime.run(until: { h.actions.contains(.playIndex(3)) }, timeout: 3), "\(h.actions)")
            XCTAssertEqual(h.actions.filter { if case .playIndex = $0 { true } else { false } }, [.playIndex(3)], "one play per double-click")
            h.actions.removeAll()
            UIRuntime.spin(for: 0.5)  // no double-click with what follows

            // Row 0 dragged to the lower part of row 2 (a real XTEST drag): it goes after row 2
            // (insertion point 3); dragged to the upper part of its own neighbour, it stays where it is.
            @MainActor func drag(_ from: Int, toY y: Int) {
                XKeyboard.drag(window: h.window.windowID, from: rowCentre(from), to: (list.x + 40, list.y + y))
            }
            drag(0, toY: rowHeight * 2 + rowHeight * 5 / 6)
            XCTAssertTrue(UIRuntime.run(until: { h.actions.contains { if case .moveItem = $0 { true } else { false } } }, timeout: 8), "\(h.actions)")
            XCTAssertEqual(h.actions.filter { if case .moveItem = $0 { true } else { false } }, [.moveItem(from: 0, to: 3)])
            XCTAssertEqual(h.window.playlist.rows, s.playlist, "the panel does not reorder itself; the next state does")
            h.actions.removeAll()
            UIRuntime.spin(for: 0.5)
            drag(0, toY: rowHeight + rowHeight / 6)
            UIRuntime.spin(for: 0.5)
            drag(3, toY: rowHeight / 6)
            XCTAssertTrue(UIRuntime.run(until: { h.actions.contains { if case .moveItem = $0 { true } else { false } } }, timeout: 3))
            UIRuntime.spin(for: 0.2)
            XCTAssertEqual(h.actions.filter { if case .playIndex = $0 { false } else { true } }, [.moveItem(from: 3, to: 0)], "a drop next to the row itself is no move")
            XCTAssertFalse(h.actions.contains { if case .playIndex = $0 { true } else { false } }, "a drag plays nothing: \(h.actions)")
            h.actions.removeAll()
            UIRuntime.spin(for: 0.5)

            // Hovering the failed row: the tooltip is the reason, escaped for Pango markup.
            let failed = rowCentre(2)
            XKeyboard.moveMouse(window: h.window.windowID, x: failed.x, y: failed.y)
            UIRuntime.settle()
            XCTAssertEqual(h.window.playlistTooltip(x: 40, y: rowHeight * 2 + rowHeight / 2),
                           "Could not be played: The file does not exist &lt;here&gt; &amp; there.")
            XCTAssertNil(h.window.playlistTooltip(x: 40, y: rowHeight / 2), "a row that played has no tooltip")
        }
    }

    /// A long playlist (issue 51): the panel opens where playback is (the current row scrolled into
    /// view), follows the current row while it was showing it, and a row moved across the list (a
    /// drop, `playlist-move`) lands where the queue says, every other row in its order.
    func testThePlaylistPanelOpensAtTheCurrentRowFollowsItAndShowsAMove() throws {
        var s = WindowHarness.sample()
        s.playlist = (0..<2000).map { PlaylistRow(title: "item-\($0).mp4", duration: 2, isCurrent: $0 == 1500) }
        try withWindow(width: 800, height: 400, state: s) { h in
            UIRuntime.settle()
            s.isPlaylistVisible = true
            h.window.render(s)
            XCTAssertTrue(UIRuntime.run(until: { h.window.playlistShowsRow(1500) }, timeout: 3), "opened at the current row")
            XCTAssertFalse(h.window.playlistShowsRow(0))
            // In the middle of the view, as following playback puts it: rows before it show too.
            XCTAssertTrue(UIRuntime.run(until: { h.window.playlistShowsRow(1497) && h.window.playlistShowsRow(1503) }, timeout: 3),
                          "the current row in the middle, not at the top")

            s.playlist[1500].isCurrent = false
            s.playlist[1501].isCurrent = true
            h.window.render(s)
            XCTAssertTrue(UIRuntime.run(until: { h.window.playlistShowsRow(1501) }, timeout: 3), "it follows playback")

            // The first row to the end, then back: the view holds what the queue says.
            var moved = s
            moved.playlist.append(moved.playlist.removeFirst())
            h.window.render(moved)
            UIRuntime.settle()
            XCTAssertEqual(h.window.playlistShownTitles, moved.playlist.map(\.title))
            h.window.render(s)
            UIRuntime.settle()
            XCTAssertEqual(h.window.playlistShownTitles, s.playlist.map(\.title))
            // Two rows swapped (not one move) and a row removed: still what the queue says.
            var edited = s
            edited.playlist.swapAt(3, 1700)
            edited.playlist.remove(at: 10)
            h.window.render(edited)
            UIRuntime.settle()
            XCTAssertEqual(h.window.playlistShownTitles, edited.playlist.map(\.title))
        }
    }

    /// Every button of the control bar, clicked with a real pointer, asks for its action; a click
    /// on the volume slider sets the volume where it lands.
    func testEveryControlButtonClickedWithThePointer() throws {
        var s = WindowHarness.sample()
        s.canGoPrevious = true
        s.canGoNext = true
        try withWindow(width: 640, height: 400, state: s) { h in
            UIRuntime.settle()
            let table: [(String, UIAction)] = [
                ("previous", .previous), ("back", .skip(by: -10)), ("playPause", .playPause), ("forward", .skip(by: 10)),
                ("next", .next), ("mute", .toggleMute), ("playlist", .togglePlaylist), ("fullscreen", .toggleFullscreen),
            ]
            for (name, expected) in table {
                h.actions.removeAll()
                let r = try XCTUnwrap(h.window.controlRect(name), name)
                XCTAssertGreaterThan(r.width, 10, name)
                XKeyboard.click(window: h.window.windowID, x: r.x + r.width / 2, y: r.y + r.height / 2)
                XCTAssertTrue(UIRuntime.run(until: { !h.actions.isEmpty }, timeout: 3), name)
                UIRuntime.spin(for: 0.1)
                XCTAssertEqual(h.actions, [expected], name)
            }
            // The volume slider (0–100 % linear): a click on its left part asks for a low volume.
            h.actions.removeAll()
            let v = try XCTUnwrap(h.window.controlRect("volume"))
            XKeyboard.click(window: h.window.windowID, x: v.x + v.width / 5, y: v.y + v.height / 2)
            XCTAssertTrue(UIRuntime.run(until: { !h.actions.isEmpty }, timeout: 3))
            guard case .setVolume(let low)? = h.actions.last else { return XCTFail("\(h.actions)") }
            XCTAssertLessThan(low, 0.5, "a click on the left part of the slider lowers the volume")
        }
    }
}
