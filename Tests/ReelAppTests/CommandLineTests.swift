import Foundation
import ReelTestSupport
import XCTest

/// `reel --headless --events` as QA scripts use it: the built binary, real media, real pipelines.
final class CommandLineTests: XCTestCase {
    private func events(_ result: ProcessRunner.Result) -> [[String: Any]] {
        XCTAssertEqual(result.malformedJSONLines, [], "every event line is JSON")
        return result.jsonObjects
    }

    func testHeadlessEventsOnAShortClipEndWithTheEndAndExitZero() throws {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["--headless", "--events", "--audio-sink", "fakesink", TestMedia.path("clip2s.mp4")], timeout: 30)
        XCTAssertFalse(r.timedOut)
        XCTAssertEqual(r.status, 0, r.stderr)
        let ev = events(r)
        XCTAssertEqual(ev.count, r.lines.count, "every stdout line is a JSON object")
        let names = ev.compactMap { $0["event"] as? String }
        let statuses = ev.filter { $0["event"] as? String == "status" }.compactMap { $0["status"] as? String }
        XCTAssertEqual(statuses, ["unknown", "readyToPlay"])
        let tc = ev.filter { $0["event"] as? String == "time-control" }.compactMap { $0["status"] as? String }
        XCTAssertEqual(tc.first, "waiting")
        XCTAssertTrue(tc.contains("playing"))
        XCTAssertEqual(ev.filter { $0["event"] as? String == "tick" }.count, 2, "1 s ticks of a 2 s clip")
        XCTAssertEqual(names.filter { $0 == "end" }.count, 1)
        XCTAssertEqual(names.last(where: { $0 != "time-control" }), "finished")
        XCTAssertLessThan(names.firstIndex(of: "end")!, names.firstIndex(of: "finished")!)
        let info = try XCTUnwrap(ev.first { $0["event"] as? String == "media-info" })
        XCTAssertEqual(info["width"] as? Int, 640)
        XCTAssertEqual(info["height"] as? Int, 360)
        XCTAssertEqual(ev.first { $0["event"] as? String == "item" }?["item"] as? Int, 0)
        // Time stamps never go backwards.
        let times = ev.compactMap { $0["t"] as? Double }
        XCTAssertEqual(times, times.sorted())
    }

    func testMissingFilePrintsAnErrorEventAndExitsNonZero() throws {
        let missing = TestMedia.directory.appendingPathComponent("missing-\(UUID().uuidString).mp4").path
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--audio-sink", "fakesink", missing], timeout: 30)
        XCTAssertFalse(r.timedOut)
        XCTAssertNotEqual(r.status, 0)
        let errors = events(r).filter { $0["event"] as? String == "error" }
        XCTAssertEqual(errors.count, 1)
        let error = try XCTUnwrap(errors.first?["error"] as? [String: Any])
        XCTAssertEqual(error["code"] as? String, "not-found")
        XCTAssertTrue(r.stderr.contains("does not exist"), r.stderr)
    }

    func testBadArgumentsAreRejectedClearly() {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless"], timeout: 30)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("--headless needs at least one"), r.stderr)
        let r2 = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--video-sink", "nope-not-an-element", TestMedia.path("clip2s.mp4")], timeout: 30)
        XCTAssertNotEqual(r2.status, 0)
        XCTAssertTrue(r2.stderr.contains("could not be built"), r2.stderr)
    }
}
