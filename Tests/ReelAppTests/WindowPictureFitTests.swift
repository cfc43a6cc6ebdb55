import Foundation
import ReelCore
@_spi(Testing) import ReelEngine
import ReelTestSupport
import ReelUI
import XCTest
@testable import ReelApp

/// ximagesink cannot scale: the picture is fitted to the window's video area once, in the video
/// filter, in the decoder's format (`VideoFilter.fit`), and playsink converts the window-sized
/// picture. What the sink gets follows the area; captures keep the picture's own size; the
/// window shows the right frame.
final class WindowPictureFitTests: XCTestCase {
    func testTheSinkGetsTheVideoAreaWhileCapturesKeepThePicture() throws {
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("color10s.mp4")], width: 640, height: 400)
            defer { h.close() }
            h.pause(at: 2.5)
            let v = h.window.videoRect
            let sink = try XCTUnwrap(h.player.videoSinkInputSize, "the sink negotiated")
            XCTAssertEqual(sink.width, v.width, "frames at the video area's width (\(v))")
            XCTAssertEqual(sink.height, v.height, "and its height")
            // Scaled before playsink's converter, not by it: the filter hands over that size.
            let fitted = try XCTUnwrap(h.player.videoFilterOutputSize)
            XCTAssertEqual(fitted.width, v.width, "fitted in the filter")
            XCTAssertEqual(fitted.height, v.height)
            let shot = try h.capture("fitted")
            SessionHarness.assertPalette(h.videoCenterColor(shot), 2, "the frame at 2.5 s")
            let frame = try h.player.captureFrame(at: 2.5).get()
            XCTAssertEqual(frame.size?.width, 640, "a capture is the picture, not the window")
            XCTAssertEqual(frame.size?.height, 360)
        }
    }
}
