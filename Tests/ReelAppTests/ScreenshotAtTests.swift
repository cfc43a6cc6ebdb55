import Foundation
import ReelTestSupport
import XCTest

/// `reel --screenshot-at … --screenshot-dir DIR`: every item's frame as playback passes each position.
final class ScreenshotAtTests: XCTestCase {
    func testEveryItemIsCapturedAtEachPositionWithTheTemplateNames() throws {
        let dir = TestMedia.temporaryDirectory("reel-shots")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["--headless", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true", "--progress-interval", "20",
                                   "--screenshot-at", "50%,0.2", "--screenshot-dir", dir.path,
                                   TestMedia.path("clip2s.mp4"), TestMedia.path("gapless-02.mp4")], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(files.count, 4, "\(files)")
        // name → (item index, title, seconds) from {index:03}-{title}-{position}.png
        func parse(_ name: String) -> (Int, String, Double)? {
            let m = name.split(separator: "-")
            guard m.count >= 3, let i = Int(m[0]) else { return nil }
            let stamp = String(m.last!.dropLast(4))  // 00h00m01s000
            let parts = stamp.split(whereSeparator: { "hms".contains($0) }).compactMap { Double($0) }
            guard parts.count == 4 else { return nil }
            return (i, m[1..<(m.count - 1)].joined(separator: "-"), parts[0] * 3600 + parts[1] * 60 + parts[2] + parts[3] / 1000)
        }
        let parsed = files.compactMap(parse)
        XCTAssertEqual(parsed.count, 4)
        XCTAssertEqual(parsed.map(\.0), [0, 0, 1, 1])
        XCTAssertEqual(parsed.map(\.1), ["clip2s", "clip2s", "gapless-02", "gapless-02"])
        // The frame on screen at T: the last whose timestamp is ≤ T (30 fps: within 1/30 s before T).
        for ((_, _, t), wanted) in zip(parsed, [0.2, 1.0115, 0.2, 0.5]) {
            XCTAssertLessThanOrEqual(t, wanted + 0.0005, "not a frame after T")
            XCTAssertGreaterThan(t, wanted - 1.0 / 30 - 0.0005, "the last frame at or before T")
        }
        // gapless-02 is solid palette[2] (blue).
        let rgb = try XCTUnwrap(PixelProbe.pixel(dir.appendingPathComponent(files[3]).path, x: 160, y: 90))
        XCTAssertEqual(TestMedia.paletteIndex(r: rgb.r, g: rgb.g, b: rgb.b), 2, "\(rgb)")
    }

    /// A phone's portrait video (a landscape picture and a display matrix turning it a quarter)
    /// is captured as players show it: upright, 180×320, blue above red, as ffmpeg decodes it.
    /// Reel drew it on its side (320×180, red left) before its video filter turned pictures.
    func testAPortraitPhoneVideoIsCapturedUpright() throws {
        let dir = TestMedia.temporaryDirectory("reel-shots-portrait")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["--headless", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                   "--screenshot-at", "1", "--screenshot-dir", dir.path, TestMedia.path("portrait.mp4")], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        let shot = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: dir.path).first.map { dir.appendingPathComponent($0).path })
        let reference = dir.appendingPathComponent("ffmpeg.png").path
        let ffmpeg = ProcessRunner.run("/usr/bin/ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-ss", "1", "-i", TestMedia.path("portrait.mp4"),
                                                           "-frames:v", "1", reference], timeout: 30)
        XCTAssertEqual(ffmpeg.status, 0, ffmpeg.stderr)
        let size = try XCTUnwrap(PixelProbe.size(shot))
        XCTAssertEqual([size.width, size.height], [180, 320], "upright")
        let referenceSize = try XCTUnwrap(PixelProbe.size(reference))
        XCTAssertEqual([size.width, size.height], [referenceSize.width, referenceSize.height], "as ffmpeg shows it")
        for (y, color) in [(80, PixelProbe.RGB(r: 0, g: 0, b: 255)), (240, PixelProbe.RGB(r: 255, g: 0, b: 0))] {
            let seen = try XCTUnwrap(PixelProbe.pixel(shot, x: 90, y: y))
            let expected = try XCTUnwrap(PixelProbe.pixel(reference, x: 90, y: y))
            XCTAssertLessThan(seen.distance(to: color), 60, "y \(y): \(seen)")
            XCTAssertLessThan(seen.distance(to: expected), 60, "y \(y): \(seen), ffmpeg \(expected)")
        }
    }

    /// Phone videos and others in one queue (portrait, landscape, portrait: switched gaplessly):
    /// each is shown as stored to be shown. videoflip's own `auto` kept the last orientation tag
    /// across streams, so the landscape video after a portrait one was turned on its side too.
    func testEachItemOfAMixedQueueIsTurnedByItsOwnOrientation() throws {
        let dir = TestMedia.temporaryDirectory("reel-shots-mixed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["--headless", "--events", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                   "--screenshot-at", "1", "--screenshot-dir", dir.path,
                                   TestMedia.path("portrait.mp4"), TestMedia.path("landscape.mp4"), TestMedia.path("portrait.mp4")], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.lines.filter { $0.contains("\"event\":\"item\"") }.count, 3)
        let shots = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().map { dir.appendingPathComponent($0).path }
        XCTAssertEqual(shots.count, 3, "\(shots)")
        guard shots.count == 3 else { return }
        let blue = PixelProbe.RGB(r: 0, g: 0, b: 255), red = PixelProbe.RGB(r: 255, g: 0, b: 0)
        for (shot, upright) in zip(shots, [true, false, true]) {
            let size = try XCTUnwrap(PixelProbe.size(shot))
            XCTAssertEqual([size.width, size.height], upright ? [180, 320] : [320, 180], shot)
            // Portrait: blue above red; landscape: red left of blue.
            let first = try XCTUnwrap(PixelProbe.pixel(shot, x: upright ? 90 : 80, y: upright ? 80 : 90))
            let second = try XCTUnwrap(PixelProbe.pixel(shot, x: upright ? 90 : 240, y: upright ? 240 : 90))
            XCTAssertLessThan(first.distance(to: upright ? blue : red), 60, "\(shot): \(first)")
            XCTAssertLessThan(second.distance(to: upright ? red : blue), 60, "\(shot): \(second)")
        }
    }

    /// An HLS stream of MPEG-TS segments: its timestamps start an hour in (GStreamer's muxer),
    /// and the frames are still found by position — every target was once caught by the first
    /// frame and named by its raw timestamp, so all of them landed in one file.
    func testTransportStreamFramesAreFoundByPositionNotByTimestamp() throws {
        let dir = TestMedia.temporaryDirectory("reel-shots-ts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["--headless", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true", "--quality", "360p",
                                   "--screenshot-at", "1,3", "--screenshot-dir", dir.path, TestMedia.path("hls/vod/master.m3u8")], timeout: 40)
        XCTAssertEqual(r.status, 0, r.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(files, ["000-master-00h00m01s000.png", "000-master-00h00m03s000.png"])
        guard files.count == 2 else { return }
        let difference = PixelProbe.difference(dir.appendingPathComponent(files[0]).path, dir.appendingPathComponent(files[1]).path)
        XCTAssertGreaterThan(difference ?? 0, 0, "two frames (the clip's time overlay differs)")
    }

    /// The same command writes the same frames with the same names on every run (screenshot-based
    /// UI tests compare them byte for byte), whatever the timer and the machine's load do.
    func testTwoRunsWriteByteIdenticalFilesWithTheSameNames() throws {
        var runs: [[String: Data]] = []
        for run in 0..<2 {
            let dir = TestMedia.temporaryDirectory("reel-shots-\(run)")
            defer { try? FileManager.default.removeItem(at: dir) }
            let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                      ["--headless", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                       "--progress-interval", run == 0 ? "20" : "1000",
                                       "--screenshot-at", "2,5", "--screenshot-dir", dir.path, TestMedia.path("color10s.mp4")], timeout: 30)
            XCTAssertEqual(r.status, 0, r.stderr)
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
                files[name] = try Data(contentsOf: dir.appendingPathComponent(name))
            }
            runs.append(files)
        }
        XCTAssertEqual(runs[0].keys.sorted(), ["000-color10s-00h00m02s000.png", "000-color10s-00h00m05s000.png"],
                       "the frames on screen at 2 s and 5 s: those whose timestamps are 2 s and 5 s")
        XCTAssertEqual(runs[0].keys.sorted(), runs[1].keys.sorted(), "the same names")
        for (name, bytes) in runs[0] { XCTAssertEqual(runs[1][name], bytes, "\(name): the same bytes") }
        // color10s shows palette colour i during second i: the frame at 2.000 s is colour 2.
        let probe = TestMedia.temporaryDirectory("reel-shots-probe")
        defer { try? FileManager.default.removeItem(at: probe) }
        let file = probe.appendingPathComponent("a.png")
        try XCTUnwrap(runs[0]["000-color10s-00h00m02s000.png"]).write(to: file)
        let rgb = try XCTUnwrap(PixelProbe.pixel(file.path, x: 20, y: 20))
        XCTAssertEqual(TestMedia.paletteIndex(r: rgb.r, g: rgb.g, b: rgb.b), 2, "\(rgb)")
    }

    func testBadPositionsAreRefused() {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--screenshot-at", "50%,soon", TestMedia.path("clip2s.mp4")], timeout: 30)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("--screenshot-at"), r.stderr)
    }
}
