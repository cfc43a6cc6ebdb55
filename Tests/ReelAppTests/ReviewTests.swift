import Foundation
import ReelTestSupport
import XCTest
@testable import ReelApp
import ReelUI

/// `reel review` as a QA reviewer uses it (issue 49): the real binary in a real window under
/// Xvfb, driven by real key presses (xdotool) and by the control socket; SIGKILL in the middle;
/// the same command resumes at the next item not judged; the folder's review.json, report.json,
/// index.html and JUnit file say every verdict and note; a mark's frame is the frame
/// `--screenshot-at` writes for that position; two reviewers' folders merge with their conflict listed.
final class ReviewTests: XCTestCase {
    private var dir: URL!
    private var list: URL!
    private var socket: String { dir.appendingPathComponent("reel.sock").path }

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no X display: run under xvfb-run (make test does)") }
        TestMedia.ensureGenerated()
        dir = TestMedia.temporaryDirectory("reel-review")
        list = dir.appendingPathComponent("delivery.m3u")
        try ["demo-colors.mp4", "demo-ball.mp4", "clip2s.mp4", "corrupt.mp4"].map(TestMedia.path).joined(separator: "\n")
            .write(to: list, atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    private func review(_ folder: String, reviewer: String, check: Bool = true, junit: String? = nil) throws -> BackgroundProcess {
        try? FileManager.default.removeItem(atPath: socket)
        return try BackgroundProcess(ProcessRunner.reelExecutable,
                                     ["review", list.path, "--report", dir.appendingPathComponent(folder).path, "--reviewer", reviewer,
                                      "--ipc", socket, "--audio-sink", "fakesink sync=true", "--check", check ? "yes" : "no"]
                                        + (junit.map { ["--junit", dir.appendingPathComponent($0).path] } ?? []))
    }

    private func connect(_ reel: BackgroundProcess) throws -> IPCTestClient {
        try XCTUnwrap(IPCTestClient(path: socket, timeout: 30), reel.stderr)
    }

    private var nextID = 100
    private func property(_ client: IPCTestClient, _ name: String) -> Any? {
        nextID += 1
        return client.request(["get_property", name], id: nextID)?["data"]
    }

    private func waitFor(_ what: String, timeout: Double = 30, _ reel: BackgroundProcess, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() && Date() < deadline { usleep(100_000) }
        XCTAssertTrue(condition(), "\(what)\n\(reel.stderr.suffix(2000))")
    }

    private func reviewJSON(_ folder: String) -> [Int: [String: Any]] {
        guard let data = FileManager.default.contents(atPath: dir.appendingPathComponent("\(folder)/review.json").path),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        var out: [Int: [String: Any]] = [:]
        for item in root["items"] as? [[String: Any]] ?? [] {
            if let i = item["index"] as? Int, let r = item["review"] as? [String: Any] { out[i] = r }
        }
        return out
    }

    private func windowID(of reel: BackgroundProcess) throws -> String {
        let found = ProcessRunner.run("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--pid", String(reel.process.processIdentifier), "--name", "Reel"], timeout: 30)
        return try XCTUnwrap(found.stdout.split(separator: "\n").first.map(String.init), "no window: \(found.stderr) \(reel.stderr)")
    }

    /// Issue 56: two `reel review` sessions on one folder overwrote each other's verdicts. The
    /// second is refused (exit 2), naming the process that holds the folder; the first goes on.
    func testASecondReviewOfTheSameFolderIsRefused() throws {
        let first = try review("shared", reviewer: "ann", check: false)
        defer { first.finish(timeout: 5, dumpStacks: false) }
        _ = try connect(first)
        let second = ProcessRunner.run(ProcessRunner.reelExecutable, ["review", list.path, "--report", dir.appendingPathComponent("shared").path,
                                                                      "--reviewer", "bob", "--audio-sink", "fakesink sync=true", "--check", "no"], timeout: 30)
        XCTAssertFalse(second.timedOut)
        XCTAssertEqual(second.status, 2, second.stderr)
        XCTAssertTrue(second.stderr.contains("another reel review (process \(first.process.processIdentifier))"), second.stderr)
        XCTAssertTrue(first.process.isRunning, "the first review goes on: \(first.stderr.suffix(400))")
    }

    func testAReviewByKeysAndSocketSurvivesAKillResumesReportsAndMerges() throws {
        // Run 1: item 0 passed by its key, a mark at 1 s on item 1 by the socket, item 1 failed
        // by its key with a typed note; then SIGKILL.
        let first = try review("ana", reviewer: "ana", junit: "ana.xml")
        var client = try connect(first)
        let window = try windowID(of: first)
        waitFor("item 0 plays", first) { property(client, "time-control") as? String == "playing" && property(client, "playlist-pos") as? Int == 0 }
        XCTAssertTrue(XKeyboard.key("y", window: UInt(window) ?? 0))
        waitFor("y passed item 0 and moved to item 1", first) { property(client, "playlist-pos") as? Int == 1 }
        XCTAssertEqual(reviewJSON("ana")[0]?["verdict"] as? String, "pass", "written at once")
        XCTAssertEqual(reviewJSON("ana")[0]?["reviewer"] as? String, "ana")

        waitFor("item 1 plays", first) { property(client, "time-control") as? String == "playing" }
        XCTAssertEqual(client.request(["set_property", "pause", true], id: 1)?["error"] as? String, "success")
        XCTAssertEqual(client.request(["seek", 1, "absolute", "exact"], id: 2)?["error"] as? String, "success")
        waitFor("paused at 1 s", first) { abs((property(client, "position") as? Double ?? 0) - 1) < 0.05 }
        usleep(300_000)  // the frame at 1 s reaches the sink
        let mark = client.request(["mark", "the ball at one second"], id: 3)
        let markData = try XCTUnwrap(mark?["data"] as? [String: Any], "\(String(describing: mark))")
        let markFrame = try XCTUnwrap(markData["frame"] as? String)
        XCTAssertEqual(markData["index"] as? Int, 1)

        XCTAssertTrue(XKeyboard.key("n", window: UInt(window) ?? 0))
        usleep(300_000)  // the note entry opens and takes the focus
        XCTAssertTrue(XKeyboard.type("no sound"))
        XCTAssertTrue(XKeyboard.key("Return"))
        waitFor("n + note + Enter failed item 1 and moved to item 2", first) { property(client, "playlist-pos") as? Int == 2 }
        XCTAssertEqual(reviewJSON("ana")[1]?["verdict"] as? String, "fail")
        XCTAssertEqual(reviewJSON("ana")[1]?["note"] as? String, "no sound", "the typed note, not keys taken by the window")
        XCTAssertEqual(((reviewJSON("ana")[1]?["marks"] as? [[String: Any]])?.first)?["note"] as? String, "the ball at one second")

        kill(first.process.processIdentifier, SIGKILL)
        first.finish(timeout: 5, dumpStacks: false)

        // Run 2: the same command resumes at item 2 with everything before kept; item 2 passed
        // and item 3 (damaged: it failed to play, and is judged too) failed, by the socket.
        let second = try review("ana", reviewer: "ana", junit: "ana.xml")
        client = try connect(second)
        XCTAssertEqual(property(client, "playlist-pos") as? Int, 2, "resumed at the first item not judged")
        XCTAssertEqual(client.request(["verdict", "pass"], id: 4)?["error"] as? String, "success")
        waitFor("item 3", second) { property(client, "playlist-pos") as? Int == 3 }
        client.sendRaw("verdict fail \"damaged file, cannot play\"\n")
        let end = second.finish(timeout: 20)
        XCTAssertFalse(end.killed, "every item judged: the review ends")
        XCTAssertEqual(end.status, 1, "an item failed: exit 1")

        // What the folder says.
        let judged = reviewJSON("ana")
        XCTAssertEqual((0..<4).map { judged[$0]?["verdict"] as? String }, ["pass", "fail", "pass", "fail"])
        XCTAssertEqual(judged[3]?["note"] as? String, "damaged file, cannot play")
        let reportData = try Data(contentsOf: dir.appendingPathComponent("ana/report.json"))
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: reportData) as? [String: Any])
        let items = try XCTUnwrap(report["items"] as? [[String: Any]])
        XCTAssertEqual(items.map { ($0["review"] as? [String: Any])?["verdict"] as? String }, ["pass", "fail", "pass", "fail"])
        XCTAssertEqual(((items[1]["review"] as? [String: Any])?["marks"] as? [[String: Any]])?.first?["frame"] as? String, markFrame)
        XCTAssertEqual((report["review"] as? [String: Any])?["failed"] as? Int, 2)
        XCTAssertNotNil(items[0]["width"] as? Int, "item 0's automated findings (checked in the background) are in the report")
        let html = try String(contentsOf: dir.appendingPathComponent("ana/index.html"), encoding: .utf8)
        for text in ["no sound", "damaged file, cannot play", "the ball at one second", "PASS", "FAIL", markFrame] {
            XCTAssertTrue(html.contains(text), "index.html says “\(text)”")
        }
        let junit = try String(contentsOf: dir.appendingPathComponent("ana.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("<failure message=\"no sound\" type=\"review\""), junit)
        XCTAssertTrue(junit.contains("<failure message=\"damaged file, cannot play\" type=\"review\""), junit)
        XCTAssertTrue(junit.contains("failures=\"2\""), junit)

        // The mark's frame is the frame --screenshot-at 1 writes for the same item (and not 2 s's).
        let shots = dir.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--screenshot-at", "1,2", "--screenshot-dir", shots.path,
                                                                 "--audio-sink", "fakesink", TestMedia.path("demo-ball.mp4")], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let captures = try FileManager.default.contentsOfDirectory(atPath: shots.path).sorted()
        XCTAssertEqual(captures.count, 2, "\(captures)")
        let markPath = dir.appendingPathComponent("ana").appendingPathComponent(markFrame).path
        let atOne = try XCTUnwrap(PixelProbe.differingPixels(markPath, shots.appendingPathComponent(captures[0]).path))
        let atTwo = try XCTUnwrap(PixelProbe.differingPixels(markPath, shots.appendingPathComponent(captures[1]).path))
        XCTAssertLessThan(atOne, 20, "the mark's frame is --screenshot-at 1's (\(captures[0])), to the colour conversion's rounding")
        XCTAssertGreaterThan(atTwo, 1000, "and not the frame a second later (the ball has moved)")

        // A second reviewer: the same verdicts but item 2, which bo fails: one conflict.
        let other = try review("bo", reviewer: "bo", check: false)
        client = try connect(other)
        for (i, line) in ["verdict pass", "verdict fail \"no sound either\"", "verdict fail \"too dark\"", "verdict fail"].enumerated() {
            waitFor("bo at item \(i)", other) { property(client, "playlist-pos") as? Int == i }
            client.sendRaw(line + "\n")
        }
        XCTAssertEqual(other.finish(timeout: 20).status, 1)
        let merged = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "merge", dir.appendingPathComponent("ana").path, dir.appendingPathComponent("bo").path,
                                                                      "--report", dir.appendingPathComponent("merged").path], timeout: 60)
        XCTAssertEqual(merged.status, 1, merged.stderr)
        XCTAssertTrue(merged.stderr.contains("conflict: item 2: ana said pass, bo said fail (“too dark”)"), merged.stderr)
        let mergedReport = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("merged/report.json"))) as? [String: Any])
        let conflicts = try XCTUnwrap((mergedReport["review"] as? [String: Any])?["conflicts"] as? [[String: Any]])
        XCTAssertEqual(conflicts.map { $0["index"] as? Int }, [2], "one conflict, listed")
        let mergedItems = try XCTUnwrap(mergedReport["items"] as? [[String: Any]])
        XCTAssertEqual(mergedItems.map { ($0["review"] as? [String: Any])?["verdict"] as? String }, ["pass", "fail", nil, "fail"],
                       "the conflicting item is not judged: neither verdict wins")
        XCTAssertEqual((mergedItems[1]["review"] as? [String: Any])?["note"] as? String, "no sound / no sound either")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("merged").appendingPathComponent(markFrame).path), "the mark's frame came along")
        let mergedHTML = try String(contentsOf: dir.appendingPathComponent("merged/index.html"), encoding: .utf8)
        XCTAssertTrue(mergedHTML.contains("CONFLICT"), "index.html shows the conflict")
    }
}

/// The review bar in the window (in-process): what it says of the item and of its background
/// check, the `?` window listing the review keys, Esc leaving the note entry with nothing
/// recorded, and a damaged item that stays on screen to be judged.
final class ReviewBarTests: XCTestCase {
    func testTheBarShowsTheItemItsCheckAndVerdictAndEscRecordsNothing() throws {
        let dir = TestMedia.temporaryDirectory("reel-review-bar")
        defer { try? FileManager.default.removeItem(at: dir) }
        let options = ReviewOptions(directory: dir.appendingPathComponent("out"), junit: nil, reviewer: "ana", automatedChecks: true,
                                    reelExecutable: ProcessRunner.reelExecutable)
        try MainActor.assumeIsolated {
            let h = try SessionHarness([TestMedia.path("corrupt.mp4"), TestMedia.path("color10s.mp4")], review: options)
            defer { h.close() }
            let bar = { h.window.reviewBar.text ?? "" }
            h.wait("the bar names the item") { bar().hasPrefix("Review 1 of 2 · corrupt") }
            h.wait("the damaged item's error, and it stays", timeout: 20) { h.session.state.errorBanner != nil }
            _ = UIRuntime.run(until: { false }, timeout: 1)
            XCTAssertEqual(h.session.controller.currentIndex, 0, "a failed item stays to be judged: \(bar())")
            h.wait("its background check failed it", timeout: 60) { bar().contains("check: FAILED") }
            XCTAssertTrue(bar().contains("verdict: —"), bar())

            h.press("n")
            h.wait("the note entry is open") { h.window.reviewBar.isTyping }
            h.press("y")  // typed into the note, not a pass
            h.press("Escape")
            h.wait("Esc closes it") { !h.window.reviewBar.isTyping }
            XCTAssertEqual(h.session.controller.currentIndex, 0, "nothing recorded: still on item 0")
            XCTAssertNil(h.session.review?.book.review(at: 0)?.verdict)

            h.press("y")
            h.wait("y passes and moves on") { h.session.controller.currentIndex == 1 }
            h.wait("the next item's check", timeout: 60) { bar().contains("check: ok 640×360") }
            XCTAssertTrue(bar().hasPrefix("Review 2 of 2 · color10s"), bar())
            XCTAssertTrue(bar().hasSuffix("1 judged"), bar())

            h.press("question")
            h.wait("the ? window") { h.window.shortcutsRows != nil }
            let rows = h.window.shortcutsRows ?? []
            for key in ["y", "n", "b"] {
                XCTAssertTrue(rows.contains { $0.hasPrefix(key) && $0.contains("Review:") }, "\(key) listed: \(rows.prefix(6))")
            }
        }
    }
}
