import Foundation
import ReelTestSupport
import XCTest

/// Hovering the seek bar shows the frame at that time above it (issue 48), as the X server's
/// pixels show it: the real window, the pointer moved by xdotool, the screen read by ImageMagick.
/// color10s.mp4 is one colour a second (`TestMedia.palette`); the window is paused on its first.
final class SeekPreviewWindowTests: XCTestCase {
    func testHoveringTheSeekBarShowsTheFrameThereAndLeavingHidesIt() throws {
        try hoverAndCheck(input: TestMedia.path("color10s.mp4"), seconds: (3, 9))
    }

    /// The same on a protected HLS stream (color10s.mp4 cut into 2-s segments by ffmpeg, every
    /// request must carry the header or get 401): the preview's own pipeline goes through the
    /// gateway with the item's header, as the server's log shows.
    func testAProtectedHLSStreamsPreviewCarriesItsHeader() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "no ffmpeg")
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-seek-preview-hls")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.package(into: dir, segmentSeconds: 2)
        let server = try Self.protectedServer(dir)
        defer { server.shutdown() }
        // hlsdemux2 lands a key-unit seek on the start of the segment that holds the time: the
        // frames of seconds 2 and 8 (3.5 s is in 2–4, 9.5 s in 8–10).
        try hoverAndCheck(input: server.url("/hls/index.m3u8").absoluteString, extra: ["--header", "Authorization: Bearer preview-secret"], seconds: (2, 8))
        let segments = server.requests.filter { $0.path.hasSuffix(".ts") }
        XCTAssertTrue(segments.contains { $0.path.hasSuffix("seg04.ts") }, "the preview fetched the segment of 9 s: \(segments.map(\.path))")
        XCTAssertTrue(server.requests.allSatisfy { $0.header("Authorization") == "Bearer preview-secret" }, "every request carried the header")
    }

    /// A master that lists an I-frame playlist (here of 1-s segments, a keyframe each, beside the
    /// variant's 2-s ones): the preview reads it — the frame of second 3 at 3.5 s where the
    /// variant would give second 2 — and its requests carry the header too.
    func testAMastersIFramePlaylistIsWhatThePreviewReads() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "no ffmpeg")
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-seek-preview-iframes")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.package(into: dir.appendingPathComponent("v"), segmentSeconds: 2)
        try Self.package(into: dir.appendingPathComponent("if"), segmentSeconds: 1, ["-hls_flags", "iframes_only"])
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360\nv/index.m3u8\n#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,RESOLUTION=640x360,URI=\"if/index.m3u8\"\n"
            .write(to: dir.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        let server = try Self.protectedServer(dir)
        defer { server.shutdown() }
        try hoverAndCheck(input: server.url("/hls/master.m3u8").absoluteString, extra: ["--header", "Authorization: Bearer preview-secret"], seconds: (3, 9))
        let iFrames = server.requests.filter { $0.path.hasPrefix("/hls/if/") }
        XCTAssertTrue(iFrames.contains { $0.path == "/hls/if/seg03.ts" }, "the I-frame playlist's entry of second 3: \(iFrames.map(\.path))")
        XCTAssertTrue(server.requests.allSatisfy { $0.header("Authorization") == "Bearer preview-secret" }, "every request carried the header")
    }

    /// color10s.mp4 cut by ffmpeg into HLS segments of `segmentSeconds` (index.m3u8 in `dir`).
    private static func package(into dir: URL, segmentSeconds: Int, _ extra: [String] = []) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let packaged = ProcessRunner.run("/usr/bin/ffmpeg", ["-loglevel", "error", "-i", TestMedia.path("color10s.mp4"), "-c", "copy", "-f", "hls",
                                                              "-hls_time", String(segmentSeconds), "-hls_list_size", "0"] + extra
                                                              + ["-hls_segment_filename", dir.appendingPathComponent("seg%02d.ts").path, dir.appendingPathComponent("index.m3u8").path],
                                         timeout: 60)
        XCTAssertEqual(packaged.status, 0, packaged.stderr)
    }

    /// `dir` served at /hls, every request refused (401) without the header.
    private static func protectedServer(_ dir: URL) throws -> HTTPFixtureServer {
        let server = try HTTPFixtureServer()
        server.serveDirectory(dir, at: "/hls")
        server.requireHeader("Authorization", "Bearer preview-secret")
        return server
    }

    /// Plays `input` (color10s.mp4's pictures) paused in a window, hovers the seek bar at 35 % and
    /// 95 % and away, and checks the pixels 50 px above the bar each time: the colours of
    /// `seconds` (the keyframes at or before 3.5 and 9.5 s), then none.
    private func hoverAndCheck(input: String, extra: [String] = [], seconds: (Int, Int), file: StaticString = #filePath, line: UInt = #line) throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no X display: run under xvfb-run (make test does)") }
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-seek-preview")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        // The accessibility bridge on, to find the seek bar on the screen (`atspi-tree.py`).
        let reel = try BackgroundProcess("/usr/bin/env", ["-u", "NO_AT_BRIDGE", ProcessRunner.reelExecutable, "--no-mpris", "--autoload=no", "--no-resume",
                                                          "--pause", "--ipc", socket, "--audio-sink", "fakesink sync=true"] + extra + [input])
        defer { reel.finish(timeout: 10) }
        let client = try XCTUnwrap(IPCTestClient(path: socket, timeout: 30), reel.stderr, file: file, line: line)
        let deadline = Date().addingTimeInterval(20)
        while client.request(["get_property", "duration"], id: 1)?["data"] as? Double == nil && Date() < deadline { usleep(100_000) }
        let tree = ProcessRunner.run("/usr/bin/python3", [TestMedia.packageRoot.appendingPathComponent("Resources/scripts/atspi-tree.py").path, "reel", "20",
                                                                String(reel.process.processIdentifier)], timeout: 40)
        let seek = try XCTUnwrap(tree.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["name"] as? String == "Seek" && $0["role"] as? String == "slider" }, tree.stdout + tree.stderr)
        let e = try XCTUnwrap(seek["extents"] as? [Int], "\(seek)")
        let (barX, barY, barWidth, barHeight) = (e[0], e[1], e[2], e[3])

        /// Moves the pointer over the bar at `fraction` and waits until the pixel 50 px above it
        /// is `color` (the preview's middle); returns the last colour seen.
        /// (`color` nil: until it is no longer `away`.)
        func hover(_ fraction: Double, until color: PixelProbe.RGB?, away: PixelProbe.RGB? = nil) -> PixelProbe.RGB? {
            let x = barX + Int(Double(barWidth) * fraction)
            _ = ProcessRunner.run("/usr/bin/xdotool", ["mousemove", String(x), String(barY + barHeight / 2)], timeout: 10)
            _ = ProcessRunner.run("/usr/bin/xdotool", ["mousemove_relative", "1", "0"], timeout: 10)
            var seen: PixelProbe.RGB?
            for attempt in 0..<20 {
                let shot = dir.appendingPathComponent("screen-\(fraction)-\(attempt).png").path
                _ = ProcessRunner.run("/usr/bin/import", ["-window", "root", shot], timeout: 20)
                seen = PixelProbe.pixel(shot, x: x, y: barY - 50)
                if let seen, let color, seen.distance(to: color) < 60 { return seen }
                if color == nil, let seen, let away, seen.distance(to: away) > 100 { return seen }
                usleep(250_000)
            }
            return seen
        }
        let first = PixelProbe.RGB(r: TestMedia.palette[seconds.0].r, g: TestMedia.palette[seconds.0].g, b: TestMedia.palette[seconds.0].b)
        let third = try XCTUnwrap(hover(0.35, until: first))
        XCTAssertLessThan(third.distance(to: first), 60, "at 35 % of 10 s: the frame of second \(seconds.0) (\(third))", file: file, line: line)
        let second = PixelProbe.RGB(r: TestMedia.palette[seconds.1].r, g: TestMedia.palette[seconds.1].g, b: TestMedia.palette[seconds.1].b)
        let ninth = try XCTUnwrap(hover(0.95, until: second))
        XCTAssertLessThan(ninth.distance(to: second), 60, "at 95 %: the frame of second \(seconds.1) (\(ninth))", file: file, line: line)
        XCTAssertEqual(client.request(["get_property", "time-pos"], id: 2)?["data"] as? Double ?? -1, 0, accuracy: 0.1, "hovering does not seek")
        // Away from the bar: the preview goes.
        _ = ProcessRunner.run("/usr/bin/xdotool", ["mousemove", String(barX + barWidth / 2), String(max(0, barY - 300))], timeout: 10)
        let gone = try XCTUnwrap(hover(-1, until: nil, away: second))
        XCTAssertGreaterThan(gone.distance(to: second), 100, "the preview is gone (\(gone))", file: file, line: line)
        _ = client.request(["quit"], id: 3)
    }
}
