import Foundation
import ReelTestSupport
import XCTest

/// WebVTT subtitle renditions of HLS (hls/subs: English and French, one cue per 2 s segment at
/// 0.5–1.9, 2.1–3.9 and 4.1–5.5 s, each segment ending without a blank line, as real files often
/// do): listed as subtitle tracks, the default one drawn at every cue's time — the gateway ends
/// each segment with a blank line, without which GStreamer 1.22 showed only the last cue — and
/// the other chosen by `--slang`.
final class HLSSubtitleTests: XCTestCase {
    /// Plays the stream headless with `extra` options and returns the width of the white text in
    /// the bottom quarter at each position, and the last tracks event.
    private func run(_ extra: [String], at positions: [Double]) throws -> (widths: [Int], tracks: [[String: Any]]) {
        let dir = TestMedia.temporaryDirectory("reel-hls-subs")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--audio-sink", "fakesink sync=true",
                                                                  "--video-sink", "fakesink sync=true", "--no-resume",
                                                                  "--screenshot-at", positions.map { String($0) }.joined(separator: ","),
                                                                  "--screenshot-dir", dir.path] + extra + [TestMedia.path("hls/subs/master.m3u8")],
                                  timeout: 40)
        XCTAssertEqual(r.status, 0, r.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".png") }.sorted()
        XCTAssertEqual(files.count, positions.count, "\(files)")
        let widths = files.map { PixelProbe.whiteText(dir.appendingPathComponent($0).path, region: (0, 135, 320, 45)).width }
        // One tracks event per change: the same tracks and selection are never said twice in a
        // row (the selection read again in another order was, 1 run in 2).
        let said = r.lines.filter { $0.contains("\"event\":\"tracks\"") }.compactMap { line -> String? in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return String(describing: (o["tracks"] as? [[String: Any]] ?? []).map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } })
                + "\(o["subtitles"] ?? "-")"
        }
        XCTAssertEqual(zip(said, said.dropFirst()).filter { $0 == $1 }.count, 0, "a tracks event repeated: \(said)")
        let tracksEvent = r.lines.last { $0.contains("\"event\":\"tracks\"") } ?? "{}"
        let object = try JSONSerialization.jsonObject(with: Data(tracksEvent.utf8)) as? [String: Any]
        return (widths, object?["tracks"] as? [[String: Any]] ?? [])
    }

    func testRenditionsAreListedAndEveryCueIsDrawnAtItsTime() throws {
        let english = try run([], at: [1, 3, 4.5, 5.8])
        let subtitles = english.tracks.filter { $0["type"] as? String == "subtitle" }
        XCTAssertEqual(Set(subtitles.compactMap { $0["language"] as? String }), ["en", "fr"])
        // Each rendition's NAME is its title, as mpv lists them (hlsdemux2 gives no title tag).
        XCTAssertEqual(Set(subtitles.compactMap { $0["title"] as? String }), ["English", "Français"])
        XCTAssertEqual(subtitles.first { $0["selected"] as? Bool == true }?["language"] as? String, "en", "the DEFAULT=YES rendition")
        XCTAssertEqual(english.widths.map { $0 > 20 }, [true, true, true, false], "HELLO ZERO, ONE, TWO, then nothing: \(english.widths)")

        let french = try run(["--slang", "fr"], at: [1])
        XCTAssertGreaterThan(french.widths[0], english.widths[0], "BONJOUR ZERO is wider than HELLO ZERO")
        XCTAssertEqual(french.tracks.first { $0["type"] as? String == "subtitle" && $0["selected"] as? Bool == true }?["language"] as? String, "fr")
    }
}
