import Foundation
import ReelCore
import ReelGLib
import Synchronization
@testable import ReelEngine
import ReelTestSupport
import XCTest

/// Seek-bar previews on real media (issue 48): the frame a second pipeline decodes at a time is
/// the picture at that time (color10s.mp4 is one colour a second), small, kept within its bound,
/// and a file with no picture gives none without holding anything up.
final class SeekPreviewerTests: XCTestCase {
    func testTheFrameAtATimeIsThePictureThereAtThePreviewsSize() throws {
        TestMedia.ensureGenerated()
        let previewer = SeekPreviewer(width: 160)
        let uri = TestMedia.url("color10s.mp4").absoluteString
        for second in [0, 3, 7] {
            let image = try XCTUnwrap(previewer.frame(uri: uri, time: Double(second) + 0.5), "a frame at \(second).5 s")
            XCTAssertEqual(image.width, 160)
            XCTAssertEqual(image.height, 90, "640×360 scaled to 160 wide, square pixels")
            XCTAssertLessThanOrEqual(image.time, Double(second) + 0.5, "the keyframe at or before the time")
            let (r, g, b) = image.pixel(x: 80, y: 45)
            let expected = TestMedia.palette[second]
            XCTAssertEqual(r, expected.r, accuracy: 24, "second \(second): \((r, g, b))")
            XCTAssertEqual(g, expected.g, accuracy: 24, "second \(second): \((r, g, b))")
            XCTAssertEqual(b, expected.b, accuracy: 24, "second \(second): \((r, g, b))")
        }
        XCTAssertEqual(previewer.decodedCount, 3)
    }

    func testHoversNearEachOtherShareAFrameAndTheCacheKeepsItsBound() throws {
        TestMedia.ensureGenerated()
        let one = 160 * 3 * 90  // bytes of a frame
        let previewer = SeekPreviewer(width: 160, memoryBound: 2 * one + one / 2, bucket: 1)
        let uri = TestMedia.url("color10s.mp4").absoluteString
        let got = Seen()
        for t in [1.1, 1.6, 2.2, 3.3, 4.4] {
            let before = got.times.withLock { $0.count }
            previewer.request(uri: uri, time: t) { image in got.times.withLock { $0.append(image?.time ?? -1) } }
            // The answer comes on the main queue (GLib's main context).
            onMain { _ = GLibMainLoop.run(until: { got.times.withLock { $0.count } > before }, timeout: 20) }
        }
        let times = got.times.withLock { $0 }
        XCTAssertEqual(times.count, 5)
        XCTAssertFalse(times.contains(-1), "\(times)")
        XCTAssertEqual(previewer.decodedCount, 4, "1.1 and 1.6 s are one bucket: one decode")
        XCTAssertLessThanOrEqual(previewer.cachedBytes, 2 * one + one / 2, "within the bound")
    }

    /// A DASH MPD (ffmpeg's muxer: 360p and 720p in one adaptation set, 2 s segments, a keyframe
    /// each) previews from its lowest Representation: frames at their keyframes, pictures that
    /// differ along the timeline, and no byte of the 720p asked for.
    func testADASHStreamPreviewsFromItsLowestRepresentation() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.directory.appendingPathComponent("dash/ffmpeg"), at: "/dash")
        let previewer = SeekPreviewer(width: 160)
        let uri = server.url("/dash/manifest.mpd").absoluteString
        let early = try XCTUnwrap(previewer.frame(uri: uri, time: 1), "a frame at 1 s: \(server.requests.map(\.path))")
        let late = try XCTUnwrap(previewer.frame(uri: uri, time: 5), "a frame at 5 s: \(server.requests.map(\.path))")
        XCTAssertEqual([early.width, early.height], [160, 90])
        XCTAssertEqual(early.time, 0, accuracy: 0.1, "the keyframe at or before 1 s")
        XCTAssertEqual(late.time, 4, accuracy: 0.1, "the keyframe at or before 5 s")
        XCTAssertNotEqual(early.rgb, late.rgb, "testsrc2 moves: two times, two pictures")
        let paths = server.requests.map(\.path)
        XCTAssertTrue(paths.contains { $0.contains("chunk-stream0-") }, "\(paths)")
        XCTAssertFalse(paths.contains { $0.contains("stream1") }, "nothing of the 720p Representation: \(paths)")
    }

    func testAnItemWithoutPictureGivesNone() throws {
        TestMedia.ensureGenerated()
        let previewer = SeekPreviewer()
        XCTAssertNil(previewer.frame(uri: TestMedia.url("tone3s.m4a").absoluteString, time: 1))
        XCTAssertNil(previewer.frame(uri: "file:///nonexistent/reel/film.mp4", time: 1))
        XCTAssertNotNil(previewer.frame(uri: TestMedia.url("clip2s.mp4").absoluteString, time: 1), "and the next item's still come")
    }
}

private final class Seen: Sendable {
    let times = Mutex<[Double]>([])
}
