import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest

/// Frames captured at known positions of color10s.mp4 show that second's palette colour, and the
/// reported PTS is the frame actually captured.
final class FrameCaptureTests: XCTestCase {
    private static func colour(of png: Data) throws -> (index: Int, rgb: PixelProbe.RGB) {
        let dir = TestMedia.temporaryDirectory("reel-capture")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("f.png")
        try png.write(to: file)
        let rgb = try XCTUnwrap(PixelProbe.pixel(file.path, x: 320, y: 180))
        return (TestMedia.paletteIndex(r: rgb.r, g: rgb.g, b: rgb.b), rgb)
    }

    func testCaptureAtPositionsShowsThePaletteColourOfThatSecond() throws {
        try onMain {
            let h = try EngineHarness(sync: false)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            // Out of order, mid-second, and back again: each is an accurate seek while paused.
            for t in [2.5, 7.25, 0.4, 9.5, 4.0] {
                let frame = try h.player.captureFrame(at: t).get()
                let pts = try XCTUnwrap(frame.time)
                XCTAssertEqual(pts, t, accuracy: 1.0 / 30 + 0.001, "an accurate seek lands on the frame at \(t)")
                XCTAssertLessThanOrEqual(pts, t + 0.001, "the frame shown at \(t) starts at or before it")
                XCTAssertEqual(frame.size?.width, 640)
                XCTAssertEqual(frame.size?.height, 360)
                let c = try Self.colour(of: frame.png)
                XCTAssertEqual(c.index, Int(t), "frame at \(t) s shows \(c.rgb), palette[\(Int(t))] expected")
            }
            XCTAssertEqual(h.player.timeControlStatus, .paused, "capturing leaves the player paused")
        }
    }

    func testCaptureWhenSettledWaitsForASeekInFlight() throws {
        try onMain {
            let h = try EngineHarness(sync: false)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.waitReady()
            h.player.seek(to: 6.5, mode: .accurate)
            var result: Result<CapturedFrame, PlaybackError>?
            h.player.captureFrameWhenSettled { result = $0 }
            h.wait("capture") { result != nil }
            let frame = try XCTUnwrap(result).get()
            XCTAssertEqual(try XCTUnwrap(frame.time), 6.5, accuracy: 0.034)
            XCTAssertEqual(try Self.colour(of: frame.png).index, 6)
        }
    }

    func testCaptureOnAFailedItemReportsItsError() throws {
        try onMain {
            let h = try EngineHarness(sync: false)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("notmedia.mp4"))
            switch h.player.captureFrame(at: 1) {
            case .success: XCTFail("a text file has no frames")
            case .failure(let e): XCTAssertEqual(e.kind, .unsupportedFormat, "\(e)")
            }
        }
    }

    func testAudioOnlyHasNoFrameToCapture() throws {
        try onMain {
            let h = try EngineHarness(sync: false)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("tone3s.m4a"))
            guard case .failure(let e) = h.player.captureFrame(at: 1) else { return XCTFail("no video, no frame") }
            XCTAssertEqual(e.kind, .output)
            XCTAssertTrue(e.message.contains("no video"), e.message)
        }
    }
}
