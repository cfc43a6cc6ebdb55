import Foundation
import ReelCore
@testable import ReelEngine
import ReelTestSupport
import XCTest
import Synchronization
import CGStreamer

/// Subtitle files beside a film (subs/film.mp4: film.en.srt "HI", film.fr.vtt "BONJOUR TOUT LE
/// MONDE", Subs/film.de.ass "HALLO WELT", all from 1 s to 3 s) are listed as tracks, the first
/// shown, and drawn into the frames (frame captures read back by pixels: white text in the bottom
/// quarter, its width telling which file is drawn).
final class ExternalSubtitleTests: XCTestCase {
    private var film: String { TestMedia.path("subs/film.mp4") }
    /// The bottom quarter of a 640x360 frame, where subtitles are drawn.
    private static let region = (x: 0, y: 270, width: 640, height: 90)

    @MainActor private static func text(at time: Double, _ h: EngineHarness, file: StaticString = #filePath, line: UInt = #line) throws -> (share: Double, width: Int) {
        let frame = try h.player.captureFrame(at: time).get()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-subs-\(getpid())-\(UUID().uuidString).png").path
        try frame.png.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return PixelProbe.whiteText(path, region: region)
    }

    /// Runs `body` with subs/film.mp4 loaded (paused, prerolled) in a fresh player.
    private func withFilm(_ body: @escaping @MainActor (EngineHarness) throws -> Void) throws {
        let film = self.film
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(film)
            h.waitReady()
            try body(h)
        }
    }

    func testFilesBesideTheFilmAreListedShownAtTheirTimeAndChosen() throws {
        try withFilm { h in
            let files = h.player.tracks.filter(\.isExternal)
            XCTAssertEqual(files.map(\.title), ["film.en.srt", "film.fr.vtt", "film.de.ass"])
            XCTAssertEqual(files.map(\.language), ["en", "fr", "de"])
            XCTAssertEqual(h.player.subtitleTrack, files.first?.id, "the first file is shown, as mpv and VLC do")

            XCTAssertEqual(try Self.text(at: 0.5, h).share, 0, "nothing before 1 s")
            let hi = try Self.text(at: 2, h)
            XCTAssertGreaterThan(hi.share, 0.001, "HI is drawn at 2 s")
            XCTAssertEqual(try Self.text(at: 3.5, h).share, 0, "and gone at 3.5 s")

            h.player.selectSubtitleTrack(files[1].id)
            let bonjour = try Self.text(at: 2, h)
            XCTAssertGreaterThan(bonjour.width, hi.width * 3, "the WebVTT file's longer line (\(bonjour.width) px vs \(hi.width) px)")
            h.player.selectSubtitleTrack(files[2].id)
            let hallo = try Self.text(at: 2.2, h)
            XCTAssertGreaterThan(hallo.width, hi.width * 2, "the ASS file's line, from the Subs folder")
            XCTAssertLessThan(hallo.width, bonjour.width)

            h.player.setSubtitlesShown(false)
            XCTAssertEqual(try Self.text(at: 2, h).share, 0, "hidden")
            h.player.setSubtitlesShown(true)
            XCTAssertGreaterThan(try Self.text(at: 2, h).share, 0.001, "shown again")
            h.player.selectSubtitleTrack(nil)
            XCTAssertEqual(try Self.text(at: 2, h).share, 0, "none chosen")

            let reported = h.events.compactMap { if case .tracks(let t, let s, _) = $0.event { (t, s) } else { nil } }
            XCTAssertTrue(reported.contains { $0.1.contains(files[1].id) }, "a tracks event named the WebVTT file as selected")
            XCTAssertTrue(h.errors.isEmpty && h.warnings.isEmpty, "\(h.errors) \(h.warnings)")
        }
    }

    func testSizeFactorEnlargesTheText() throws {
        try withFilm { h in
            let normal = try Self.text(at: 2, h)
            h.player.setSubtitleScale(2)
            let large = try Self.text(at: 2, h)
            XCTAssertEqual(h.player.subtitleScale, 2)
            XCTAssertGreaterThan(Double(large.width), Double(normal.width) * 1.6, "twice the size (\(large.width) px vs \(normal.width) px)")
        }
    }

    /// A preference picks among files by the language in their names; `--sub-file` adds one to
    /// an item that has none beside it; an unreadable file is a warning and the item plays.
    func testPreferencesGivenFilesAndBrokenFiles() throws {
        let dir = TestMedia.temporaryDirectory("reel-subfile")
        defer { try? FileManager.default.removeItem(at: dir) }
        let given = dir.appendingPathComponent("talk.de.srt").path, broken = dir.appendingPathComponent("broken.srt").path
        try "1\n00:00:00,000 --> 00:00:09,000\nGEGEBEN GEGEBEN\n".write(toFile: given, atomically: true, encoding: .utf8)
        try Data([0x00, 0x01, 0x02, 0xFF]).write(to: URL(fileURLWithPath: broken))
        let film = self.film, clip = TestMedia.path("tracks.mkv")
        try onMain {
            let h = try EngineHarness(subtitleLanguages: ["fra"], subtitleFiles: [given, broken])
            defer { h.shutdown() }
            h.player.load(film)
            h.waitReady()
            XCTAssertEqual(h.player.tracks.first { $0.id == h.player.subtitleTrack }?.title, "film.fr.vtt", "--slang fra chose the French file")
            XCTAssertEqual(h.player.tracks.filter(\.isExternal).map(\.title), ["film.en.srt", "film.fr.vtt", "film.de.ass", "talk.de.srt"])
            XCTAssertEqual(h.warnings.map(\.kind), [.subtitleFile])
            XCTAssertTrue(h.warnings.first?.message.contains("broken.srt") ?? false, "\(h.warnings)")
            XCTAssertGreaterThan(try Self.text(at: 2, h).share, 0.001)

            // tracks.mkv has French subtitles of its own: the preference takes those.
            h.player.load(clip)
            h.waitReady()
            h.wait("the file's own French subtitles") {
                let chosen = h.player.tracks.first { $0.id == h.player.subtitleTrack }
                return chosen?.language == "fr" && chosen?.isExternal == false && h.player.selectedStreamIDs.contains(chosen?.id ?? "")
            }
            XCTAssertTrue(h.player.tracks.contains { $0.title == "talk.de.srt" }, "the given file is offered with every item")
            h.player.selectSubtitleTrack(h.player.tracks.first { $0.title == "talk.de.srt" }?.id)
            h.wait("no text stream of playbin3's plays while a file is shown") {
                !h.player.tracks.contains { $0.kind == .subtitle && !$0.isExternal && h.player.selectedStreamIDs.contains($0.id) }
            }
            let given = try Self.text(at: 0.5, h)
            XCTAssertGreaterThan(given.share, 0.001, "the given file is drawn at 0.5 s (the film's own starts at 1 s)")
            XCTAssertTrue(h.errors.isEmpty, "\(h.errors)")
        }
    }

    nonisolated private static let ticks = Mutex(0)

    /// A large file (4 MB, tens of thousands of cues) is read off the main thread (issue 28, item
    /// 8: a 13 MB SRT held the window and the socket 8.7 s): `load` returns at once, the main loop
    /// runs on while the file is read, and the item's tracks list it when it is in.
    func testALargeFileIsReadWhileTheMainLoopRunsOn() throws {
        let dir = TestMedia.temporaryDirectory("reel-bigsub")
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("big.srt").path
        var text = ""
        var i = 0
        while text.utf8.count < 4_000_000 {
            let t = 3 * i
            text += "\(i + 1)\n\(String(format: "%02d:%02d:%02d,000 --> %02d:%02d:%02d,500", t / 3600, t / 60 % 60, t % 60, t / 3600, t / 60 % 60, t % 60 + 2))\n<i>Line \(i)</i> of a long film, with <b>tags</b>\nand a second line\n\n"
            i += 1
        }
        try text.write(toFile: big, atomically: true, encoding: .utf8)
        let film = self.film
        try onMain {
            let h = try EngineHarness(subtitleFiles: [big])
            defer { h.shutdown() }
            Self.ticks.withLock { $0 = 0 }
            let timer = g_timeout_add(20, { _ in ExternalSubtitleTests.ticks.withLock { $0 += 1 }; return 1 }, nil)
            defer { g_source_remove(timer) }
            h.player.load(film)
            XCTAssertFalse(h.player.tracks.contains { $0.title == "big.srt" }, "load returned before the file was read")
            h.wait("the large file listed") { h.player.tracks.contains { $0.title == "big.srt" } }
            XCTAssertGreaterThanOrEqual(Self.ticks.withLock { $0 }, 3, "the main loop ran while the file was read")
            h.waitReady()
            let lists = h.events.compactMap { if case .tracks(let t, _, _) = $0.event { t.filter(\.isExternal).map(\.title) } else { nil } }
            XCTAssertEqual(lists.first, ["film.en.srt", "film.fr.vtt", "film.de.ass", "big.srt"], "the first tracks event lists every file")
            h.player.selectSubtitleTrack(h.player.tracks.first { $0.title == "big.srt" }?.id)
            XCTAssertGreaterThan(try Self.text(at: 1, h).share, 0.001, "its first cue is drawn")
            XCTAssertTrue(h.errors.isEmpty && h.warnings.isEmpty, "\(h.errors) \(h.warnings)")
        }
    }
}
