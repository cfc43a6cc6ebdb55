import Foundation
import ReelTestSupport
import XCTest

/// Issue 61: two subtitle languages at once (mpv's `secondary-sid`): the primary drawn at the
/// bottom and a second file at the top, each on its own delay; the captured frame shows both,
/// and before the second is asked for only the bottom one (its overlay is not in the pipeline
/// until then: the item loads again where it was, and is not a new item).
final class SecondarySubtitleTests: XCTestCase {
    func testASecondSubtitleFileIsDrawnAtTheTopWhileThePrimaryIsAtTheBottom() throws {
        let dir = TestMedia.temporaryDirectory("reel-secondary-subs")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path
        let english = dir.appendingPathComponent("talk.en.srt").path, french = dir.appendingPathComponent("talk.fr.srt").path
        try "1\n00:00:00,300 --> 00:00:09,500\nGOOD MORNING EVERYONE\n".write(toFile: english, atomically: true, encoding: .utf8)
        try "1\n00:00:00,300 --> 00:00:09,500\nBONJOUR A TOUS\n".write(toFile: french, atomically: true, encoding: .utf8)
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, [
            "--headless", "--events", "--ipc", socket, "--no-resume", "--no-config", "--sub-file", english, "--sub-file", french, "--slang", "en",
            "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true", TestMedia.path("color10s.mp4")])
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        var id = 0
        func ask(_ command: [Any]) -> [String: Any] { id += 1; return c.request(command, id: id) ?? [:] }
        func get(_ name: String) -> Any? { ask(["get_property", name])["data"] }
        func eventually(_ what: String, _ condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(15)
            while !condition() && Date() < deadline { usleep(100_000) }
            XCTAssertTrue(condition(), "\(what): \(reel.stderr.suffix(800))")
        }
        /// The frame at 1.5 s (green), paused: white text in the top and the bottom quarter.
        func frame(_ name: String) throws -> (top: Double, bottom: Double) {
            XCTAssertEqual(ask(["set_property", "pause", true])["error"] as? String, "success")
            XCTAssertEqual(ask(["seek", 1.5, "absolute", "exact"])["error"] as? String, "success")
            usleep(700_000)
            let png = dir.appendingPathComponent(name).path
            XCTAssertEqual(ask(["screenshot", png])["error"] as? String, "success", reel.stderr)
            XCTAssertTrue(FileManager.default.fileExists(atPath: png))
            return (PixelProbe.whiteText(png, region: (0, 0, 640, 90)).share, PixelProbe.whiteText(png, region: (0, 270, 640, 90)).share)
        }

        eventually("the primary, English, on screen") { get("sub-text") as? String == "GOOD MORNING EVERYONE" }
        let list = get("track-list") as? [[String: Any]] ?? []
        let frenchID = try XCTUnwrap(list.first { $0["type"] as? String == "sub" && ($0["title"] as? String)?.hasPrefix("talk.fr") == true }?["id"] as? Int, "\(list)")
        XCTAssertEqual(get("secondary-sid") as? Bool, false, "none at first (mpv's no)")
        let before = try frame("one.png")
        XCTAssertGreaterThan(before.bottom, 0.002, "the primary at the bottom")
        XCTAssertLessThan(before.top, 0.0005, "nothing at the top yet")

        XCTAssertEqual(ask(["set_property", "pause", false])["error"] as? String, "success")
        XCTAssertEqual(ask(["set_property", "secondary-sid", frenchID])["error"] as? String, "success")
        eventually("the secondary, French, on screen") { get("secondary-sub-text") as? String == "BONJOUR A TOUS" }
        XCTAssertEqual(get("secondary-sid") as? Int, frenchID)
        XCTAssertEqual(get("sub-text") as? String, "GOOD MORNING EVERYONE", "the primary stays")
        let both = try frame("two.png")
        XCTAssertGreaterThan(both.top, 0.002, "the secondary at the top")
        XCTAssertGreaterThan(both.bottom, 0.002, "the primary still at the bottom")

        // Each has its own delay; the secondary hides on its own.
        XCTAssertEqual(ask(["set_property", "secondary-sub-delay", 2.5])["error"] as? String, "success")
        XCTAssertEqual(get("secondary-sub-delay") as? Double, 2.5)
        XCTAssertEqual(get("sub-delay") as? Double, 0, "the primary's delay is its own")
        XCTAssertEqual(ask(["set_property", "secondary-sub-visibility", false])["error"] as? String, "success")
        let hidden = try frame("three.png")
        XCTAssertLessThan(hidden.top, 0.0005, "the secondary hidden")
        XCTAssertGreaterThan(hidden.bottom, 0.002)
        XCTAssertEqual(ask(["set_property", "secondary-sid", 9])["error"] as? String, "unavailable", "no such track")
        XCTAssertEqual(ask(["set_property", "secondary-sid", "no"])["error"] as? String, "success")
        XCTAssertEqual(get("secondary-sid") as? Bool, false)

        XCTAssertEqual(ask(["quit"])["error"] as? String, "success")
        XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0, reel.stderr)
        let items = reel.stdout.split(separator: "\n").filter { $0.contains("\"event\":\"item\"") }
        XCTAssertEqual(items.count, 1, "asking for the secondary is not a new item: \(items)")
    }
}
