import Foundation
import ReelTestSupport
import XCTest

/// Bad input through the `reel` binary: every bad item gives its specific error on the event
/// stream, and the queue goes on to the next item, to a last good clip that plays to its end.
final class BadInputQueueTests: XCTestCase {
    private struct Event {
        let name: String
        let item: Int?
        let object: [String: Any]
        var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
    }

    /// A file cut short plays what it has: the stream and stderr say where it stopped, and it
    /// counts as played (exit status 0; `reel check` is the tool that calls it a failure).
    func testAFileCutShortPlaysWithAWarning() throws {
        let result = ProcessRunner.run(ProcessRunner.reelExecutable,
            ["--headless", "--events", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
             TestMedia.path("truncated.mp4")], timeout: 60)
        XCTAssertFalse(result.timedOut)
        XCTAssertEqual(result.status, 0, result.stderr)
        let events = result.jsonObjects
        let names = events.compactMap { $0["event"] as? String }
        XCTAssertEqual(names.filter { $0 == "warning" }.count, 1, "\(names)")
        XCTAssertEqual(names.firstIndex(of: "warning").map { $0 + 1 }, names.firstIndex(of: "end"), "\(names)")
        let warning = events.first { $0["event"] as? String == "warning" }?["warning"] as? [String: Any]
        XCTAssertEqual(warning?["code"] as? String, "corrupt")
        XCTAssertTrue(result.stderr.contains("truncated.mp4: It stops at 3."), result.stderr)
        let finished = events.first { $0["event"] as? String == "finished" }
        XCTAssertEqual(finished?["played"] as? Int, 1)
    }

    /// Issue 28, item 17: a folder said "does not exist", a FIFO or /dev/zero "empty" (and a FIFO
    /// could block GStreamer's filesrc). Each is named for what it is, never opened, and the
    /// queue goes on.
    func testAFolderAPipeAndADeviceAreNamedForWhatTheyAre() throws {
        let dir = TestMedia.temporaryDirectory("reel-kinds")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("Films.mp4")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = dir.appendingPathComponent("pipe.mp4")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
            ["--headless", "--events", "--audio-sink", "fakesink", "--video-sink", "fakesink",
             folder.path, fifo.path, "/dev/zero", TestMedia.path("missing-file.mp4"), TestMedia.path("clip2s.mp4")], timeout: 60)
        XCTAssertFalse(r.timedOut, r.stderr)
        XCTAssertEqual(r.status, 1)
        let messages = r.jsonObjects.filter { $0["event"] as? String == "error" }.compactMap { ($0["error"] as? [String: Any])?["message"] as? String }
        XCTAssertEqual(messages.count, 4, "\(messages)")
        XCTAssertTrue(messages[0].contains("folder"), messages[0])
        XCTAssertTrue(messages[1].contains("not a regular file"), messages[1])
        XCTAssertTrue(messages[2].contains("not a regular file"), messages[2])
        XCTAssertEqual(messages[3], "The file does not exist.")
        XCTAssertEqual(r.jsonObjects.filter { $0["event"] as? String == "end" }.count, 1, "the last clip plays")
    }

    func testQueueGoesOnPastEveryBadItem() throws {
        let reset = try MisbehavingHTTPServer(.reset)
        defer { reset.stop() }
        let garbage = try MisbehavingHTTPServer(.garbage)
        defer { garbage.stop() }
        let missing = try MisbehavingHTTPServer(.status(404))
        defer { missing.stop() }
        let scratch = TestMedia.temporaryDirectory("reel-badqueue")
        defer { try? FileManager.default.removeItem(at: scratch) }

        let items: [(input: String, code: String)] = [
            (TestMedia.path("empty.mp4"), "empty-file"),
            (TestMedia.path("notmedia.mp4"), "unsupported-format"),
            (TestMedia.path("corrupt.mp4"), "corrupt"),
            (scratch.appendingPathComponent("gone.mp4").path, "not-found"),
            (reset.url, "network"),
            (garbage.url, "network"),
            (missing.url, "not-found"),
        ]
        let good = TestMedia.path("clip2s.mp4")
        let result = ProcessRunner.run(ProcessRunner.reelExecutable,
            ["--headless", "--events", "--retries", "2", "--audio-sink", "fakesink sync=false", "--video-sink", "fakesink sync=false"]
                + items.map(\.input) + [good], timeout: 90)
        XCTAssertFalse(result.timedOut, "reel must not hang on bad input")
        XCTAssertEqual(result.status, 1, "exit status 1: some items failed. stderr: \(result.stderr)")

        XCTAssertEqual(result.malformedJSONLines, [], "every event line is JSON")
        let events = result.jsonObjects.compactMap { o -> Event? in
            guard let name = o["event"] as? String else { return nil }
            return Event(name: name, item: o["item"] as? Int, object: o)
        }
        for (index, item) in items.enumerated() {
            let errors = events.filter { $0.name == "error" && $0.item == index }
            XCTAssertEqual(errors.count, 1, "item \(index) (\(item.input)): one error event")
            XCTAssertEqual(errors.first?.errorCode, item.code, "item \(index) (\(item.input))")
            XCTAssertFalse(events.contains { $0.name == "end" && $0.item == index }, "item \(index) did not play")
        }
        // The connection reset and the garbage answer are network failures: tried twice more
        // (--retries 2) before they count; the rest are final at once.
        for index in items.indices {
            let retries = events.filter { $0.name == "retry" && $0.item == index }.count
            XCTAssertEqual(retries, items[index].code == "network" ? 2 : 0, "item \(index) (\(items[index].input))")
        }
        let last = items.count
        XCTAssertTrue(events.contains { $0.name == "item" && $0.item == last }, "the queue reached the good clip")
        XCTAssertTrue(events.contains { $0.name == "end" && $0.item == last }, "the good clip played to its end")
        let finished = events.last { $0.name == "finished" }
        XCTAssertEqual(finished?.object["played"] as? Int, 1)
        XCTAssertEqual(finished?.object["failed"] as? Int, items.count)
        // The order holds: each item's error comes before the next item starts.
        let order = events.filter { $0.name == "item" || $0.name == "error" }.map { "\($0.name)\($0.item ?? -1)" }
        let expected = (0..<items.count).flatMap { ["item\($0)", "error\($0)"] } + ["item\(last)"]
        XCTAssertEqual(order, expected)
    }
}
