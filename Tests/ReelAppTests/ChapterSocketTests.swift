import Foundation
import ReelTestSupport
import XCTest

/// Chapters over the socket and the event stream, with mpv's names: `chapter-list`, `chapter`
/// (settable: seeks there), `chapters` (how many), and a `chapters` event.
final class ChapterSocketTests: XCTestCase {
    func testChaptersAreListedAndChosenOverTheSocket() throws {
        let dir = TestMedia.temporaryDirectory("reel-chapters")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--events", "--ipc", socket, "--no-resume", "--pause",
                                                                        "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                                                        TestMedia.path("chapters.mkv"), TestMedia.path("color10s.mp4")])
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        var id = 0
        func get(_ name: String) -> Any? { id += 1; return c.request(["get_property", name], id: id)?["data"] }
        func set(_ name: String, _ value: Any) -> String? { id += 1; return c.request(["set_property", name, value], id: id)?["error"] as? String }
        func eventually(_ what: String, timeout: Double = 15, _ condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition() && Date() < deadline { usleep(50_000) }
            XCTAssertTrue(condition(), what)
        }

        XCTAssertEqual(get("pause") as? Bool, true, "--pause: loaded, paused")
        eventually("the chapters are known") { get("chapters") as? Int == 3 }
        let list = try XCTUnwrap(get("chapter-list") as? [[String: Any]])
        XCTAssertEqual(list.map { $0["title"] as? String }, ["Opening", "Middle part", nil])
        XCTAssertEqual(list.map { $0["time"] as? Double }, [0, 3, 6.5])
        XCTAssertEqual(get("chapter") as? Int, 0)

        XCTAssertEqual(set("chapter", 1), "success")
        eventually("at the second chapter") { get("chapter") as? Int == 1 && abs((get("position") as? Double ?? 0) - 3) < 0.1 }
        XCTAssertEqual(set("chapter", 3), "unavailable")
        XCTAssertEqual(set("chapter", "middle"), "unsupported format for accessing property")

        XCTAssertEqual(set("playlist-pos", 1), "success")
        eventually("the next item has none") { get("chapters") as? Int == 0 && (get("chapter-list") as? [Any])?.isEmpty == true }
        XCTAssertTrue(get("chapter") is NSNull || get("chapter") == nil)
        id += 1
        _ = c.request(["quit"], id: id)
        _ = reel.finish(timeout: 10)
        let events = reel.stdout.split(separator: "\n").filter { $0.contains(#""event":"chapters""#) }
        XCTAssertEqual(events.count, 1, "one chapters event, the first item's: \(events)")
        XCTAssertTrue(events.first?.contains(#"{"title":"Middle part","time":3.0}"#) == true, "\(events)")
    }
}
