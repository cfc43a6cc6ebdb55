import Foundation
import ReelCore
import ReelTestSupport
import ReelUI
import XCTest
@testable import ReelApp

/// Subtitle files in the window: found beside the film (subs/film.mp4 with film.en.srt "HI",
/// film.fr.vtt "BONJOUR TOUT LE MONDE", Subs/film.de.ass), drawn over the picture in window
/// captures, chosen from the control bar's tracks menu, resized with G/F and hidden with v.
final class SubtitleWindowTests: XCTestCase {
    func testTheTracksMenuChoosesAFileAndKeysResizeAndHideIt() throws {
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("subs/film.mp4")], play: false)
            defer { h.close() }
            h.wait("paused at the start") { h.player.status == .readyToPlay && h.player.timeControlStatus == .paused }
            h.wait("the tracks menu") { h.window.tracksMenuShown }
            XCTAssertEqual(h.window.trackEntryLabels, ["None", "film.en.srt (en)", "film.fr.vtt (fr)", "film.de.ass (de)"])
            XCTAssertEqual(h.window.tracksButtonText, "sub en", "the English file beside the film is shown")
            let v = h.window.videoRect
            let region = (x: v.x, y: v.y + v.height * 3 / 4, width: v.width, height: v.height / 4)
            @MainActor func text(_ name: String) throws -> (share: Double, width: Int) {
                PixelProbe.whiteText(try h.capture(name), region: region)
            }
            XCTAssertEqual(try text("none-yet").share, 0, "nothing at 0 s")
            h.pause(at: 2)
            let hi = try text("hi")
            XCTAssertGreaterThan(hi.share, 0.001, "HI over the picture at 2 s")

            h.window.setTracksMenuOpen(true)
            UIRuntime.settle()
            h.window.chooseTrack("subtitle:file:1")
            h.wait("the French file chosen") { h.player.subtitleTrack == "file:1" && h.window.tracksButtonText == "sub fr" }
            h.pause(at: 2)
            let bonjour = try text("bonjour")
            XCTAssertGreaterThan(bonjour.width, hi.width * 3, "BONJOUR TOUT LE MONDE (\(bonjour.width) px; HI \(hi.width) px)")

            for _ in 0..<5 { h.press("G") }
            h.wait("G five times: 1.5×") { abs(h.player.subtitleScale - 1.5) < 0.001 }
            h.pause(at: 2)
            let larger = try text("larger")
            XCTAssertGreaterThan(Double(larger.width), Double(bonjour.width) * 1.3, "larger text (\(larger.width) px)")
            h.press("F")
            h.wait("F: smaller again") { abs(h.player.subtitleScale - 1.4) < 0.001 }

            h.press("v")
            h.wait("hidden") { !h.player.subtitlesShown && h.window.tracksButtonText == "sub off" }
            h.pause(at: 2)
            XCTAssertEqual(try text("hidden").share, 0, "hidden with v")
            h.window.chooseTrack("subtitle:file:0")
            h.wait("choosing one shows subtitles again") { h.player.subtitlesShown && h.player.subtitleTrack == "file:0" }
        }
    }
}

/// Adjusting subtitles while watching, as mpv users do: `z`/`Z` delay them by 0.1 s, `r`/`R` move
/// them up and down; the window's pixels show both.
final class SubtitleAdjustWindowTests: XCTestCase {
    func testDelayAndPositionKeysMoveTheDrawnSubtitle() throws {
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("subs/film.mp4")], play: false)
            defer { h.close() }
            h.wait("paused at the start") { h.player.status == .readyToPlay && h.player.timeControlStatus == .paused }
            h.wait("the English file shown") { h.window.tracksButtonText == "sub en" }
            let v = h.window.videoRect
            let picture = (x: v.x, y: v.y, width: v.width, height: v.height)
            // film.en.srt: HI from 1 s to 3 s.
            h.pause(at: 1.5)
            let bottom = try XCTUnwrap(PixelProbe.whiteTextBox(try h.capture("at-1.5"), region: picture), "HI at 1.5 s")
            XCTAssertGreaterThan(bottom.y, v.height * 3 / 4, "at the bottom by default")

            for _ in 0..<10 { h.press("Z") }
            h.wait("Z ten times: 1 s later") { abs(h.player.subtitleDelay - 1) < 0.001 }
            h.pause(at: 1.5)
            XCTAssertNil(PixelProbe.whiteTextBox(try h.capture("delayed-1.5"), region: picture), "HI now starts at 2 s")
            h.pause(at: 3.5)
            XCTAssertNotNil(PixelProbe.whiteTextBox(try h.capture("delayed-3.5"), region: picture), "and ends at 4 s")
            for _ in 0..<10 { h.press("z") }
            h.wait("z ten times: back on time") { abs(h.player.subtitleDelay) < 0.001 }

            for _ in 0..<50 { h.press("r") }
            h.wait("r fifty times: position 50") { h.player.subtitlePosition == 50 }
            h.pause(at: 1.5)
            let middle = try XCTUnwrap(PixelProbe.whiteTextBox(try h.capture("moved-up"), region: picture), "HI still shown")
            let centre = middle.y + middle.height / 2
            XCTAssertEqual(Double(centre), Double(v.height) / 2, accuracy: Double(v.height) * 0.08, "HI in the middle of the picture")
            XCTAssertLessThan(middle.y, bottom.y - v.height / 4)
            h.press("R")
            h.wait("R: one down") { h.player.subtitlePosition == 51 }
        }
    }
}
