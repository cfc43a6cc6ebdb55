import Foundation
import ReelTestSupport
import XCTest

/// Reel's window on a real Wayland compositor (weston 10 headless, pixman), read back from the
/// compositor's own screenshot: the video is drawn inside Reel's window (one picture, with Reel's
/// controls right under it), never in a window of a sink's own; the socket's window capture
/// holds the frame; fullscreen fills the output; the aspect modes change the picture. With
/// Xwayland running (as on GNOME and Plasma), no X11 window appears either.
/// color10s.mp4 shows palette[i] during second i: paused at 4.5 s, the picture is magenta.
final class WaylandWindowTests: XCTestCase {
    private static let magenta = PixelProbe.RGB(r: 255, g: 0, b: 255)

    private final class Session {
        let weston: WestonSession
        let reel: BackgroundProcess
        let client: IPCTestClient
        let directory: URL
        private var id = 0

        init(xwayland: Bool, scale: Int = 1) throws {
            weston = try WestonSession(xwayland: xwayland, scale: scale)
            directory = TestMedia.temporaryDirectory("reel-wayland")
            let socket = directory.appendingPathComponent("reel.sock").path
            reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--no-mpris", "--audio-sink", "fakesink sync=true", "--ipc", socket, TestMedia.path("color10s.mp4")],
                                         environment: weston.environment.merging(["GDK_SCALE": String(scale)]) { $1 })
            guard let client = IPCTestClient(path: socket, timeout: 20) else {
                let err = reel.stderr
                _ = reel.finish(timeout: 5)
                throw NSError(domain: "WaylandWindowTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "no control socket: \(err)"])
            }
            self.client = client
        }

        @discardableResult
        func command(_ command: [Any]) -> [String: Any]? {
            id += 1
            return client.request(command, id: id)
        }

        func get(_ name: String) -> Any? { command(["get_property", name])?["data"] }

        func eventually(_ what: String, timeout: Double = 15, _ condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition() && Date() < deadline { usleep(100_000) }
            XCTAssertTrue(condition(), "timed out waiting for \(what); stderr: \(reel.stderr.suffix(800))")
        }

        /// The compositor's screen, once the picture has had time to be drawn.
        func screen() throws -> String {
            usleep(700_000)
            return try XCTUnwrap(weston.screenshot(in: directory), "weston-screenshooter read nothing: \(weston.logText.suffix(600))")
        }

        func finish() -> String {
            command(["quit"])
            let (_, killed) = reel.finish(timeout: 10)
            XCTAssertFalse(killed, "reel quits")
            weston.stop()
            if ProcessInfo.processInfo.environment["REEL_KEEP"] == nil { try? FileManager.default.removeItem(at: directory) }
            return reel.stderr
        }
    }

    /// Paused on the magenta second.
    private func pausedOnMagenta(_ s: Session) {
        s.eventually("playing") { s.get("time-control") as? String == "playing" }
        s.command(["set_property", "pause", true])
        s.command(["seek", 4.5, "absolute+exact"])
        s.eventually("paused at 4.5 s") {
            abs((s.get("position") as? Double ?? 0) - 4.5) < 0.05 && s.get("seeking") as? Bool == false && s.get("pause") as? Bool == true
        }
    }

    /// The picture is one filled box in Reel's window: Reel's light control bar right under it.
    private func assertVideoInReelsWindow(_ shot: String, _ s: Session, file: StaticString = #filePath, line: UInt = #line) throws {
        let box = try XCTUnwrap(PixelProbe.box(of: Self.magenta, in: shot), "no video on the screen \(shot)", file: file, line: line)
        XCTAssertGreaterThan(box.width, 300, "the picture is drawn: \(box)", file: file, line: line)
        XCTAssertLessThan(box.width, s.weston.width, "in a window, not over the whole screen: \(box)", file: file, line: line)
        XCTAssertGreaterThan(Double(box.pixels), 0.97 * Double(box.width * box.height), "one picture, whole: \(box)", file: file, line: line)
        // 16:9 as the clip is (fit): letterboxed in the area, never stretched.
        XCTAssertEqual(Double(box.width) / Double(box.height), 16.0 / 9.0, accuracy: 0.05, "\(box)", file: file, line: line)
        // Reel's control bar (Adwaita's light grey) is under the video area, in the same window.
        var light = 0
        for dy in [30, 45, 60] {
            if let p = PixelProbe.pixel(shot, x: box.x + box.width / 2, y: box.y + box.height + dy), p.r + p.g + p.b > 600 { light += 1 }
        }
        XCTAssertGreaterThanOrEqual(light, 2, "Reel's controls are right under the picture: \(box)", file: file, line: line)
    }

    func testTheVideoIsInsideReelsWindowOnWayland() throws {
        let s = try Session(xwayland: false)
        pausedOnMagenta(s)
        let shot = try s.screen()
        try assertVideoInReelsWindow(shot, s)

        // The window capture over the socket has the frame, in the video area above the controls.
        let reply = try XCTUnwrap(s.command(["screenshot", s.directory.appendingPathComponent("window.png").path, "window"]))
        XCTAssertEqual(reply["error"] as? String, "success", "\(reply)")
        let capture = s.directory.appendingPathComponent("window.png").path
        let inCapture = try XCTUnwrap(PixelProbe.box(of: Self.magenta, in: capture), "the capture has the video")
        let onScreen = try XCTUnwrap(PixelProbe.box(of: Self.magenta, in: shot))
        XCTAssertEqual(inCapture.width, onScreen.width, accuracy: 4, "the capture shows the picture at the size it has on screen")
        XCTAssertEqual(inCapture.height, onScreen.height, accuracy: 4)

        // Fullscreen fills the output (16:9 on 1280x800: the full width, bars above and below).
        XCTAssertEqual(s.command(["set_property", "fullscreen", true])?["error"] as? String, "success")
        s.eventually("fullscreen") { s.get("fullscreen") as? Bool == true }
        let full = try XCTUnwrap(PixelProbe.box(of: Self.magenta, in: try s.screen()))
        XCTAssertEqual(full.width, s.weston.width, accuracy: 2, "fullscreen: the whole width \(full)")
        XCTAssertEqual(full.height, s.weston.width * 9 / 16, accuracy: 4, "\(full)")

        // fill: cropped to the video area's shape (the screen above the controls, which stay while
        // paused): no bars left, the picture taller than fit's.
        XCTAssertEqual(s.command(["set_property", "aspect", "fill"])?["error"] as? String, "success")
        s.eventually("fill") { s.get("aspect") as? String == "fill" }
        let filled = try XCTUnwrap(PixelProbe.box(of: Self.magenta, in: try s.screen()))
        XCTAssertEqual(filled.width, s.weston.width, accuracy: 2, "\(filled)")
        XCTAssertLessThanOrEqual(filled.y, 2, "from the top of the screen: no bar \(filled)")
        XCTAssertGreaterThan(filled.height, full.height, "fill covers what fit left black \(filled) vs \(full)")
        XCTAssertGreaterThan(Double(filled.pixels), 0.98 * Double(filled.width * filled.height), "\(filled)")
        let stderr = s.finish()
        XCTAssertFalse(stderr.contains("cannot draw into the window"), stderr)
    }

    /// With Xwayland, as GNOME and Plasma run it: the X11 sinks would reach it and open a window
    /// of their own there (seen: ximagesink's "reel" window, class "GStreamer"). Reel draws in its
    /// Wayland window, and no X11 window exists.
    func testWithXwaylandNoX11WindowAppears() throws {
        let s = try Session(xwayland: true)
        let display = try XCTUnwrap(s.weston.xDisplay)
        pausedOnMagenta(s)
        try assertVideoInReelsWindow(try s.screen(), s)
        // Xwayland's windows: weston's own window manager's, and no sink's ("reel", class GStreamer).
        let tree = ProcessRunner.run("/usr/bin/xwininfo", ["-root", "-tree", "-display", display], timeout: 20)
        XCTAssertEqual(tree.status, 0, tree.stderr)
        XCTAssertTrue(tree.stdout.contains("Weston WM"), "the X11 windows were listed: \(tree.stdout) \(tree.stderr)")
        XCTAssertFalse(tree.stdout.lowercased().contains("reel") || tree.stdout.contains("GStreamer"), "no X11 window of Reel's: \(tree.stdout)")
        _ = s.finish()
    }

    /// A HiDPI screen (the output at scale 2, as GDK_SCALE=2 desktops have it): the picture fills
    /// the video area at twice the pixels, never a quarter of it in a corner.
    func testOnAHiDPIScreenThePictureFillsTheArea() throws {
        let s = try Session(xwayland: false, scale: 2)
        pausedOnMagenta(s)
        let shot = try s.screen()
        let screen = try XCTUnwrap(PixelProbe.size(shot))
        XCTAssertEqual(screen.width, 2 * s.weston.width, "the screenshot has the device pixels")
        let box = try XCTUnwrap(PixelProbe.box(of: Self.magenta, in: shot), "no video on the screen \(shot)")
        // The 960x600 window's area is 938x528 logical pixels: 1876x1056 device pixels.
        XCTAssertGreaterThan(box.width, 1600, "the picture fills the area at scale 2: \(box)")
        XCTAssertGreaterThan(Double(box.pixels), 0.97 * Double(box.width * box.height), "\(box)")
        XCTAssertEqual(Double(box.width) / Double(box.height), 16.0 / 9.0, accuracy: 0.05, "\(box)")
        _ = s.finish()
    }
}
