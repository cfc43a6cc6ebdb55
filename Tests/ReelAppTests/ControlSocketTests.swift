import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// A headless `reel --ipc` driven over its socket, as a UI test or QA script would.
final class ControlSocketTests: XCTestCase {
    private func startReel(_ extra: [String], media: [String], environment: [String: String] = [:]) throws -> BackgroundProcess {
        try BackgroundProcess(ProcessRunner.reelExecutable,
                              ["--headless", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=true enable-last-sample=true"] + extra + media,
                              environment: environment)
    }

    func testTwoClientsCommandsEventsScreenshotsAndMalformedInput() throws {
        let dir = TestMedia.temporaryDirectory("reel-ipc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        let shots = dir.appendingPathComponent("shots", isDirectory: true)
        let reel = try startReel(["--ipc", socket, "--screenshot-dir", shots.path], media: [TestMedia.path("color10s.mp4"), TestMedia.path("clip2s.mp4")])
        let a = try XCTUnwrap(IPCTestClient(path: socket), "the socket appears: \(reel.stderr)")
        let b = try XCTUnwrap(IPCTestClient(path: socket))

        // The socket is private to the user.
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? NSNumber)
        XCTAssertEqual(mode.intValue & 0o777, 0o600)

        XCTAssertEqual(a.request(["get_property", "playlist-count"], id: 1)?["data"] as? Int, 2)
        let pause = try XCTUnwrap(a.request(["pause"], id: 2))
        XCTAssertEqual(pause["error"] as? String, "success")
        XCTAssertEqual(pause["request_id"] as? Int, 2)
        XCTAssertEqual(a.request(["seek", 3.5, "absolute"], id: 3)?["error"] as? String, "success")

        // A screenshot taken after the seek is the frame at 3.5 s: palette[3].
        let shotPath = dir.appendingPathComponent("at-3.5.png").path
        let shot = try XCTUnwrap(a.request(["screenshot", shotPath], id: 4))
        XCTAssertEqual(shot["error"] as? String, "success", "\(shot)")
        let data = try XCTUnwrap(shot["data"] as? [String: Any])
        XCTAssertEqual(data["file"] as? String, shotPath)
        XCTAssertEqual(try XCTUnwrap(data["time"] as? Double), 3.5, accuracy: 0.034)
        XCTAssertEqual(data["width"] as? Int, 640)
        let rgb = try XCTUnwrap(PixelProbe.pixel(shotPath, x: 320, y: 180))
        XCTAssertEqual(TestMedia.paletteIndex(r: rgb.r, g: rgb.g, b: rgb.b), 3, "\(rgb)")

        // Without a path: the screenshot directory and the documented template.
        XCTAssertEqual(a.request(["seek", 7.25, "absolute"], id: 5)?["error"] as? String, "success")
        let named = try XCTUnwrap(a.request(["screenshot"], id: 6)?["data"] as? [String: Any])
        let namedFile = try XCTUnwrap(named["file"] as? String)
        let namedTime = try XCTUnwrap(named["time"] as? Double)
        XCTAssertEqual(namedTime, 7.25, accuracy: 0.034)
        XCTAssertEqual((namedFile as NSString).lastPathComponent, "000-color10s-\(TimeFormat.fileStamp(namedTime)).png", "the documented template")
        let rgb7 = try XCTUnwrap(PixelProbe.pixel(namedFile, x: 100, y: 100))
        XCTAssertEqual(TestMedia.paletteIndex(r: rgb7.r, g: rgb7.g, b: rgb7.b), 7, "\(rgb7)")

        // Malformed input: an error reply each time, and the server carries on for everyone.
        a.sendRaw("{this is not json\n")
        let garbage = try XCTUnwrap(a.nextReply())
        XCTAssertEqual(garbage["error"] as? String, "invalid-json")
        a.sendRaw("this is no command\n")  // mpv's text form, with an unknown name
        XCTAssertEqual(try XCTUnwrap(a.nextReply())["error"] as? String, "unknown-command")
        XCTAssertEqual(a.request(["fly", "to", "the", "moon"], id: 9)?["error"] as? String, "unknown-command")
        XCTAssertEqual(a.request(["seek"], id: 10)?["error"] as? String, "invalid-argument")
        a.sendRaw("{\"request_id\": 11, \"command\": [\"get_property\", \"position\"]")  // no newline yet…
        a.sendRaw(String(repeating: " ", count: 10) + "}\n")                               // …split across writes
        XCTAssertEqual(try XCTUnwrap(a.reply(to: 11)?["data"] as? Double), 7.25, accuracy: 0.05)
        a.sendRaw("{\"command\":[\"load\",\"" + String(repeating: "x", count: 1_100_000) + "\"]}\n")
        let overlong = try XCTUnwrap(a.nextReply())
        XCTAssertEqual(overlong["error"] as? String, "invalid-request", "a line over 1 MiB is refused")
        a.sendRaw("\u{0}\u{1}\u{ff}\n{\"command\":[]}\n[1,2]\n")
        XCTAssertEqual(b.request(["get_property", "pause"], id: 12)?["data"] as? Bool, true, "the other client is unaffected")

        // Events reach every client: next → both see item 1.
        XCTAssertEqual(b.request(["next"], id: 13)?["error"] as? String, "success")
        for client in [a, b] {
            let item = client.waitForEvent { $0["event"] as? String == "item" && $0["item"] as? Int == 1 }
            XCTAssertEqual((item?["uri"] as? String)?.hasSuffix("clip2s.mp4"), true)
        }
        XCTAssertEqual(b.request(["next"], id: 14)?["error"] as? String, "unavailable", "no item after the last")
        XCTAssertEqual(b.request(["get_property", "index"], id: 15)?["data"] as? Int, 1)
        XCTAssertEqual(b.request(["set_property", "volume", 25], id: 16)?["error"] as? String, "success")
        let volume = b.waitForEvent { $0["event"] as? String == "volume" }
        XCTAssertEqual(try XCTUnwrap(volume?["volume"] as? Double), 0.25, accuracy: 0.001)

        XCTAssertEqual(b.request(["quit", 3], id: 17)?["error"] as? String, "success", "quit is answered before the exit")
        let end = reel.finish(timeout: 10)
        XCTAssertFalse(end.killed, reel.stderr)
        XCTAssertEqual(end.status, 3)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "the socket file is removed")
    }

    func testDefaultPathIsInTheRuntimeDirAndAStaleSocketIsReplaced() throws {
        let runtime = TestMedia.temporaryDirectory("reel-xdg")
        defer { try? FileManager.default.removeItem(at: runtime) }
        let reel = try startReel(["--ipc", "auto"], media: [TestMedia.path("color10s.mp4")], environment: ["XDG_RUNTIME_DIR": runtime.path])
        let socket = runtime.appendingPathComponent("reel-\(reel.process.processIdentifier).sock").path
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        XCTAssertEqual(c.request(["get_property", "idle"], id: 1)?["data"] as? Bool, false)
        // SIGTERM closes cleanly and removes the socket.
        reel.process.terminate()
        XCTAssertFalse(reel.finish(timeout: 10).killed)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket))

        // A second reel refuses a socket somebody is listening on.
        let busy = runtime.appendingPathComponent("busy.sock").path
        let first = try startReel(["--ipc", busy], media: [TestMedia.path("color10s.mp4")])
        XCTAssertNotNil(IPCTestClient(path: busy))
        let second = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--audio-sink", "fakesink", "--ipc", busy, TestMedia.path("clip2s.mp4")], timeout: 20)
        XCTAssertEqual(second.status, 2)
        XCTAssertTrue(second.stderr.contains("Another program is listening"), second.stderr)
        first.process.terminate()
        first.finish()

        // A socket file left by a killed reel is stale: the next reel replaces it.
        let stale = runtime.appendingPathComponent("stale.sock").path
        let killed = try startReel(["--ipc", stale], media: [TestMedia.path("color10s.mp4")])
        XCTAssertNotNil(IPCTestClient(path: stale))
        kill(killed.process.processIdentifier, SIGKILL)
        killed.finish()
        XCTAssertTrue(FileManager.default.fileExists(atPath: stale), "SIGKILL leaves the file behind")
        let next = try startReel(["--ipc", stale], media: [TestMedia.path("color10s.mp4")])
        let c2 = try XCTUnwrap(IPCTestClient(path: stale), next.stderr)
        XCTAssertEqual(c2.request(["get_property", "playlist-count"], id: 1)?["data"] as? Int, 1)
        XCTAssertEqual(c2.request(["quit"], id: 2)?["error"] as? String, "success")
        XCTAssertEqual(next.finish().status, 0)
    }

    /// A windowed reel driven over the socket: the transport commands reach the player (load,
    /// append, play, toggle, stop, skip), and `screenshot … window` saves the window as the user
    /// sees it, named by the documented template with `-window`.
    func testAWindowedSessionOverTheSocketTransportAndWindowCapture() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no display: run under xvfb-run (make test does)") }
        let dir = TestMedia.temporaryDirectory("reel-ipc-window")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        let shots = dir.appendingPathComponent("shots", isDirectory: true)
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--no-mpris", "--audio-sink", "fakesink sync=true", "--ipc", socket, "--screenshot-dir", shots.path,
                                          TestMedia.path("clip2s.mp4")])
        defer { if reel.process.isRunning { reel.finish(timeout: 1) } }  // a hung reel: its stacks, then killed
        let c = try XCTUnwrap(IPCTestClient(path: socket), "the socket appears: \(reel.stderr)")
        func get(_ name: String, _ id: Int) -> Any? { c.request(["get_property", name], id: id)?["data"] }
        func eventually(_ what: String, _ condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(10)
            while !condition() && Date() < deadline { usleep(50_000) }
            XCTAssertTrue(condition(), "timed out waiting for \(what)")
        }

        // load replaces the queue; append adds to it.
        XCTAssertEqual(c.request(["load", TestMedia.path("color10s.mp4")], id: 1)?["error"] as? String, "success")
        eventually("color10s is the item") { (get("uri", 2) as? String)?.hasSuffix("color10s.mp4") == true }
        XCTAssertEqual(c.request(["append", TestMedia.path("clip2s.mp4")], id: 3)?["error"] as? String, "success")
        XCTAssertEqual(get("playlist-count", 4) as? Int, 2)
        XCTAssertEqual(c.request(["play"], id: 5)?["error"] as? String, "success")
        eventually("playing") { get("time-control", 6) as? String == "playing" }
        XCTAssertEqual(c.request(["toggle"], id: 7)?["error"] as? String, "success")
        eventually("toggle pauses") { get("pause", 8) as? Bool == true && get("time-control", 9) as? String == "paused" }
        XCTAssertEqual(c.request(["seek", 4.5, "absolute+exact"], id: 10)?["error"] as? String, "success")
        eventually("at 4.5 s") { abs((get("position", 11) as? Double ?? 0) - 4.5) < 0.05 && get("seeking", 12) as? Bool == false }
        XCTAssertEqual(c.request(["skip", -2], id: 13)?["error"] as? String, "success")
        eventually("skip −2 s lands at 2.5 s") { abs((get("position", 14) as? Double ?? 0) - 2.5) < 0.1 && get("seeking", 15) as? Bool == false }
        XCTAssertEqual(c.request(["seek", 4.5, "absolute+exact"], id: 16)?["error"] as? String, "success")
        eventually("back at 4.5 s") { abs((get("position", 17) as? Double ?? 0) - 4.5) < 0.05 && get("seeking", 18) as? Bool == false }
        usleep(300_000)  // the sink draws the frame into the window

        let reply = try XCTUnwrap(c.request(["screenshot", "window"], id: 19))
        XCTAssertEqual(reply["error"] as? String, "success", "\(reply)")
        let data = try XCTUnwrap(reply["data"] as? [String: Any])
        let file = try XCTUnwrap(data["file"] as? String)
        XCTAssertEqual((file as NSString).lastPathComponent, "000-color10s-00h00m04s500-window.png")
        let size = try XCTUnwrap(PixelProbe.size(file))
        XCTAssertGreaterThan(size.width, 400, "the whole window, not the 640x360 frame alone")
        XCTAssertNotEqual([size.width, size.height], [640, 360])
        // The window shows the frame at 4.5 s (palette[4]) in its video area, above the controls.
        let centre = try XCTUnwrap(PixelProbe.pixel(file, x: size.width / 2, y: size.height / 3))
        XCTAssertEqual(TestMedia.paletteIndex(r: centre.r, g: centre.g, b: centre.b), 4, "\(centre)")
        let controls = try XCTUnwrap(PixelProbe.pixel(file, x: 4, y: size.height - 4))
        XCTAssertGreaterThan(controls.r + controls.g + controls.b, 500, "the light control bar is in the capture: \(controls)")

        // The aspect mode, as `a` cycles it: read and set over the socket.
        XCTAssertEqual(get("aspect", 30) as? String, "fit")
        XCTAssertEqual(c.request(["set_property", "aspect", "fill"], id: 31)?["error"] as? String, "success")
        XCTAssertEqual(get("aspect", 32) as? String, "fill")
        XCTAssertEqual(c.request(["set_property", "aspect", "zoom"], id: 33)?["error"] as? String, "invalid-argument")
        XCTAssertEqual(c.request(["set_property", "aspect", "fit"], id: 34)?["error"] as? String, "success")

        // Frame steps, as `.` and `,` do in the window (the same command target): one frame
        // (color10s is 25 fps) on and back, paused, and the window shows it.
        XCTAssertEqual(c.request(["frame-step"], id: 35)?["error"] as? String, "success")
        eventually("one frame on") { abs((get("position", 36) as? Double ?? 0) - 4.54) < 0.015 }
        XCTAssertEqual(get("pause", 37) as? Bool, true)
        XCTAssertEqual(c.request(["frame-back-step"], id: 38)?["error"] as? String, "success")
        eventually("one frame back") { abs((get("position", 39) as? Double ?? 0) - 4.5) < 0.015 && get("seeking", 40) as? Bool == false }
        XCTAssertEqual(c.request(["frame-step", 2], id: 41)?["error"] as? String, "invalid-argument")

        XCTAssertEqual(c.request(["stop"], id: 20)?["error"] as? String, "success")
        eventually("stopped at the start") { get("status", 21) != nil && (get("position", 22) as? Double ?? 1) == 0 && get("pause", 23) as? Bool == true }
        XCTAssertEqual(c.request(["quit"], id: 24)?["error"] as? String, "success")
        XCTAssertFalse(reel.finish(timeout: 10).killed, reel.stderr)
    }

    /// The socket's `qoe`: frames the video sink dropped as late (a sink slowed on purpose drops
    /// some), frames rendered, startup time; and `reel check`'s report has the same numbers.
    func testQoEOverTheSocketCountsDroppedFrames() throws {
        let dir = TestMedia.temporaryDirectory("reel-qoe")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        // 45 ms per frame of a 30 fps video: the sink gets frames late and drops some (QoS).
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--headless", "--audio-sink", "fakesink sync=true", "--video-sink", "identity sleep-time=45000 ! ximagesink",
                                          "--ipc", socket, TestMedia.path("color10s.mp4")])
        defer { reel.process.terminate(); _ = reel.finish(timeout: 10) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), "the socket appears: \(reel.stderr)")
        var id = 0
        var qoe: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            id += 1
            qoe = c.request(["get_property", "qoe"], id: id)?["data"] as? [String: Any] ?? [:]
            if (qoe["droppedFrames"] as? Int ?? 0) > 5, (qoe["renderedFrames"] as? Int ?? 0) > 5 { break }
            usleep(200_000)
        }
        XCTAssertGreaterThan(qoe["droppedFrames"] as? Int ?? 0, 5, "\(qoe)")
        XCTAssertGreaterThan(qoe["renderedFrames"] as? Int ?? 0, 5, "\(qoe)")
        XCTAssertGreaterThan(qoe["startupSeconds"] as? Double ?? 0, 0, "\(qoe)")
        XCTAssertEqual(qoe["stalls"] as? Int, 0, "a local file does not stall")
    }

    func testQoEIsZeroOnASinkThatKeepsUp() throws {
        let dir = TestMedia.temporaryDirectory("reel-qoe-ok")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--headless", "--audio-sink", "fakesink sync=true", "--video-sink", "ximagesink",
                                          "--ipc", socket, TestMedia.path("color10s.mp4")])
        defer { reel.process.terminate(); _ = reel.finish(timeout: 10) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), "the socket appears: \(reel.stderr)")
        var qoe: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(20)
        var id = 0
        while Date() < deadline {
            id += 1
            qoe = c.request(["get_property", "qoe"], id: id)?["data"] as? [String: Any] ?? [:]
            if (qoe["renderedFrames"] as? Int ?? 0) > 30 { break }
            usleep(200_000)
        }
        XCTAssertGreaterThan(qoe["renderedFrames"] as? Int ?? 0, 30, "\(qoe)")
        XCTAssertEqual(qoe["droppedFrames"] as? Int, 0, "\(qoe)")
    }
}
