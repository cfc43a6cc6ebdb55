import Foundation
import ReelTestSupport
import XCTest

/// Tracks over the control socket: listed, chosen by index, subtitles off and hidden; --alang.
final class TrackSocketTests: XCTestCase {
    func testTracksOverTheSocketAndAPreferredLanguage() throws {
        let dir = TestMedia.temporaryDirectory("reel-tracks")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--ipc", socket, "--alang", "fre", "--audio-sink", "fakesink sync=true",
                                                                        "--video-sink", "fakesink sync=true", TestMedia.path("tracks.mkv")])
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        var id = 0
        func get(_ name: String) -> Any? { id += 1; return c.request(["get_property", name], id: id)?["data"] }
        func set(_ name: String, _ value: Any) -> String? { id += 1; return c.request(["set_property", name, value], id: id)?["error"] as? String }
        func eventually(_ what: String, _ condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(10)
            while !condition() && Date() < deadline { usleep(50_000) }
            XCTAssertTrue(condition(), what)
        }
        eventually("--alang fre chose the French audio") { get("audio-track") as? Int == 1 }
        let tracks = try XCTUnwrap(get("tracks") as? [[String: Any]])
        XCTAssertEqual(tracks.map { $0["type"] as? String }, ["video", "audio", "audio", "subtitle", "subtitle"])
        XCTAssertEqual(tracks.compactMap { $0["language"] as? String }, ["en", "fr", "en", "fr"])
        XCTAssertEqual(tracks.filter { $0["type"] as? String == "audio" }.map { $0["index"] as? Int }, [0, 1])
        eventually("the French audio plays") {
            (get("tracks") as? [[String: Any]])?.first { $0["type"] as? String == "audio" && $0["selected"] as? Bool == true }?["language"] as? String == "fr"
        }

        XCTAssertEqual(set("audio-track", 0), "success")
        eventually("English audio again") { get("audio-track") as? Int == 0 }
        XCTAssertEqual(set("subtitle-track", 1), "success")
        eventually("French subtitles") { get("subtitle-track") as? Int == 1 }
        XCTAssertEqual(set("sub-visibility", false), "success")
        XCTAssertEqual(get("sub-visibility") as? Bool, false)
        eventually("no text stream plays while hidden") {
            (get("tracks") as? [[String: Any]])?.contains { $0["type"] as? String == "subtitle" && $0["selected"] as? Bool == true } == false
        }
        XCTAssertEqual(set("subtitle-track", "no"), "success")
        eventually("no subtitle track") { get("subtitle-track") is NSNull }
        XCTAssertEqual(set("audio-track", 5), "unavailable")
        XCTAssertEqual(set("audio-track", "loud"), "invalid-argument")
        XCTAssertEqual(set("audio-track", "no"), "invalid-argument", "audio cannot be off")
        id += 1
        XCTAssertEqual(c.request(["quit"], id: id)?["error"] as? String, "success")
        XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0, reel.stderr)
    }
}
