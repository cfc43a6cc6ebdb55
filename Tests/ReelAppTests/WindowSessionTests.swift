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

    /// A file cut short: the banner says it ended early and where, and the time label stays
    /// where the media stopped instead of jumping to the duration.
    func testAFileCutShortEndsWithABannerSayingWhere() throws {
        try withSession([TestMedia.path("truncated.mp4")]) { h in
            h.wait("the end", timeout: 20) { h.player.isAtEnd }
            UIRuntime.settle()
            let banner = try XCTUnwrap(h.window.bannerText)
            XCTAssertTrue(banner.hasPrefix("“truncated.mp4” ended early. It stops at 3."), banner)
            XCTAssertTrue(banner.hasSuffix("of its 10.02 s: the file is damaged or cut short."), banner)
            XCTAssertEqual(h.window.timeTexts.elapsed, "0:03")
            XCTAssertEqual(h.window.timeTexts.total, "0:10")
            // Play replays it; the banner goes once it plays again.
            h.session.perform(.playPause)
            h.wait("playing again") { h.player.timeControlStatus == .playing }
            UIRuntime.settle()
            XCTAssertNil(h.window.bannerText)
        }
    }

    func testWhilePlayingTheWindowShowsTheFrameOfTheMomentAndThePauseButton() throws {
        try withSession([colors]) { h in
            h.wait("past 1 s") { h.player.timeControlStatus == .playing && h.session.state.position >= 1.2 }
            let before = h.player.displayedFrameTime ?? -1
            let shot = try h.capture("running")
            let after = h.player.displayedFrameTime ?? -1
            XCTAssertEqual(h.player.timeControlStatus, .playing, "captured while playing")
            // color10s.mp4 shows palette colour i during second i: the frame on screen is the moment's.
            let color = try XCTUnwrap(h.videoCenterColor(shot))
            let index = TestMedia.paletteIndex(r: color.r, g: color.g, b: color.b)
            XCTAssertTrue([Int(before), Int(after)].contains(index), "frame colour \(color) is palette[\(index)], played \(before)…\(after) s")
            // The play/pause button shows "pause" while playing: it differs from a paused capture.
            h.pause(at: max(0.5, after))
            let paused = try h.capture("paused-now")
            let buttonsTop = h.window.seekBarRect.y + h.window.seekBarRect.height
            let playButton = ScreenshotGolden.differingPixels(shot, paused, x: 70, y: buttonsTop, width: 45, height: 400 - buttonsTop)
            XCTAssertGreaterThan(playButton ?? 0, 20, "the play/pause button (pause while playing, play when paused) follows the state")

            h.player.play()
            h.wait("playing again") { h.player.timeControlStatus == .playing }
            h.press("bracketleft")
            h.wait("[ slower") { h.player.rate == 0.75 }
            h.press("BackSpace")
            h.wait("Backspace: normal speed") { h.player.rate == 1 }
            h.press("bracketright")
            h.wait("] faster") { h.player.rate == 1.25 }
            XCTAssertEqual(h.session.state.rate, 1.25)
        }
    }

    /// The playlist panel's actions reach the queue: play a row, move a row by its drop point
    /// (GTK's insertion index in the list as it was), remove a row.
    func testPanelActionsPlayMoveAndRemoveQueueItems() throws {
        let names = ["gapless-00.mp4", "gapless-01.mp4", "gapless-02.mp4"]
        try withSession(names.map(TestMedia.path)) { h in
            h.wait("playing") { h.player.timeControlStatus == .playing }
            @MainActor func order() -> [String] { h.session.controller.queue.items.map { MediaLocator.displayName(of: $0.uri) } }
            h.session.perform(.playIndex(2))
            h.wait("row 2 plays") { h.session.index == 2 && (h.player.currentURI ?? "").hasSuffix("gapless-02.mp4") }
            h.session.perform(.moveItem(from: 0, to: 3))  // dropped after the last row
            XCTAssertEqual(order(), ["gapless-01.mp4", "gapless-02.mp4", "gapless-00.mp4"])
            h.session.perform(.moveItem(from: 2, to: 0))  // dropped before the first row
            XCTAssertEqual(order(), ["gapless-00.mp4", "gapless-01.mp4", "gapless-02.mp4"])
            XCTAssertEqual(h.session.index, 2, "the playing item keeps playing where it went")
            XCTAssertTrue((h.player.currentURI ?? "").hasSuffix("gapless-02.mp4"))
            XCTAssertEqual(h.session.state.playlist.map(\.title), names)
            XCTAssertEqual(h.session.state.playlist.map(\.isCurrent), [false, false, true])
            h.session.perform(.removeItem(0))
            XCTAssertEqual(order(), ["gapless-01.mp4", "gapless-02.mp4"])
            XCTAssertEqual(h.session.state.playlist.map(\.title), ["gapless-01.mp4", "gapless-02.mp4"])
        }
    }

    /// The window holds the screensaver off while the video plays and lets it go on pause and
    /// stop (against a stand-in org.freedesktop.ScreenSaver on the test's session bus).
    func testTheScreensaverIsHeldOffOnlyWhilePlaying() throws {
        let service: FakeScreenSaver
        do { service = try FakeScreenSaver() } catch { throw XCTSkip("\(error)") }
        defer { service.stop() }
        try withSession([colors]) { h in
            h.wait("playing, inhibited") { h.player.timeControlStatus == .playing && service.calls.count == 1 }
            XCTAssertEqual(service.calls.first?.hasPrefix("Inhibit|"), true, "\(service.calls)")
            h.press("space")
            h.wait("paused, released") { h.player.timeControlStatus == .paused && service.calls.count == 2 }
            XCTAssertEqual(service.calls.last, "UnInhibit|42")
            h.press("space")
            h.wait("playing again, inhibited again") { h.player.timeControlStatus == .playing && service.calls.count == 3 }
            h.player.stop()
            h.wait("stopped, released") { service.calls.count == 4 }
            XCTAssertEqual(service.calls, ["Inhibit|Reel|Playing a video|42", "UnInhibit|42", "Inhibit|Reel|Playing a video|43", "UnInhibit|43"])
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
            XCTAssertEqual((frame as NSString).lastPathComponent, "000-color10s-00h00m04s500.png", "the documented template")
            // The video's own frame (640x360), not the one playbin scaled to the video area.
            let size = PixelProbe.size(frame)
            XCTAssertEqual(size.map { [$0.width, $0.height] }, [640, 360])
            SessionHarness.assertPalette(PixelProbe.pixel(frame, x: (size?.width ?? 0) / 2, y: (size?.height ?? 0) / 2), 4, "the saved frame")
            h.press("ctrl+s")
            h.wait("Ctrl+s saves the window") { h.session.lastCapture?.path.hasSuffix("-window.png") == true }
            XCTAssertEqual(h.session.lastCapture?.lastPathComponent, "000-color10s-00h00m04s500-window.png")
            let win = h.session.lastCapture!.path
            XCTAssertEqual(PixelProbe.size(win).map { [$0.width, $0.height] }, [640, 400])
            SessionHarness.assertPalette(h.videoCenterColor(win), 4, "the saved window shows the frame")
        }
    }

    /// In a window whose video area is neither 640 wide nor 16:9 (ximagesink gets frames scaled
    /// to it), `s` still saves the frame at the video's own size, 640x360 in square pixels.
    /// A phone's portrait video (stored landscape, turned by its display matrix) stands upright
    /// in the window: a tall picture in the middle, blue above red, black bars at the sides. It
    /// lay on its side (red left, blue right) before the video filter turned pictures.
    func testAPortraitPhoneVideoStandsUprightInTheWindow() throws {
        try withSession([TestMedia.path("portrait.mp4")]) { h in
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.pause(at: 1)
            let shot = try h.capture("portrait")
            let v = h.window.videoRect
            let blue = PixelProbe.RGB(r: 0, g: 0, b: 255), red = PixelProbe.RGB(r: 255, g: 0, b: 0)
            let top = try XCTUnwrap(PixelProbe.pixel(shot, x: v.x + v.width / 2, y: v.y + v.height / 4))
            let bottom = try XCTUnwrap(PixelProbe.pixel(shot, x: v.x + v.width / 2, y: v.y + v.height * 3 / 4))
            XCTAssertLessThan(top.distance(to: blue), 60, "above: \(top)")
            XCTAssertLessThan(bottom.distance(to: red), 60, "below: \(bottom)")
            // 9:16 in a wider area: the sides are bars.
            let side = try XCTUnwrap(PixelProbe.pixel(shot, x: v.x + v.width / 8, y: v.y + v.height / 2))
            XCTAssertEqual(side.r + side.g + side.b, 0, accuracy: 30, "beside the picture: \(side)")
        }
    }

    /// An MP3 with cover art shows the cover where a video would be (as Totem, VLC and mpv do),
    /// as large as fits, with black beside it; an audio file without one stays black.
    func testAnAudioFilesCoverArtFillsTheVideoArea() throws {
        try withSession([TestMedia.path("cover.mp3"), TestMedia.path("tone3s.m4a")]) { h in
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.player.pause()
            h.wait("the cover shown") { h.window.state.coverArt != nil }
            let shot = try h.capture("cover")
            let v = h.window.videoRect
            let centre = try XCTUnwrap(PixelProbe.pixel(shot, x: v.x + v.width / 2, y: v.y + v.height / 2))
            XCTAssertLessThan(centre.distance(to: PixelProbe.RGB(r: 0, g: 255, b: 0)), 40, "the green cover: \(centre)")
            // A square cover in a wider area: as tall as the area, black at the sides.
            let nearTop = try XCTUnwrap(PixelProbe.pixel(shot, x: v.x + v.width / 2, y: v.y + 3))
            XCTAssertLessThan(nearTop.distance(to: PixelProbe.RGB(r: 0, g: 255, b: 0)), 40, "as large as fits: \(nearTop)")
            let side = try XCTUnwrap(PixelProbe.pixel(shot, x: v.x + 3, y: v.y + v.height / 2))
            XCTAssertEqual(side.r + side.g + side.b, 0, accuracy: 30, "beside it: \(side)")

            h.session.perform(.next)
            h.wait("the next item") { h.window.state.title == "tone3s.m4a" }
            let next = try h.capture("no-cover")
            let black = try XCTUnwrap(PixelProbe.pixel(next, x: v.x + v.width / 2, y: v.y + v.height / 2))
            XCTAssertEqual(black.r + black.g + black.b, 0, accuracy: 30, "no cover: black \(black)")
        }
    }

    /// A subtitle file dropped on (or opened in) the window goes with the video playing and shows,
    /// as in mpv and Totem; it used to join the queue as an item, play, and fail.
    func testADroppedSubtitleFileShowsOnTheVideoPlaying() throws {
        let dir = TestMedia.temporaryDirectory("reel-drop-srt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let srt = dir.appendingPathComponent("Dropped.srt")
        try "1\n00:00:00,000 --> 00:00:09,500\nDROPPED\n".write(to: srt, atomically: true, encoding: .utf8)
        let video = MediaLocator.uri(for: colors)
        try withSession([colors]) { h in
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.session.perform(.openFiles([srt.path]))
            h.wait("the file listed and shown") { h.player.tracks.contains { $0.isExternal && $0.title == "Dropped.srt" } && h.player.subtitleText == "DROPPED" }
            XCTAssertEqual(h.session.state.playlist.map(\.title), ["color10s.mp4"], "the subtitle file is not an item")
            XCTAssertEqual(h.player.currentURI, video, "the video plays on")
        }
    }

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

/// The window's side of the network policy: the "Play anyway" banner for an item the metered
/// policy refused, and the video menu's setting. The monitor's reading is handed to the
/// sequencer as `NetworkWatcher` hands it (NetworkPolicyTests drive the real monitor).
final class WindowNetworkPolicyTests: XCTestCase {
    func testARefusedItemOffersPlayAnywayAndTheMenuSetsThePolicy() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/long.mp4", .file(TestMedia.url("color10s.mp4"), contentType: "video/mp4"))
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("clip2s.mp4"), server.url("/long.mp4").absoluteString],
                                       networkRule: NetworkRule(policy: .block, loopbackIsRemote: true))
            defer { h.close() }
            XCTAssertEqual(h.window.menuMeteredPolicy, .block, "the menu shows the policy in force")
            h.session.core.network.stop()  // this process's own monitor says nothing more
            h.session.controller.networkChanged(NetworkState(available: true, metered: true, connectivity: .full))
            h.wait("the network item refused", timeout: 20) { h.window.offersPlayAnyway }
            XCTAssertTrue(h.window.bannerText?.contains("metered") ?? false, h.window.bannerText ?? "no banner")
            XCTAssertTrue(server.requests.isEmpty, "nothing fetched")
            h.window.pressPlayAnyway()
            h.wait("playing it anyway", timeout: 20) {
                h.session.index == 1 && h.player.timeControlStatus == .playing && h.session.state.position > 0.5
            }
            XCTAssertFalse(h.window.offersPlayAnyway, "the banner went once it played")
            XCTAssertFalse(server.requests.isEmpty)

            h.window.chooseMeteredPolicy(.allow)
            h.wait("the policy set from the menu") { h.session.controller.networkRule.policy == .allow }
            XCTAssertEqual(h.window.menuMeteredPolicy, .allow)

            // "Hardware decoding" in the same menu: checked for auto (the default), from the next item.
            XCTAssertTrue(h.window.menuHardwareDecoding)
            h.window.toggleHardwareDecoding()
            h.wait("hardware decoding off from the menu") { h.player.hardwareDecoding == .no }
            XCTAssertFalse(h.window.menuHardwareDecoding)
            h.window.toggleHardwareDecoding()
            h.wait("and on again") { h.player.hardwareDecoding == .auto }
        }
    }
}

/// The window title names the rendition playing ("Name · 180p"), and the control bar's quality
/// menu chooses it.
final class WindowQualityTests: XCTestCase {
    /// A live stream in the window: the badge reads LIVE near the edge, "−0:1x" after ← (5 s
    /// back), and a real click on it goes live again; the labels show wall-clock time and the seek
    /// bar spans the window.
    func testTheLiveBadgeShowsTheDistanceAndAClickGoesLive() throws {
        let server = try LiveEventServer(window: 10)
        defer { server.stop() }
        try liveBadge(server.playlistURL, span: 20, minimumBehind: 12) { h in
            // Paused, the window slides on: the badge counts the distance up.
            h.press("space")
            h.wait("paused") { h.player.timeControlStatus == .paused }
            h.wait("the distance grows while paused", timeout: 10) { h.window.liveBadgeText?.hasPrefix("\u{2212}0:1") == true }
        }
    }

    /// The same on live DASH (ffmpeg's DASH muxer in real time, a 12 s window joined once it
    /// slid): LIVE near the edge, "−0:1x" 10 s back, a click on the badge goes live again, and the
    /// seek bar spans what the MPD lists.
    func testTheLiveBadgeOnALiveDASHStream() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "no ffmpeg")
        let (packager, server) = try LiveDASHPackager.slidAndServed()
        defer { packager.stop(); server.shutdown() }
        try liveBadge(server.url("/live/manifest.mpd").absoluteString, span: 12, spanAccuracy: 2.01, minimumBehind: 10, liveGain: 3)
    }

    /// `url` live in a window: LIVE lit at the edge, a time of day, a seek bar over `span` seconds;
    /// two ← (10 s back) read "−0:1x", a real click on the badge goes live again; then `more`.
    private func liveBadge(_ url: String, span: Double, spanAccuracy: Double = 0.01, minimumBehind: Double, liveGain: Double = 4,
                           more: @MainActor (SessionHarness) throws -> Void = { _ in }) throws {
        try MainActor.assumeIsolated {
            let h = try SessionHarness([url])
            defer { h.close() }
            // A packager's first live MPD on a busy machine (four lanes of tests) can take more
            // than 20 s to be playable: this waits for the state, it does not time the player.
            h.wait("playing live", timeout: 45) { h.player.timeControlStatus == .playing && h.session.state.live != nil }
            h.wait("lit at the edge") { h.window.liveBadgeText == "LIVE" }
            XCTAssertTrue(h.window.timeTexts.elapsed.split(separator: ":").count == 3, "a time of day: \(h.window.timeTexts)")
            let window = try XCTUnwrap(h.session.state.live?.window)
            XCTAssertEqual(window.upperBound - window.lowerBound, span, accuracy: spanAccuracy, "the window's segments")
            h.press("Left")
            h.press("Left")
            h.wait("behind the edge", timeout: 10) { h.window.liveBadgeText?.hasPrefix("\u{2212}0:1") == true }
            let behind = try XCTUnwrap(h.player.behindLiveEdge)
            XCTAssertGreaterThan(behind, minimumBehind)
            let badge = h.window.liveBadgeRect
            XKeyboard.click(window: h.window.windowID, x: badge.x + badge.width / 2, y: badge.y + badge.height / 2)
            h.wait("live again", timeout: 10) { h.window.liveBadgeText == "LIVE" && (h.player.behindLiveEdge ?? 99) < behind - liveGain }
            try more(h)
        }
    }

    /// An item left at 4 s opens there with the notice; "Start over" plays it from 0 and forgets
    /// the place.
    func testAResumedItemShowsTheNoticeAndStartOverPlaysFromTheBeginning() throws {
        let dir = TestMedia.temporaryDirectory("reel-resume-window")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("resume.json")
        let key = URL(fileURLWithPath: TestMedia.path("color10s.mp4")).absoluteString
        var book = ResumeBook()
        book.apply(.keep(position: 4, duration: 10), key: key, now: 0)
        try book.json().write(to: file)
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("color10s.mp4")], resumeFile: file.path)
            defer { h.close() }
            h.wait("playing") { h.player.timeControlStatus == .playing }
            XCTAssertEqual(h.window.resumeNoticeText, "Resumed at 0:04")
            XCTAssertEqual(h.player.position, 4, accuracy: 0.6, "it plays from the place left")
            XCTAssertGreaterThanOrEqual(h.player.displayedFrameTime ?? -1, 3.5, "the first frame shown is the resumed one")
            h.window.pressStartOver()
            h.wait("from the beginning") { h.player.position < 1 && h.window.resumeNoticeText == nil }
            let after = ResumeBook(json: try Data(contentsOf: file))
            XCTAssertNil(after.entry(for: key), "the place is forgotten")
        }
    }

    /// A 4:3 picture (red bands above and below a blue 16:9 middle) in a 16:9 video area, in each
    /// aspect mode as `a` cycles them: fit shows it all with black bars beside it, fill crops it
    /// to the area (only blue), stretch fills the area with the whole picture (red at the top).
    func testTheAspectModesFitFillAndStretchA4To3PictureInA16To9Area() throws {
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("banded4x3.mp4")], width: 640, height: 360 + Self.controlsHeight)
            defer { h.close() }
            h.wait("playing") { h.player.timeControlStatus == .playing }
            let v = h.window.videoRect
            XCTAssertEqual(Double(v.width) / Double(v.height), 16.0 / 9.0, accuracy: 0.02, "a 16:9 area: \(v)")
            func isBlack(_ c: PixelProbe.RGB?) -> Bool { c.map { $0.r + $0.g + $0.b < 40 } ?? false }
            func isRed(_ c: PixelProbe.RGB?) -> Bool { c.map { $0.r > 180 && $0.g < 60 && $0.b < 60 } ?? false }
            func isBlue(_ c: PixelProbe.RGB?) -> Bool { c.map { $0.b > 180 && $0.r < 60 && $0.g < 60 } ?? false }
            for (mode, name) in [(AspectMode.fit, "aspect-fit"), (.fill, "aspect-fill"), (.stretch, "aspect-stretch")] {
                if mode != .fit { h.press("a") }
                XCTAssertEqual(h.player.aspectMode, mode)
                h.pause(at: 1.0)
                let shot = try h.capture(name)
                let side = PixelProbe.pixel(shot, x: v.x + 4, y: v.y + v.height / 2)
                let top = PixelProbe.pixel(shot, x: v.x + v.width / 2, y: v.y + 4)
                switch mode {
                case .fit:
                    XCTAssertTrue(isBlack(side), "fit: a black bar beside the picture, \(String(describing: side))")
                    XCTAssertTrue(isRed(top), "fit: the whole picture, its red band at the top, \(String(describing: top))")
                case .fill:
                    XCTAssertTrue(isBlue(side), "fill: no bar, \(String(describing: side))")
                    XCTAssertTrue(isBlue(top), "fill: the red bands cropped away, \(String(describing: top))")
                case .stretch:
                    XCTAssertTrue(isBlue(side), "stretch: no bar, \(String(describing: side))")
                    XCTAssertTrue(isRed(top), "stretch: the whole picture, its red band at the top, \(String(describing: top))")
                }
                try h.assertGolden(name)
            }
            h.press("a")
            XCTAssertEqual(h.player.aspectMode, .fit, "a cycles back to fit")
        }
    }

    /// A phone's portrait video in stretch mode fills the 16:9 area with the whole upright picture
    /// (blue above red, no bar beside it): the stretch is computed from the picture as turned,
    /// not from the stored landscape size (which left it 9:16 between black bars).
    func testStretchFillsTheAreaWithATurnedPicture() throws {
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("portrait.mp4")], width: 640, height: 360 + Self.controlsHeight)
            defer { h.close() }
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.press("a")
            h.press("a")
            XCTAssertEqual(h.player.aspectMode, .stretch)
            h.pause(at: 1.0)
            let shot = try h.capture("portrait-stretch")
            let v = h.window.videoRect
            let blue = PixelProbe.RGB(r: 0, g: 0, b: 255), red = PixelProbe.RGB(r: 255, g: 0, b: 0)
            let upperSide = try XCTUnwrap(PixelProbe.pixel(shot, x: v.x + 4, y: v.y + v.height / 4))
            let lowerSide = try XCTUnwrap(PixelProbe.pixel(shot, x: v.x + v.width - 5, y: v.y + v.height * 3 / 4))
            XCTAssertLessThan(upperSide.distance(to: blue), 60, "no bar, blue above: \(upperSide)")
            XCTAssertLessThan(lowerSide.distance(to: red), 60, "no bar, red below: \(lowerSide)")
        }
    }

    /// The share of near-white pixels in `region` of a PNG (0…1), by ImageMagick.
    static func whiteShare(_ png: String, region: (x: Int, y: Int, width: Int, height: Int)) throws -> Double {
        let r = ProcessRunner.run("/usr/bin/convert", [png, "-crop", "\(region.width)x\(region.height)+\(region.x)+\(region.y)", "+repage",
                                                       "-fuzz", "20%", "-fill", "black", "+opaque", "white", "-fill", "white", "-opaque", "white",
                                                       "-colorspace", "Gray", "-format", "%[fx:mean]", "info:"])
        return Double(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The control bar's height under the pinned theme (the window minus its video area), so that
    /// a window can be sized to a 16:9 video area.
    static let controlsHeight = 72

    /// What the window opens joins the recent files list the desktop reads (GtkRecentManager's
    /// xbel, with Reel as the application) and the video menu's "Open recent", newest first; a
    /// URL with a token never does; choosing an entry plays it.
    func testOpenedItemsJoinTheRecentFilesAndOpenRecentPlaysOne() throws {
        let dir = TestMedia.temporaryDirectory("reel-recent")
        defer { try? FileManager.default.removeItem(at: dir) }
        let xbel = dir.appendingPathComponent("recently-used.xbel").path
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/a.mp4", .file(URL(fileURLWithPath: TestMedia.path("clip2s.mp4")), contentType: "video/mp4"))
        let signed = server.url("/a.mp4").absoluteString + "?token=recent-secret-4d4d4d"
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("gapless-00.mp4"), signed, TestMedia.path("gapless-01.mp4")], recentFile: xbel)
            defer { h.close() }
            h.wait("the third item", timeout: 30) { h.session.controller.currentIndex == 2 && h.player.timeControlStatus == .playing }
            h.wait("listed") { h.window.recentMenuTitles == ["gapless-01.mp4", "gapless-00.mp4"] }
            UIRuntime.spin(for: 0.5)  // GtkRecentManager writes on idle
            let text = try String(contentsOfFile: xbel, encoding: .utf8)
            XCTAssertTrue(text.contains(URL(fileURLWithPath: TestMedia.path("gapless-00.mp4")).absoluteString), text)
            XCTAssertTrue(text.contains("name=\"Reel\""), "Reel is the application: \(text)")
            XCTAssertFalse(text.contains("recent-secret-4d4d4d"), "the tokenised URL is not in the list")
            h.window.chooseRecent(at: 1)
            h.wait("gapless-00 queued and playing", timeout: 15) {
                h.session.controller.queue.count == 4 && h.session.controller.currentIndex == 3 && h.player.timeControlStatus == .playing
            }
        }
    }

    /// Embedded subtitles are drawn over the video (so window captures show them) at their time
    /// (1 s to 5 s), and gone when hidden with `v`; `#` and `j` change the audio and subtitle tracks.
    func testSubtitlesShowAtTheirTimeAndHideWithVAndKeysChangeTracks() throws {
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("tracks.mkv")], play: false)
            defer { h.close() }
            h.wait("paused at the start") { h.player.status == .readyToPlay && h.player.timeControlStatus == .paused }
            let v = h.window.videoRect
            // The subtitle region: the bottom quarter of the picture, where playsink's text overlay draws.
            let region = (x: v.x, y: v.y + v.height * 3 / 4, width: v.width, height: v.height / 4)
            @MainActor func whiteShare(_ name: String) throws -> Double {
                try Self.whiteShare(try h.capture(name), region: region)
            }
            /// Plays on (no seek: the subtitle already sent stays) and pauses past `seconds`.
            @MainActor func playOn(to seconds: Double) {
                h.player.play()
                h.wait("past \(seconds) s") { h.player.position >= seconds }
                h.player.pause()
                h.wait("paused") { h.player.timeControlStatus == .paused }
                UIRuntime.spin(for: 0.3)
            }
            XCTAssertLessThan(try whiteShare("sub-before"), 0.00005, "no subtitle before 1 s")
            playOn(to: 2)
            XCTAssertGreaterThan(try whiteShare("sub-shown"), 0.0003, "HELLO is drawn over the picture at 2 s (white text, a few hundred pixels)")
            h.press("s")
            h.wait("s saves the frame") { h.session.lastCapture != nil }
            let frame = try XCTUnwrap(h.session.lastCapture?.path)
            XCTAssertGreaterThan(try Self.whiteShare(frame, region: (0, 270, 640, 90)), 0.0003, "the saved frame (640x360) has the subtitle too")
            h.press("v")
            XCTAssertFalse(h.player.subtitlesShown)
            playOn(to: 3)
            XCTAssertLessThan(try whiteShare("sub-hidden"), 0.00005, "hidden with v")
            h.press("numbersign")
            h.wait("# plays the French audio") {
                h.player.tracks.first { $0.id == h.player.audioTrack }?.language == "fr"
                    && h.player.selectedStreamIDs.contains(h.player.audioTrack ?? "")
            }
            h.press("j")
            XCTAssertTrue(h.player.subtitlesShown, "choosing a subtitle track shows subtitles")
            h.wait("j moves to the French subtitles") { h.player.tracks.first { $0.id == h.player.subtitleTrack }?.language == "fr" }
        }
    }

    /// MP4's own text subtitles (tx3g timed text, tracks-tx3g.mp4: the same tracks as tracks.mkv)
    /// are listed with their languages, drawn over the picture at their time, and `j` chooses
    /// among them.
    func testMP4TimedTextSubtitlesAreListedDrawnAndChosen() throws {
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("tracks-tx3g.mp4")], play: false)
            defer { h.close() }
            h.wait("paused at the start") { h.player.status == .readyToPlay && h.player.timeControlStatus == .paused }
            let subtitles = h.player.tracks.filter { $0.kind == .subtitle }
            XCTAssertEqual(subtitles.map(\.language), ["en", "fr"], "\(h.player.tracks)")
            XCTAssertEqual(h.player.tracks.filter { $0.kind == .audio }.map(\.language), ["en", "fr"])
            let v = h.window.videoRect
            let region = (x: v.x, y: v.y + v.height * 3 / 4, width: v.width, height: v.height / 4)
            XCTAssertLessThan(try Self.whiteShare(try h.capture("tx3g-before"), region: region), 0.00005, "no subtitle before 1 s")
            h.player.play()
            h.wait("past 2 s") { h.player.position >= 2 }
            h.player.pause()
            h.wait("paused") { h.player.timeControlStatus == .paused }
            UIRuntime.spin(for: 0.3)
            XCTAssertGreaterThan(try Self.whiteShare(try h.capture("tx3g-shown"), region: region), 0.0003, "HELLO is drawn at 2 s")
            h.press("j")
            h.wait("j moves to the French subtitles") {
                h.player.tracks.first { $0.id == h.player.subtitleTrack }?.language == "fr"
                    && h.player.selectedStreamIDs.contains(h.player.subtitleTrack ?? "")
            }
        }
    }

    func testTheTitleNamesThePinnedRendition() throws {
        // In a window the main thread is busy building it while the pipeline starts; the 6 s
        // stream used to be fetched whole at the first variant before the 180p pin reached the
        // demuxer (the title then said 360p, `unavailable`). The gateway now holds the master's
        // first answer until the sequencer has put the pin on the demuxer (`RenditionAnnouncer`).
        TestMedia.ensureGenerated()
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("hls/vod/master.m3u8")], quality: .height(180))
            defer { h.close() }
            h.wait("the rendition in the title", timeout: 20) { h.window.title == "master.m3u8 · 180p — Reel" }
            // Closed only once it plays: a gateway shut down under hlsdemux2's first requests trips
            // a debug-build assertion in swift-nio (see the closing note of this round).
            h.wait("playing", timeout: 20) { h.player.timeControlStatus == .playing && h.session.state.position >= 1 }
            h.session.perform(.setRate(1))  // any later action keeps it
            XCTAssertEqual(h.window.title, "master.m3u8 · 180p — Reel")
            // The control bar's quality menu: the pin, the renditions, and a choice from it.
            XCTAssertTrue(h.window.qualityMenuShown)
            XCTAssertEqual(h.window.qualityButtonText, "180p")
            XCTAssertEqual(h.window.qualityEntryLabels, ["Auto", "360p", "180p"])
            h.window.setQualityMenuOpen(true)
            h.window.chooseQuality("auto")
            // The mode is said at once; the rendition named is the one playing, by what the player
            // fetches (issue 27): a 6 s stream fetched whole at 180p keeps playing 180p.
            h.wait("auto from the menu", timeout: 10) { h.window.qualityButtonText.hasPrefix("Auto · ") }
            XCTAssertEqual(h.session.controller.effectiveQuality, .auto)
            let playing = try XCTUnwrap(h.session.controller.playingRendition.map { h.session.controller.currentRenditions[$0] })
            let height = try XCTUnwrap(playing.resolution?.height)
            XCTAssertEqual(h.window.qualityButtonText, "Auto · \(height)p")
            XCTAssertEqual(h.window.title, "master.m3u8 · \(height)p — Reel")
        }
    }
}
