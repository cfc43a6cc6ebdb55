import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// The event stream as QA scripts read it (issue 11): no event repeated with the same content,
/// media-info with codecs and the right seekable, end reasons, the stopped state, and the
/// explicit item commands; previous agrees on every front end.
final class EventStreamShapeTests: XCTestCase {
    private func withoutTime(_ e: [String: Any]) -> NSDictionary {
        var e = e
        e["t"] = nil
        return e as NSDictionary
    }

    /// The demo playlist played headless with `--events`, its sinks synchronised or not.
    private func playDemo(sync: Bool) -> [[String: Any]] {
        TestMedia.ensureGenerated()
        let demo = TestMedia.packageRoot.appendingPathComponent("Resources/demo.m3u").path
        let sink = "fakesink sync=\(sync)"
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--audio-sink", sink, "--video-sink", sink, demo], timeout: 90)
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.jsonObjects
    }

    func testTheDemoPlaylistSaysEachThingOnceWithCodecsAndSeekable() throws {
        let events = playDemo(sync: false)
        XCTAssertEqual(events.filter { $0["event"] as? String == "end" }.count, 3, "\(events)")
        for (a, b) in zip(events, events.dropFirst()) {
            XCTAssertNotEqual(withoutTime(a), withoutTime(b), "repeated: \(b)")
        }
        let infos = events.filter { $0["event"] as? String == "media-info" }
        XCTAssertEqual(infos.count, 3, "one per item: \(infos)")
        for info in infos {
            XCTAssertEqual(info["videoCodec"] as? String, "H.264 (Constrained Baseline Profile)", "\(info)")
            XCTAssertEqual(info["audioCodec"] as? String, "MPEG-4 AAC", "\(info)")
            XCTAssertEqual(info["seekable"] as? Bool, true, "\(info)")
        }
        for item in 0..<3 {
            XCTAssertFalse(events.filter { $0["event"] as? String == "duration" && $0["item"] as? Int == item }.isEmpty, "item \(item)'s duration")
        }
        for end in events.filter({ $0["event"] as? String == "end" }) { XCTAssertEqual(end["reason"] as? String, "ended") }
        // Faster than real time, the first two items were said to be cut short at their switch
        // ("It stops at 4.34 s of its 8.02 s"): whole files, whole by what reached the sinks.
        XCTAssertEqual(events.filter { $0["event"] as? String == "warning" }.count, 0, "\(events.filter { $0["event"] as? String == "warning" })")
        let finished = try XCTUnwrap(events.last)
        XCTAssertEqual(finished["event"] as? String, "finished")
        XCTAssertEqual(finished["reason"] as? String, "ended")
        // Each item's last tracks event says what plays: its video and its audio, the second and
        // third items (gapless switches) too, where it said `selected: false` for both.
        for item in 0..<3 {
            let report = events.last { $0["event"] as? String == "tracks" && $0["item"] as? Int == item }
            let tracks = report?["tracks"] as? [[String: Any]] ?? []
            XCTAssertEqual(tracks.map { $0["type"] as? String }, ["video", "audio"], "item \(item): \(String(describing: report))")
            XCTAssertEqual(tracks.map { $0["selected"] as? Bool }, [true, true], "item \(item): \(String(describing: report))")
        }
    }

    /// The demo playlist as `make demo` plays it without a display (synchronised sinks, real
    /// time): the stream's shape (which events, about which item, with which fields, in which
    /// order) is the one recorded, from before the structural work of issue 29 on. A change to it
    /// is a change to what QA scripts read.
    func testTheDemoPlaylistsEventStreamKeepsItsShape() throws {
        try Self.assertShape(playDemo(sync: true), golden: "demo-events.shape")
    }

    /// A queue as users have them: two clips that switch gaplessly, a missing file, a text file
    /// named .mp4, a file cut short, an audio file and a file with two audio and two subtitle
    /// tracks. Its shape is the one recorded (identical to 2161e84's, before issue 29).
    func testAQueueOfGoodAndBadItemsKeepsItsShape() throws {
        TestMedia.ensureGenerated()
        let sink = "fakesink sync=true"
        let items = ["gapless-00.mp4", "gapless-01.mp4"].map(TestMedia.path) + ["/nonexistent/x.mp4"]
            + ["notmedia.mp4", "truncated.mp4", "tone3s.m4a", "tracks-1.mp4"].map(TestMedia.path)
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--no-resume", "--audio-sink", sink, "--video-sink", sink] + items,
                                  timeout: 90)
        XCTAssertEqual(r.status, 1, "two items failed: \(r.stderr)")
        try Self.assertShape(r.jsonObjects, golden: "queue-events.shape")
    }

    /// Each event as `item event field,field…` (fields sorted, `t` left out; ticks, which depend on
    /// timing, left out), compared with Goldens/`name`; `REEL_UPDATE_GOLDENS=1` writes it.
    static func assertShape(_ events: [[String: Any]], golden name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let shape = events.filter { $0["event"] as? String != "tick" }.map { e -> String in
            let item = (e["item"] as? Int).map(String.init) ?? "-"
            let fields = e.keys.filter { $0 != "t" && $0 != "event" && $0 != "item" }.sorted().joined(separator: ",")
            return "\(item) \(e["event"] as? String ?? "?") \(fields)"
        }.joined(separator: "\n") + "\n"
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens/\(name)")
        if ScreenshotGolden.updating { try shape.write(to: url, atomically: true, encoding: .utf8); return }
        let expected = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(shape, expected, "the event stream's shape changed (REEL_UPDATE_GOLDENS=1 records the new one)", file: file, line: line)
    }

    /// `reel --events … | head -1`: the reader goes away after one line; Reel plays on to the end
    /// and exits 0 instead of trapping on the broken pipe.
    func testAReaderThatClosesTheEventStreamEarlyDoesNotStopPlayback() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessRunner.reelExecutable)
        process.arguments = ["--headless", "--events", "--events-progress", "--no-resume", "--audio-sink", "fakesink sync=true",
                             "--video-sink", "fakesink sync=true", TestMedia.path("clip2s.mp4")]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let first = out.fileHandleForReading.availableData
        XCTAssertTrue(String(decoding: first, as: UTF8.self).hasPrefix("{\"event\""), "the stream began")
        try out.fileHandleForReading.close()  // the reader is gone; every later line is an EPIPE
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning { process.terminate() }
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationReason, .exit, stderr)
        XCTAssertEqual(process.terminationStatus, 0, "played to its end: \(stderr)")
        XCTAssertFalse(stderr.contains("Fatal error"), stderr)
    }

    func testAQueueEndingOnAFailedItemFinishesWithError() throws {
        TestMedia.ensureGenerated()
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--audio-sink", "fakesink sync=false",
                                                                "--video-sink", "fakesink sync=false", TestMedia.path("clip2s.mp4"), "/nonexistent/x.mp4"], timeout: 60)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.jsonObjects.last?["event"] as? String, "finished")
        XCTAssertEqual(r.jsonObjects.last?["reason"] as? String, "error")
    }

    func testItemCommandsStopAndQuitOverTheSocket() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-items")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--ipc", socket, "--audio-sink", "fakesink",
                                                                        "--video-sink", "fakesink sync=true", TestMedia.path("color10s.mp4"),
                                                                        TestMedia.path("clip2s.mp4"), TestMedia.path("tone3s.m4a")])
        defer { reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "time-control" && $0["status"] as? String == "playing" })

        // load-item: the second item becomes current, ready, paused at its start.
        XCTAssertEqual(c.request(["load-item", 1], id: 1)?["error"] as? String, "success")
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "status" && $0["item"] as? Int == 1 && $0["status"] as? String == "readyToPlay" })
        XCTAssertEqual(c.request(["get_property", "index"], id: 2)?["data"] as? Int, 1)
        XCTAssertEqual(c.request(["get_property", "pause"], id: 3)?["data"] as? Bool, true)
        XCTAssertEqual(c.request(["get_property", "time-control"], id: 4)?["data"] as? String, "paused")
        XCTAssertEqual(c.request(["get_property", "position"], id: 5)?["data"] as? Double, 0)

        // toggle-item on the current item plays it; on another item, plays that one.
        XCTAssertEqual(c.request(["toggle-item", 1], id: 6)?["error"] as? String, "success")
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "time-control" && $0["status"] as? String == "playing" })
        let playlist = try XCTUnwrap(c.request(["get_property", "playlist"], id: 7)?["data"] as? [[String: Any]])
        let thirdID = try XCTUnwrap(playlist[2]["id"] as? String)
        XCTAssertEqual(c.request(["play-item", thirdID], id: 8)?["error"] as? String, "success", "by id")
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "item" && $0["item"] as? Int == 2 })
        XCTAssertEqual(c.request(["play-item", 7], id: 9)?["error"] as? String, "unavailable")
        XCTAssertEqual(c.request(["toggle-item", "no-such-id"], id: 10)?["error"] as? String, "unavailable")

        // stop: its own time-control state; quit: the last event says the user ended it.
        XCTAssertEqual(c.request(["stop"], id: 11)?["error"] as? String, "success")
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "time-control" && $0["status"] as? String == "stopped" })
        XCTAssertEqual(c.request(["quit"], id: 12)?["error"] as? String, "success")
        let finished = try XCTUnwrap(c.waitForEvent { $0["event"] as? String == "finished" })
        XCTAssertEqual(finished["reason"] as? String, "user-exited")
        XCTAssertFalse(reel.finish(timeout: 10).killed)
    }

    func testPreviousOnTheFirstItemRestartsItOverTheSocketAndMPRISAsInTheWindow() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-previous")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        let mpris = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--ipc", socket] + (mpris ? ["--mpris"] : [])
                                         + ["--audio-sink", "fakesink", "--video-sink", "fakesink sync=true", TestMedia.path("color10s.mp4"), TestMedia.path("clip2s.mp4")])
        defer { reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "tick" && ($0["position"] as? Double ?? 0) >= 1 })
        XCTAssertEqual(c.request(["previous"], id: 1)?["error"] as? String, "success", "it used to fail on the first item")
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "seeked" }, "back to the start")
        XCTAssertEqual(c.request(["get_property", "index"], id: 2)?["data"] as? Int, 0)
        XCTAssertLessThan(c.request(["get_property", "position"], id: 3)?["data"] as? Double ?? 99, 1)
        guard mpris else { return }
        let name = "reel.instance\(reel.process.processIdentifier)"
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "tick" && ($0["position"] as? Double ?? 0) >= 1 })
        _ = ProcessRunner.run("/usr/bin/playerctl", ["-p", name, "previous"], timeout: 10)
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "seeked" }, "MPRIS Previous restarts it too")
        XCTAssertEqual(c.request(["get_property", "index"], id: 4)?["data"] as? Int, 0)
    }
}
