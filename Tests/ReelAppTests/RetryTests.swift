import Foundation
import ReelTestSupport
import XCTest

/// Network items that fail on the network or with a 5xx are tried again (`--retries`, default 6)
/// after Media3's back-off; the event stream says so with `retry` events, and only the last failure is
/// the item's `error`. The real binary against HTTPFixtureServer's scripted failures.
final class RetryTests: XCTestCase {
    private var server: HTTPFixtureServer!

    override func setUpWithError() throws {
        TestMedia.ensureGenerated()
        server = try HTTPFixtureServer()
        server.serve("/clip.mp4", .file(TestMedia.url("clip2s.mp4"), contentType: "video/mp4"))
        server.serve("/long.mp4", .file(TestMedia.url("color10s.mp4"), contentType: "video/mp4"))
    }

    override func tearDown() { server?.shutdown() }

    private func reel(_ args: [String], file: StaticString = #filePath, line: UInt = #line) -> (ProcessRunner.Result, [[String: Any]]) {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["--headless", "--events", "--audio-sink", "fakesink sync=false", "--video-sink", "fakesink sync=false"] + args,
                                  timeout: 60)
        XCTAssertFalse(r.timedOut, r.stderr, file: file, line: line)
        XCTAssertEqual(r.malformedJSONLines, [], file: file, line: line)
        return (r, r.jsonObjects)
    }

    private func named(_ events: [[String: Any]], _ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }
    private func code(_ event: [String: Any]) -> String? { (event["error"] as? [String: Any])?["code"] as? String }

    func testAFlakyServerIsRetriedAndTheItemPlays() {
        server.misbehave("/clip.mp4", [.status(503), .status(503)])
        let (r, events) = reel([server.url("/clip.mp4").absoluteString])
        XCTAssertEqual(r.status, 0, "the item played in the end: \(r.stderr)")
        let retries = named(events, "retry")
        XCTAssertEqual(retries.compactMap { $0["attempt"] as? Int }, [1, 2])
        XCTAssertEqual(retries.compactMap { $0["delay"] as? Double }, [0, 1.0], "Media3's back-off: (n−1) × 1 s")
        XCTAssertEqual(retries.map(code), ["server-error", "server-error"])
        XCTAssertEqual(retries.compactMap { ($0["error"] as? [String: Any])?["httpStatus"] as? Int }, [503, 503])
        XCTAssertTrue(named(events, "error").isEmpty, "a retried failure is not the item's error")
        XCTAssertFalse(events.contains { $0["event"] as? String == "status" && $0["status"] as? String == "failed" })
        XCTAssertEqual(named(events, "end").count, 1)
        XCTAssertEqual(named(events, "finished").first?["failed"] as? Int, 0)
        XCTAssertEqual(server.requests.filter { $0.path == "/clip.mp4" }.prefix(3).map(\.status), [503, 503, 200])
    }

    func testWhenRetriesRunOutTheLastFailureIsTheItemsErrorAndTheQueueGoesOn() {
        server.misbehave("/clip.mp4", Array(repeating: .status(500), count: 10))
        let (r, events) = reel(["--retries", "1", server.url("/clip.mp4").absoluteString, TestMedia.path("tone3s.m4a")])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(named(events, "retry").count, 1)
        let errors = named(events, "error")
        XCTAssertEqual(errors.map(code), ["server-error"])
        XCTAssertEqual(errors.first?["item"] as? Int, 0)
        XCTAssertEqual(named(events, "end").compactMap { $0["item"] as? Int }, [1], "the next item played")
        XCTAssertEqual(server.requests.filter { $0.path == "/clip.mp4" }.count, 2, "one try and one retry")
    }

    func testNotFoundAndRetriesZeroAreNeverRetried() {
        let (r, events) = reel([server.url("/missing.mp4").absoluteString])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(named(events, "retry").isEmpty, "a 404 will not change on a retry")
        XCTAssertEqual(named(events, "error").map(code), ["not-found"])

        server.misbehave("/clip.mp4", [.status(503)])
        let (r0, events0) = reel(["--retries", "0", server.url("/clip.mp4").absoluteString])
        XCTAssertEqual(r0.status, 1)
        XCTAssertTrue(named(events0, "retry").isEmpty)
        XCTAssertEqual(named(events0, "error").map(code), ["server-error"])
    }

    func testADownloadLostMidwayResumesWhereItStopped() throws {
        // The first response stops at 60 % of the 10 s file. The HTTP source reconnects with a
        // Range; that request is answered 503 four seconds later, while playback (in real time)
        // has gone on from what had arrived. Reel retries and seeks back to where it had got to.
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: TestMedia.path("color10s.mp4"))[.size] as? Int)
        server.misbehave("/long.mp4", [.cut(afterBytes: size * 6 / 10), .delayedStatus(503, seconds: 4)])
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["--headless", "--events", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                   server.url("/long.mp4").absoluteString], timeout: 60)
        XCTAssertFalse(r.timedOut)
        XCTAssertEqual(r.malformedJSONLines, [])
        let events = r.jsonObjects
        XCTAssertEqual(r.status, 0, r.stderr)
        let retryIndex = try XCTUnwrap(events.firstIndex { $0["event"] as? String == "retry" }, "\(events)")
        let failedAt = events[..<retryIndex].compactMap { $0["position"] as? Double }.last ?? 0
        XCTAssertGreaterThan(failedAt, 1, "playback had got past 1 s when the failure came")
        let seeks = events[retryIndex...].filter { $0["event"] as? String == "seeked" }.compactMap { $0["position"] as? Double }
        XCTAssertEqual(seeks.count, 1, "one seek back to where playback had got to: \(events[retryIndex...])")
        XCTAssertEqual(seeks.first ?? 0, failedAt, accuracy: 1.2, "resumed near \(failedAt) s (keyframes are 1 s apart)")
        XCTAssertEqual(named(events, "end").count, 1)
        XCTAssertTrue(named(events, "error").isEmpty)
    }
}
