import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import ReelUI
import XCTest
@testable import ReelApp

/// The composed window: a real playbin3 drawing into the window under Xvfb, real key events.
final class WindowSessionTests: XCTestCase {
    private func withSession(_ inputs: [String], width: Int = 640, height: Int = 400,
                             _ body: @MainActor (SessionHarness) throws -> Void) throws {
        try MainActor.assumeIsolated {
            let h = try SessionHarness(inputs, width: width, height: height)
            defer { h.close() }
            try body(h)
        }
    }

    private var colors: String { TestMedia.path("color10s.mp4") }

    func testPlayingShowsTheKnownFrameInTheWindow() throws {
        try withSession([colors]) { h in
            h.wait("playing") { h.player.timeControlStatus == .playing }
            XCTAssertEqual(h.window.title, "color10s.mp4 — Reel")
            h.pause(at: 2.5)
            XCTAssertEqual(h.window.timeTexts.elapsed, "0:02")
            XCTAssertEqual(h.window.timeTexts.total, "0:10")
            // Media info is the stream's own size, not the scaled picture in the window.
            XCTAssertEqual(h.player.mediaInfo.width, 640)
            XCTAssertEqual(h.player.mediaInfo.height, 360)
            let shot = try h.capture("frame-2")
            SessionHarness.assertPalette(h.videoCenterColor(shot), 2, "at 2.5 s")
            // Black bars: 16:9 video in a wider area leaves the sides black.
            let v = h.window.videoRect
            let side = PixelProbe.pixel(shot, x: v.x + 2, y: v.y + v.height / 2)
            XCTAssertEqual(side.map { $0.r + $0.g + $0.b } ?? 999, 0, accuracy: 30, "the bar beside the video is black")
            try h.assertGolden("paused-frame-2")

            // Later position: the video and the seek row change; the buttons do not.
            h.pause(at: 6.5)
            let later = try h.capture("frame-6")
            SessionHarness.assertPalette(h.videoCenterColor(later), 6, "at 6.5 s")
            let controlsTop = v.y + v.height
            let seekRow = h.window.seekBarRect
            let rowDiff = ScreenshotGolden.differingPixels(shot, later, x: 0, y: seekRow.y, width: 640, height: seekRow.height)
            XCTAssertGreaterThan(rowDiff ?? 0, 30, "the seek bar and time label follow the position")
            let belowSeek = seekRow.y + seekRow.height
            let buttons = ScreenshotGolden.differingPixels(shot, later, x: 0, y: belowSeek, width: 640, height: 400 - belowSeek)
            XCTAssertEqual(buttons, 0, "the button row is the same")
            XCTAssertGreaterThan(controlsTop, 0)
        }
    }

    func testPlayingGoldenWhileRunning() throws {
        try withSession([colors]) { h in
            h.wait("past 1 s") { h.player.timeControlStatus == .playing && h.session.state.position >= 1.2 }
            let shot = try h.capture("running")
            let color = h.videoCenterColor(shot)
            XCTAssertNotNil(color)
            if let c = color {
                let i = TestMedia.paletteIndex(r: c.r, g: c.g, b: c.b)
                XCTAssertTrue((1...3).contains(i), "a frame from the second second is on screen: \(c)")
            }
            XCTAssertTrue(h.window.timeTexts.elapsed.hasPrefix("0:0"))
        }
    }

    func testErrorBannerNamesTheItemAndTheQueueGoesOn() throws {
        try withSession([TestMedia.path("notmedia.mp4"), colors]) { h in
            h.wait("the error banner") { h.window.bannerText != nil }
            let text = h.window.bannerText ?? ""
            XCTAssertTrue(text.contains("notmedia.mp4"), text)
            XCTAssertGreaterThan(text.count, "“notmedia.mp4” could not be played. ".count + 5, "says what went wrong: \(text)")
            XCTAssertEqual(h.session.state.playlist.first?.failure != nil, true)
            h.wait("the next item playing") { h.player.timeControlStatus == .playing && h.session.index == 1 }
            h.wait("the banner cleared once the next item plays") { h.window.bannerText == nil }
        }
    }

    // MARK: Every shortcut, as a real key event, asserted on the engine or a capture.

    func testTransportShortcuts() throws {
        try withSession([colors]) { h in
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.press("space")
            h.wait("space pauses") { h.player.intent == .paused && h.player.timeControlStatus == .paused }
            h.press("p")
            h.wait("p plays") { h.player.intent == .playing && h.player.timeControlStatus == .playing }
            h.press("p")
            h.wait("p pauses") { h.player.timeControlStatus == .paused }
            h.pause(at: 2.5)
            h.press("Right")
            h.wait("→ +5 s") { abs(h.player.position - 7.5) < 0.1 }
            h.press("Left")
            h.wait("← −5 s") { abs(h.player.position - 2.5) < 0.1 }
            h.press("shift+Right")
            h.wait("Shift+→ +1 s") { abs(h.player.position - 3.5) < 0.1 }
            h.press("shift+Left")
            h.wait("Shift+← −1 s") { abs(h.player.position - 2.5) < 0.1 }
            h.press("Down")
            h.wait("↓ −60 s, clamped to 0") { h.player.position < 0.1 }
            h.press("Up")
            h.wait("↑ +60 s, clamped to the end") { h.player.position > 9.5 }
        }
    }

    func testFrameStepShortcuts() throws {
        try withSession([colors]) { h in
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.pause(at: 3.0)
            let start = h.player.displayedFrameTime ?? -1
            h.press("period")
            h.wait(". steps one frame forward") { (h.player.displayedFrameTime ?? -1) > start + 0.02 }
            let stepped = h.player.displayedFrameTime ?? -1
            XCTAssertEqual(stepped - start, 1.0 / 30, accuracy: 0.01)
            h.press("comma")
            h.wait(", steps one frame back") { (h.player.displayedFrameTime ?? 99) < stepped - 0.02 }
        }
    }

    func testVolumeMuteAndSpeedShortcuts() throws {
        try withSession([colors]) { h in
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.player.volume = 0.5
            UIRuntime.settle()
            h.press("9")
            h.wait("9 lowers the volume") { abs(h.player.volume - 0.45) < 0.001 }
            h.press("0")
            h.press("0")
            h.wait("0 raises it") { abs(h.player.volume - 0.55) < 0.001 }
            h.press("m")
            h.wait("m mutes") { h.player.isMuted }
            h.press("m")
            h.wait("m unmutes") { !h.player.isMuted }
            h.press("bracketright")
            h.wait("] faster") { h.player.rate == 1.25 }
            h.press("bracketright")
            h.wait("] faster again") { h.player.rate == 1.5 }
            h.press("bracketleft")
            h.wait("[ slower") { h.player.rate == 1.25 }
            h.press("BackSpace")
            h.wait("Backspace: normal speed") { h.player.rate == 1 }
            h.press("bracketleft")
            h.wait("[ below normal") { h.player.rate == 0.75 }
            XCTAssertEqual(h.session.state.rate, 0.75)
        }
    }

    func testPreviousNextShortcuts() throws {
        try withSession([TestMedia.path("clip2s.mp4"), colors]) { h in
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.press("greater")
            h.wait("> goes to the next item") { h.session.index == 1 && (h.player.currentURI ?? "").hasSuffix("color10s.mp4") }
            h.wait("it plays") { h.player.timeControlStatus == .playing }
            h.press("less")
            h.wait("< goes back to the previous item") { h.session.index == 0 && (h.player.currentURI ?? "").hasSuffix("clip2s.mp4") }
        }
    }

    func testCaptureShortcuts() throws {
        try withSession([colors]) { h in
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.pause(at: 4.5)
            h.press("s")
            h.wait("s saves the frame") { h.session.lastCapture != nil }
            let frame = h.session.lastCapture!.path
            XCTAssertTrue(frame.hasSuffix("-frame-00h00m04s500.png"), frame)
            // The video's own frame (640x360), not the one playbin scaled to the video area.
            let size = PixelProbe.size(frame)
            XCTAssertEqual(size.map { [$0.width, $0.height] }, [640, 360])
            SessionHarness.assertPalette(PixelProbe.pixel(frame, x: (size?.width ?? 0) / 2, y: (size?.height ?? 0) / 2), 4, "the saved frame")
            h.press("ctrl+s")
            h.wait("Ctrl+s saves the window") { h.session.lastCapture?.path.contains("-window-") == true }
            let win = h.session.lastCapture!.path
            XCTAssertEqual(PixelProbe.size(win).map { [$0.width, $0.height] }, [640, 400])
            SessionHarness.assertPalette(h.videoCenterColor(win), 4, "the saved window shows the frame")
        }
    }

    /// In a window whose video area is neither 640 wide nor 16:9 (ximagesink gets frames scaled
    /// to it), `s` still saves the frame at the video's own size, 640x360 in square pixels.
    func testCapturedFrameHasTheVideosOwnSizeInAnyWindow() throws {
        for (width, height) in [(480, 420), (900, 380)] {
            try withSession([colors], width: width, height: height) { h in
                h.wait("playing") { h.player.timeControlStatus == .playing }
                h.pause(at: 6.5)
                let v = h.window.videoRect
                XCTAssertNotEqual([v.width, v.height], [640, 360], "the window must scale the video for this test to mean anything")
                h.press("s")
                h.wait("s saves the frame") { h.session.lastCapture != nil }
                let frame = h.session.lastCapture!.path
                let size = PixelProbe.size(frame)
                XCTAssertEqual(size.map { [$0.width, $0.height] }, [640, 360], "window \(width)x\(height)")
                SessionHarness.assertPalette(PixelProbe.pixel(frame, x: 320, y: 180), 6, "centre of the frame saved in a \(width)x\(height) window")
                // The corners are the video's own picture too (no letterbox bars baked in).
                SessionHarness.assertPalette(PixelProbe.pixel(frame, x: 4, y: 4), 6, "corner of the saved frame")
                SessionHarness.assertPalette(PixelProbe.pixel(frame, x: 635, y: 355), 6, "corner of the saved frame")
            }
        }
    }

    func testWindowShortcuts() throws {
        try withSession([colors]) { h in
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.press("f")
            h.wait("f: fullscreen") { h.session.state.isFullscreen && h.window.size == (1280, 800) }
            h.press("Escape")
            h.wait("Esc leaves fullscreen") { !h.session.state.isFullscreen && h.window.size == (640, 400) }
            h.press("F11")
            h.wait("F11: fullscreen") { h.session.state.isFullscreen && h.window.size == (1280, 800) }
            h.press("F11")
            h.wait("F11 again: windowed") { !h.session.state.isFullscreen && h.window.size == (640, 400) }
            h.press("F9")
            h.wait("F9 shows the playlist") { h.window.isPlaylistShown }
            h.press("F9")
            h.wait("F9 hides it") { !h.window.isPlaylistShown }
            h.press("question")
            h.wait("? opens the shortcuts window") { h.window.isShortcutsWindowOpen }
            UIRuntime.settle()
            XKeyboard.key("Escape")  // to the shortcuts window, which has the focus
            h.wait("Esc closes it") { !h.window.isShortcutsWindowOpen }
            XKeyboard.focus(h.window.windowID)
            h.press("q")
            h.wait("q quits") { h.session.quitRequested }
        }
    }

    func testOpenShortcuts() throws {
        try withSession([colors]) { h in
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.press("ctrl+l")
            h.wait("Ctrl+L opens the URL prompt") { h.window.openDialog == "open-url" }
            let clip = URL(fileURLWithPath: TestMedia.path("clip2s.mp4")).absoluteString
            XKeyboard.type(clip)
            XKeyboard.key("Return")
            h.wait("the URL plays") { h.player.currentURI == clip && h.player.timeControlStatus == .playing }
            XCTAssertEqual(h.session.items.count, 2)
            XKeyboard.focus(h.window.windowID)
            h.press("ctrl+o")
            h.wait("Ctrl+O opens the file chooser") { h.window.openDialog == "open-files" }
            UIRuntime.settle()
            XKeyboard.type(TestMedia.path("tone3s.m4a"))
            UIRuntime.settle()
            XKeyboard.key("Return")
            h.wait("the chosen file plays") { (h.player.currentURI ?? "").hasSuffix("tone3s.m4a") }
            XCTAssertEqual(h.session.items.count, 3)
        }
    }
}
