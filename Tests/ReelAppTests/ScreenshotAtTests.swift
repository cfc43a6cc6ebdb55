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
        // Captured as playback passes T: at T or within a few frames after it.
        for ((_, _, t), wanted) in zip(parsed, [0.2, 1.0115, 0.2, 0.5]) {
            XCTAssertGreaterThanOrEqual(t, wanted - 0.034)
            XCTAssertLessThan(t, wanted + 0.25)
        }
        // gapless-02 is solid palette[2] (blue).
        let rgb = try XCTUnwrap(PixelProbe.pixel(dir.appendingPathComponent(files[3]).path, x: 160, y: 90))
        XCTAssertEqual(TestMedia.paletteIndex(r: rgb.r, g: rgb.g, b: rgb.b), 2, "\(rgb)")
    }

    func testBadPositionsAreRefused() {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--screenshot-at", "50%,soon", TestMedia.path("clip2s.mp4")], timeout: 30)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("--screenshot-at"), r.stderr)
    }
}
