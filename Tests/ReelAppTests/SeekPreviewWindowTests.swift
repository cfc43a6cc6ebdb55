import Foundation
import ReelTestSupport
import XCTest

/// Hovering the seek bar shows the frame at that time above it (issue 48), as the X server's
/// pixels show it: the real window, the pointer moved by xdotool, the screen read by ImageMagick.
/// color10s.mp4 is one colour a second (`TestMedia.palette`); the window is paused on its first.
final class SeekPreviewWindowTests: XCTestCase {
    func testHoveringTheSeekBarShowsTheFrameThereAndLeavingHidesIt() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no X display: run under xvfb-run (make test does)") }
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-seek-preview")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        // The accessibility bridge on, to find the seek bar on the screen (`atspi-tree.py`).
        let reel = try BackgroundProcess("/usr/bin/env", ["-u", "NO_AT_BRIDGE", ProcessRunner.reelExecutable, "--no-mpris", "--autoload=no", "--no-resume",
                                                          "--pause", "--ipc", socket, "--audio-sink", "fakesink sync=true", TestMedia.path("color10s.mp4")])
        defer { reel.finish(timeout: 10) }
        let client = try XCTUnwrap(IPCTestClient(path: socket, timeout: 30), reel.stderr)
        let deadline = Date().addingTimeInterval(20)
        while client.request(["get_property", "duration"], id: 1)?["data"] as? Double == nil && Date() < deadline { usleep(100_000) }
        let tree = ProcessRunner.run("/usr/bin/python3", [TestMedia.packageRoot.appendingPathComponent("Resources/scripts/atspi-tree.py").path, "reel", "20"], timeout: 40)
        let seek = try XCTUnwrap(tree.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["name"] as? String == "Seek" && $0["role"] as? String == "slider" }, tree.stdout + tree.stderr)
        let e = try XCTUnwrap(seek["extents"] as? [Int], "\(seek)")
        let (barX, barY, barWidth, barHeight) = (e[0], e[1], e[2], e[3])

        /// Moves the pointer over the bar at `fraction` and waits until the pixel 50 px above it
        /// is `color` (the preview's middle); returns the last colour seen.
        func hover(_ fraction: Double, until color: PixelProbe.RGB?) -> PixelProbe.RGB? {
            let x = barX + Int(Double(barWidth) * fraction)
            _ = ProcessRunner.run("/usr/bin/xdotool", ["mousemove", String(x), String(barY + barHeight / 2)], timeout: 10)
            _ = ProcessRunner.run("/usr/bin/xdotool", ["mousemove_relative", "1", "0"], timeout: 10)
            var seen: PixelProbe.RGB?
            for attempt in 0..<20 {
                let shot = dir.appendingPathComponent("screen-\(fraction)-\(attempt).png").path
                _ = ProcessRunner.run("/usr/bin/import", ["-window", "root", shot], timeout: 20)
                seen = PixelProbe.pixel(shot, x: x, y: barY - 50)
                if let seen, let color, seen.distance(to: color) < 60 { return seen }
                if color == nil, let seen, seen.distance(to: PixelProbe.RGB(r: 255, g: 255, b: 0)) > 100 { return seen }
                usleep(250_000)
            }
            return seen
        }
        let yellow = PixelProbe.RGB(r: TestMedia.palette[3].r, g: TestMedia.palette[3].g, b: TestMedia.palette[3].b)
        let third = try XCTUnwrap(hover(0.35, until: yellow))
        XCTAssertLessThan(third.distance(to: yellow), 60, "at 35 % of 10 s: the frame of second 3 (\(third))")
        let purple = PixelProbe.RGB(r: TestMedia.palette[9].r, g: TestMedia.palette[9].g, b: TestMedia.palette[9].b)
        let ninth = try XCTUnwrap(hover(0.95, until: purple))
        XCTAssertLessThan(ninth.distance(to: purple), 60, "at 95 %: the frame of second 9 (\(ninth))")
        XCTAssertEqual(client.request(["get_property", "time-pos"], id: 2)?["data"] as? Double ?? -1, 0, accuracy: 0.1, "hovering does not seek")
        // Away from the bar: the preview goes.
        _ = ProcessRunner.run("/usr/bin/xdotool", ["mousemove", String(barX + barWidth / 2), String(max(0, barY - 300))], timeout: 10)
        let gone = hover(-1, until: nil)
        XCTAssertNotNil(gone)
        _ = client.request(["quit"], id: 3)
    }
}
