import ReelEngine
import XCTest

/// The window's sink per display backend (`VideoOutput.chooseSink`): what the user forces wins;
/// else the first candidate that reaches READY on this display; on Wayland, when none does, the
/// picture is dropped and the window says why (never a sink that opens a window of its own).
final class VideoOutputSinkTests: XCTestCase {
    func testTheUsersSinkWinsOnBothBackends() {
        for backend in [VideoOutput.Backend.x11, .wayland] {
            XCTAssertEqual(VideoOutput.chooseSink(for: backend, forced: "fakesink name=mine", environment: [:]).description, "fakesink name=mine")
            let fromEnvironment = VideoOutput.chooseSink(for: backend, environment: ["REEL_VIDEO_SINK": "ximagesink"])
            XCTAssertEqual(fromEnvironment.description, "ximagesink")
            XCTAssertTrue(fromEnvironment.drawsInWindow)
            XCTAssertEqual(VideoOutput.chooseSink(for: backend, forced: "fakesink", environment: ["REEL_VIDEO_SINK": "ximagesink"]).description,
                           "fakesink", "--video-sink over the environment")
        }
    }

    /// The test run has an X display (Xvfb) and no Wayland compositor: on X11 an X sink is
    /// chosen; asked for Wayland, waylandsink cannot reach READY, and nothing else is tried.
    func testEachBackendTakesOnlyItsOwnSinks() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["DISPLAY"] == nil, "needs the test run's X display")
        let x11 = VideoOutput.chooseSink(for: .x11, environment: ["DISPLAY": ProcessInfo.processInfo.environment["DISPLAY"]!])
        XCTAssertTrue(x11.description.hasPrefix("xvimagesink") || x11.description.hasPrefix("ximagesink"), x11.description)
        XCTAssertTrue(x11.drawsInWindow)
        unsetenv("WAYLAND_DISPLAY")
        let wayland = VideoOutput.chooseSink(for: .wayland, environment: [:])
        XCTAssertEqual(wayland.description, "fakesink sync=true")
        XCTAssertFalse(wayland.drawsInWindow)
        XCTAssertEqual(wayland.message, VideoOutput.noVideoMessage)
    }
}
