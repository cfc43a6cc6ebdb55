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
            XCTAssertEqual(h.window.trackEntryLabels, ["None", "film.en.srt (en)", "film.fr.vtt (fr)", "film.de.ass (de)",
                                                      "None", "film.en.srt (en)", "film.fr.vtt (fr)", "film.de.ass (de)"], "subtitles, then the secondary's")
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

            // The secondary from the same menu: French at the top while English stays at the bottom.
            let top = (x: v.x, y: v.y, width: v.width, height: v.height / 4)
            h.pause(at: 2)
            XCTAssertEqual(PixelProbe.whiteText(try h.capture("no-secondary"), region: top).share, 0, "nothing at the top before")
            h.window.chooseTrack("secondary:file:1")
            h.wait("the French file as the secondary") { h.window.tracksButtonText == "sub en" && h.player.selectedTrackIDs.contains("file:1") }
            h.wait("loaded again, paused") { h.player.status == .readyToPlay && h.player.timeControlStatus == .paused }
            h.pause(at: 2)
            let shot = try h.capture("secondary")
            XCTAssertGreaterThan(PixelProbe.whiteText(shot, region: top).width, hi.width * 3, "BONJOUR TOUT LE MONDE at the top")
            XCTAssertGreaterThan(PixelProbe.whiteText(shot, region: region).share, 0.001, "HI still at the bottom")
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

    /// An ASS cue with `{\an8}` is drawn at the top of the picture, and `r`/`R` (for cues at the
    /// bottom) leave it there; a WebVTT cue with `line:0 align:start` at the top left.
    func testTheFilesPlacementIsDrawn() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-sub-placement")
        defer { try? FileManager.default.removeItem(at: dir) }
        let film = dir.appendingPathComponent("top.mp4")
        try FileManager.default.createSymbolicLink(at: film, withDestinationURL: TestMedia.url("subs/film.mp4"))
        try ("[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
             + "Dialogue: 0,0:00:01.00,0:00:02.50,Default,,0,0,0,,{\\an8}OBEN\n"
             + "Dialogue: 0,0:00:03.00,0:00:04.50,Default,,0,0,0,,UNTEN\n").write(to: dir.appendingPathComponent("top.ass"), atomically: true, encoding: .utf8)
        try "WEBVTT\n\n00:01.000 --> 00:02.500 line:0 align:start\nLINKS OBEN\n".write(to: dir.appendingPathComponent("top.de.vtt"), atomically: true, encoding: .utf8)
        try MainActor.assumeIsolated {
            let h = try SessionHarness([film.path], play: false)
            defer { h.close() }
            h.wait("paused at the start") { h.player.status == .readyToPlay && h.player.timeControlStatus == .paused }
            h.wait("the tracks menu") { h.window.tracksMenuShown }
            let v = h.window.videoRect
            let picture = (x: v.x, y: v.y, width: v.width, height: v.height)
            XCTAssertEqual(h.player.subtitleTrack, "file:0", "top.ass first: \(h.window.trackEntryLabels)")
            h.pause(at: 1.5)
            let top = try XCTUnwrap(PixelProbe.whiteTextBox(try h.capture("an8"), region: picture), "OBEN at 1.5 s")
            XCTAssertLessThan(top.y + top.height, v.height / 4, "\\an8: at the top (\(top))")
            h.pause(at: 3.5)
            let bottom = try XCTUnwrap(PixelProbe.whiteTextBox(try h.capture("plain"), region: picture), "UNTEN at 3.5 s")
            XCTAssertGreaterThan(bottom.y, v.height * 3 / 4, "no tag: at the bottom (\(bottom))")

            h.window.chooseTrack("subtitle:file:1")
            h.wait("the WebVTT file chosen") { h.player.subtitleTrack == "file:1" }
            h.pause(at: 1.5)
            let topLeft = try XCTUnwrap(PixelProbe.whiteTextBox(try h.capture("vtt-line0"), region: picture), "LINKS OBEN at 1.5 s")
            XCTAssertLessThan(topLeft.y + topLeft.height, v.height / 4, "line:0 at the top (\(topLeft))")
            XCTAssertLessThan(topLeft.x + topLeft.width, v.width / 2, "align:start on the left (\(topLeft))")
        }
    }

    /// WebVTT's `position`, `align`, `line` (a percentage) and `size` (where the text wraps), and
    /// ASS's `\pos` with `\an7` at PlayResX/PlayResY, are where the picture shows them (issue 32).
    func testPositionsLinesAndSizesAreDrawn() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-sub-position")
        defer { try? FileManager.default.removeItem(at: dir) }
        let film = dir.appendingPathComponent("pos.mp4")
        try FileManager.default.createSymbolicLink(at: film, withDestinationURL: TestMedia.url("subs/film.mp4"))
        try ("[Script Info]\nScriptType: v4.00+\nPlayResX: 320\nPlayResY: 240\n\n[Events]\n"
             + "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
             + "Dialogue: 0,0:00:01.00,0:00:02.50,Default,,0,0,0,,{\\an7\\pos(32,120)}HIER\n").write(to: dir.appendingPathComponent("pos.ass"), atomically: true, encoding: .utf8)
        try ("WEBVTT\n\n00:01.000 --> 00:02.500 position:60% align:start line:40%\nRECHTS\n\n"
             + "00:03.000 --> 00:04.500 position:5% align:start size:30%\nEIN LANGER SATZ DER IN DREI ZEILEN UMBRICHT\n")
            .write(to: dir.appendingPathComponent("pos.de.vtt"), atomically: true, encoding: .utf8)
        try MainActor.assumeIsolated {
            let h = try SessionHarness([film.path], play: false)
            defer { h.close() }
            h.wait("paused at the start") { h.player.status == .readyToPlay && h.player.timeControlStatus == .paused }
            h.wait("the tracks menu") { h.window.tracksMenuShown }
            // The 16:9 picture as drawn in the video area (letterboxed when the area is not 16:9).
            let area = h.window.videoRect
            let pictureHeight = min(area.height, area.width * 9 / 16), pictureWidth = pictureHeight * 16 / 9
            let picture = (x: area.x + (area.width - pictureWidth) / 2, y: area.y + (area.height - pictureHeight) / 2,
                           width: pictureWidth, height: pictureHeight)
            let v = picture
            XCTAssertEqual(h.player.subtitleTrack, "file:0", "pos.ass first: \(h.window.trackEntryLabels)")
            h.pause(at: 1.5)
            let ass = try XCTUnwrap(PixelProbe.whiteTextBox(try h.capture("ass-pos"), region: picture), "HIER at 1.5 s")
            XCTAssertEqual(Double(ass.x), Double(v.width) * 0.1, accuracy: Double(v.width) * 0.03, "\\pos x 32 of 320: the left edge (\(ass))")
            XCTAssertEqual(Double(ass.y), Double(v.height) * 0.5, accuracy: Double(v.height) * 0.05, "\\pos y 120 of 240: the top edge (\(ass))")

            h.window.chooseTrack("subtitle:file:1")
            h.wait("the WebVTT file chosen") { h.player.subtitleTrack == "file:1" }
            h.pause(at: 1.5)
            let right = try XCTUnwrap(PixelProbe.whiteTextBox(try h.capture("vtt-position"), region: picture), "RECHTS at 1.5 s")
            XCTAssertEqual(Double(right.x), Double(v.width) * 0.6, accuracy: Double(v.width) * 0.03, "position:60% align:start: the left edge (\(right))")
            XCTAssertEqual(Double(right.y), Double(v.height) * 0.4, accuracy: Double(v.height) * 0.05, "line:40%: the top edge (\(right))")
            h.pause(at: 3.5)
            let wrapped = try XCTUnwrap(PixelProbe.whiteTextBox(try h.capture("vtt-size"), region: picture), "the long cue at 3.5 s")
            XCTAssertEqual(Double(wrapped.x), Double(v.width) * 0.05, accuracy: Double(v.width) * 0.03, "position:5%: the left edge (\(wrapped))")
            XCTAssertLessThanOrEqual(Double(wrapped.width), Double(v.width) * 0.32, "size:30%: wrapped inside the box (\(wrapped))")
            XCTAssertGreaterThan(Double(wrapped.height), Double(right.height) * 2.2, "three lines or more, not one (\(wrapped) vs \(right))")
        }
    }
}
