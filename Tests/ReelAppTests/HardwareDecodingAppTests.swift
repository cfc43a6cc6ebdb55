import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// `--hwdec` as users and QA see it, on the built binary: which decoder plays (events, socket,
/// `reel check`'s report), and the fall back when a hardware decoder fails, shown with Reel's
/// stand-in hardware decoder (a GStreamer plugin the tests build; see StandInHardwareDecoder)
/// on `GST_PLUGIN_PATH`, with a registry file of its own.
final class HardwareDecodingAppTests: XCTestCase {
    override func setUp() { TestMedia.ensureGenerated() }

    private func reel(_ args: [String], environment: [String: String]) -> (ProcessRunner.Result, [[String: Any]]) {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["--headless", "--events", "--audio-sink", "fakesink sync=false", "--video-sink", "fakesink sync=true"] + args,
                                  timeout: 90, environment: environment)
        XCTAssertFalse(r.timedOut, r.stderr)
        XCTAssertEqual(r.malformedJSONLines, [])
        return (r, r.jsonObjects)
    }

    private func named(_ events: [[String: Any]], _ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }

    func testAFailingHardwareDecoderFallsBackOnceAndTheQueueGoesOn() throws {
        let env = try StandInHardwareDecoder.environment(device: true)
        let (r, events) = reel([TestMedia.path("color10s.mp4"), TestMedia.path("clip2s.mp4")], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let warnings = named(events, "warning")
        let codes = warnings.map { ($0["warning"] as? [String: Any])?["code"] as? String }
        XCTAssertEqual(codes, ["hwdec-fallback", "hwdec-fallback"], "one fall back per item: \(warnings)")
        XCTAssertEqual(warnings.map { $0["item"] as? Int }, [0, 1])
        XCTAssertTrue(named(events, "error").isEmpty, "never an item error")
        XCTAssertEqual(named(events, "item").map { $0["item"] as? Int }, [0, 1], "the same item goes on: no second item change")
        XCTAssertEqual(named(events, "end").count, 2)
        let finished = try XCTUnwrap(named(events, "finished").first)
        XCTAssertEqual(finished["played"] as? Int, 2)
        XCTAssertEqual(finished["failed"] as? Int, 0)
        // What plays after the fall back is said.
        let infos = named(events, "media-info").filter { $0["item"] as? Int == 0 }
        XCTAssertEqual(infos.last?["videoDecoder"] as? String, "avdec_h264", "\(infos)")
        XCTAssertEqual(infos.last?["hardware"] as? Bool, false)
        // Playback reached the first item's end on the software decoder.
        let ticks = events.filter { ($0["event"] as? String == "tick" || $0["event"] as? String == "progress") && $0["item"] as? Int == 0 }
        XCTAssertGreaterThan(ticks.compactMap { $0["position"] as? Double }.max() ?? 0, 9)
    }

    func testNoKeepsTheStandInOutAndSaysTheSoftwareDecoders() throws {
        let env = try StandInHardwareDecoder.environment(device: true)
        let (r, events) = reel(["--hwdec", "no", TestMedia.path("clip2s.mp4")], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(named(events, "warning").isEmpty, "\(named(events, "warning"))")
        let info = try XCTUnwrap(named(events, "media-info").last)
        XCTAssertEqual(info["videoDecoder"] as? String, "avdec_h264")
        XCTAssertEqual(info["hardware"] as? Bool, false)
        XCTAssertNotNil(info["audioDecoder"] as? String, "\(info)")
    }

    func testAutoWithoutAWorkingHardwareDecoderSaysNothing() throws {
        let env = try StandInHardwareDecoder.environment(device: false)
        let (r, events) = reel([TestMedia.path("clip2s.mp4")], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(named(events, "warning").isEmpty, "a hardware decoder without its device is never tried")
        XCTAssertEqual(named(events, "media-info").last?["videoDecoder"] as? String, "avdec_h264")
    }

    func testABadHwdecValueIsRefused() {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--hwdec", "maybe", TestMedia.path("clip2s.mp4")], timeout: 20)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("--hwdec"), r.stderr)
    }

    func testCheckReportsEachItemsDecoders() throws {
        let dir = TestMedia.temporaryDirectory("reel-check-hwdec")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--report", dir.path, "--at", "50%", TestMedia.path("clip2s.mp4")],
                                  timeout: 120, environment: try StandInHardwareDecoder.environment(device: false))
        XCTAssertEqual(r.status, 0, r.stderr)
        let data = try Data(contentsOf: dir.appendingPathComponent("report.json"))
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let item = try XCTUnwrap((report["items"] as? [[String: Any]])?.first)
        XCTAssertEqual(item["videoDecoder"] as? String, "avdec_h264")
        XCTAssertEqual(item["hardware"] as? Bool, false)
        XCTAssertNotNil(item["audioDecoder"] as? String)
        // How it played, as the socket's qoe says it: the frames decoded to the end, none dropped.
        let qoe = try XCTUnwrap(item["qoe"] as? [String: Any], "\(item)")
        XCTAssertGreaterThan(qoe["renderedFrames"] as? Int ?? 0, 30, "\(qoe)")
        XCTAssertEqual(qoe["droppedFrames"] as? Int, 0)
        XCTAssertGreaterThan(qoe["startupSeconds"] as? Double ?? 0, 0)
        XCTAssertEqual(qoe["stalls"] as? Int, 0)
    }

    func testTheSocketSetsHwdecFromTheNextItem() throws {
        let dir = TestMedia.temporaryDirectory("reel-ipc-hwdec")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        var env = try StandInHardwareDecoder.environment(device: true)
        env["REEL_TEST"] = "1"
        env["REEL_DEBUG"] = "decoding:5,queue"  // the rank decisions and the loads, for a failure's message (a LOAD run saw no fall back once)
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--headless", "--events", "--hwdec", "no", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=true",
                                          "--ipc", socket, TestMedia.path("color10s.mp4"), TestMedia.path("clip2s.mp4")], environment: env)
        defer { reel.process.terminate(); _ = reel.finish(timeout: 10) }
        let client = try XCTUnwrap(IPCTestClient(path: socket), "the socket appears: \(reel.stderr)")
        XCTAssertEqual(client.request(["get_property", "hwdec"], id: 1)?["data"] as? String, "no")
        XCTAssertEqual(client.request(["set_property", "hwdec", "maybe"], id: 2)?["error"] as? String, "invalid-argument")
        XCTAssertEqual(client.request(["set_property", "hwdec", "auto"], id: 3)?["error"] as? String, "success")
        XCTAssertEqual(client.request(["get_property", "hwdec"], id: 4)?["data"] as? String, "auto")
        XCTAssertEqual(client.request(["playlist-next"], id: 5)?["error"] as? String, "success")
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !reel.stdout.contains("hwdec-fallback") { Thread.sleep(forTimeInterval: 0.1) }
        let events = reel.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        let fallbacks = named(events, "warning").filter { ($0["warning"] as? [String: Any])?["code"] as? String == "hwdec-fallback" }
        XCTAssertEqual(fallbacks.map { $0["item"] as? Int }, [1], "the first item played in software as asked; the next tried the stand-in. "
                       + "Events: \(events.compactMap { e in (e["event"] as? String).map { "\($0) \(e["item"] ?? "")" } }.filter { !$0.hasPrefix("tick") }.suffix(40)) "
                       + "stderr: \(reel.stderr.suffix(1500))")
    }

    /// `REEL_DEBUG` shows the decisions (here the rank decision and the fall back), off without it.
    func testREELDEBUGShowsTheDecisions() throws {
        var env = try StandInHardwareDecoder.environment(device: true)
        let quiet = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--audio-sink", "fakesink", "--video-sink", "fakesink",
                                                                     TestMedia.path("clip2s.mp4")], timeout: 60, environment: env)
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertFalse(quiet.stderr.contains("reel["), "no decisions without REEL_DEBUG: \(quiet.stderr)")
        env["REEL_DEBUG"] = "decoding:5,engine:3,queue"
        let loud = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--audio-sink", "fakesink", "--video-sink", "fakesink",
                                                                    TestMedia.path("clip2s.mp4")], timeout: 60, environment: env)
        XCTAssertEqual(loud.status, 0, loud.stderr)
        XCTAssertTrue(loud.stderr.contains("reel[decoding]: auto: \(StandInHardwareDecoder.factoryName) rank 0 → "), loud.stderr)
        XCTAssertTrue(loud.stderr.contains("reel[decoding]: \(StandInHardwareDecoder.factoryName) failed"), loud.stderr)
        XCTAssertTrue(loud.stderr.contains("reel[engine]: load file://"), loud.stderr)
        XCTAssertTrue(loud.stderr.contains("reel[queue]: load item 0"), loud.stderr)
        XCTAssertFalse(loud.stderr.contains("reel[quality]"), "an area not asked for stays quiet")
    }
}
