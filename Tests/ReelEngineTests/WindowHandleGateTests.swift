import Foundation
import ReelCore
import ReelEngine
import ReelGLib
import ReelTestSupport
import XCTest

/// `Player.expectWindowHandle` (`WindowHandleGate`): a pipeline started before its window exists
/// waits at its first frame for the window's handle, then draws that frame in the window at the
/// window's size; with no handle coming, it goes on. The window here is the X display's root
/// window (ximagesink draws into any X window), read back with ImageMagick's `import`.
final class WindowHandleGateTests: XCTestCase {
    private static let sink = "ximagesink handle-events=false force-aspect-ratio=true"

    override func setUpWithError() throws {
        guard let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty else {
            throw XCTSkip("needs an X display (make test runs every test under Xvfb)")
        }
        TestMedia.ensureGenerated()
    }

    /// The root window's id and size (`xwininfo -root`).
    private static func rootWindow() -> (id: UInt, width: Int, height: Int)? {
        let out = ProcessRunner.run("/usr/bin/xwininfo", ["-root"], timeout: 10).stdout
        func value(after label: String) -> String? {
            guard let range = out.range(of: label) else { return nil }
            return out[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\n" }).first.map(String.init)
        }
        guard let hex = value(after: "Window id: "), let id = UInt(hex.dropFirst(2), radix: 16),
              let width = value(after: "Width: ").flatMap(Int.init), let height = value(after: "Height: ").flatMap(Int.init) else { return nil }
        return (id, width, height)
    }

    func testTheFirstFrameWaitsForTheWindowAndIsDrawnAtItsSize() throws {
        let root = try XCTUnwrap(Self.rootWindow(), "xwininfo -root")
        let colors = TestMedia.path("color10s.mp4")
        try onMain {
            let h = try EngineHarness(videoSink: Self.sink)
            defer { h.shutdown() }
            h.player.expectWindowHandle()
            h.player.load(colors)  // paused: the first frame is the one shown
            _ = GLibMainLoop.run(until: { h.player.status == .readyToPlay }, timeout: 1.5)
            XCTAssertNotEqual(h.player.status, .readyToPlay, "no first frame before there is a window to draw it in")
            XCTAssertTrue(h.player.setWindowHandle(root.id))
            h.waitReady()
            XCTAssertTrue(h.errors.isEmpty, "\(h.errors)")
            // color10s.mp4 (640x360, palette colour 0 in its first second) fills the window's
            // width at the window's size: 1280x720 in the middle of 1280x800. A frame negotiated
            // at the video's own size would cover only 640x360 in the middle.
            let shot = FileManager.default.temporaryDirectory.appendingPathComponent("reel-gate-\(UUID().uuidString).png").path
            defer { try? FileManager.default.removeItem(atPath: shot) }
            let expected = PixelProbe.RGB(r: TestMedia.palette[0].r, g: TestMedia.palette[0].g, b: TestMedia.palette[0].b)
            var near = PixelProbe.RGB(r: -1, g: -1, b: -1), far = near
            let drawn = GLibMainLoop.run(until: {
                guard ProcessRunner.run("/usr/bin/import", ["-window", "root", shot], timeout: 30).status == 0 else { return false }
                near = PixelProbe.pixel(shot, x: root.width / 2, y: root.height / 2) ?? near
                far = PixelProbe.pixel(shot, x: root.width / 20, y: root.height / 2) ?? far
                return near.distance(to: expected) < 60 && far.distance(to: expected) < 60
            }, timeout: 10)
            XCTAssertTrue(drawn, "the frame at the window's size: centre \(near), near the left edge \(far), expected \(expected)")
        }
    }

    func testWithNoWindowComingTheFirstFrameGoesOn() throws {
        let colors = TestMedia.path("color10s.mp4")
        try onMain {
            let h = try EngineHarness(videoSink: "fakesink sync=true enable-last-sample=true")
            defer { h.shutdown() }
            h.player.expectWindowHandle()
            h.player.load(colors)
            h.player.play()
            _ = GLibMainLoop.run(until: { h.player.status == .readyToPlay }, timeout: 1)
            XCTAssertNotEqual(h.player.status, .readyToPlay, "the first frame waits for the window")
            // No handle is coming (no X11 window): the waiting caps query goes on.
            h.player.windowHandleUnavailable()
            h.waitReady()
            h.wait("playing") { h.player.timeControlStatus == .playing && h.player.position > 0.2 }
            XCTAssertTrue(h.errors.isEmpty, "\(h.errors)")
        }
    }
}
