import Foundation
import ReelTestSupport
import XCTest

/// mpv's A-B loop, loop-file, audio delay and video equalizer over the socket, by mpv's names,
/// with their events.
final class PlayerControlsSocketTests: XCTestCase {
    func testLoopAudioDelayAndPictureControlsByMpvsNames() throws {
        let dir = TestMedia.temporaryDirectory("reel-controls")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--events", "--ipc", socket, "--no-resume",
                                                                        "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                                                        TestMedia.path("color10s.mp4")])
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        var id = 0
        func get(_ name: String) -> Any? { id += 1; return c.request(["get_property", name], id: id)?["data"] }
        func set(_ name: String, _ value: Any) -> String? { id += 1; return c.request(["set_property", name, value], id: id)?["error"] as? String }

        XCTAssertEqual(set("pause", true), "success")
        // mpv's stats, as JSON.
        let deadline = Date().addingTimeInterval(10)
        var stats: [String: Any] = [:]
        repeat {
            stats = get("stats") as? [String: Any] ?? [:]
            if stats["frameRate"] is Double && stats["videoDecoder"] is String { break }
            usleep(100_000)
        } while Date() < deadline
        XCTAssertEqual(stats["width"] as? Int, 640, "\(stats)")
        XCTAssertEqual(stats["height"] as? Int, 360)
        XCTAssertEqual(stats["frameRate"] as? Double ?? 0, 30, accuracy: 0.01)
        XCTAssertEqual(stats["hardware"] as? Bool, false)
        XCTAssertNotNil(stats["videoDecoder"] as? String)
        XCTAssertGreaterThan(stats["bitrate"] as? Int ?? 0, 10_000, "the file's size over its duration")
        XCTAssertNotNil(stats["renderedFrames"] as? Int)
        // Volume above 100 %, up to volume-max (130 %, mpv's), never beyond.
        XCTAssertEqual(get("volume-max") as? Double, 130)
        XCTAssertEqual(set("volume", 130), "success")
        XCTAssertEqual(get("volume") as? Double ?? 0, 130, accuracy: 0.01)
        XCTAssertEqual(set("volume", 200), "success")
        XCTAssertEqual(get("volume") as? Double ?? 0, 130, accuracy: 0.01, "held to volume-max")
        id += 1
        XCTAssertEqual(c.request(["add", "volume", 5], id: id)?["error"] as? String, "success")
        XCTAssertEqual(get("volume") as? Double ?? 0, 130, accuracy: 0.01)
        XCTAssertEqual(set("volume", 100), "success")
        XCTAssertEqual(get("ab-loop-a") as? String, "no")
        XCTAssertEqual(set("ab-loop-a", 1), "success")
        XCTAssertEqual(set("ab-loop-b", 2.5), "success")
        XCTAssertEqual(get("ab-loop-a") as? Double, 1)
        XCTAssertEqual(get("ab-loop-b") as? Double, 2.5)
        XCTAssertEqual(set("ab-loop-b", "no"), "success")
        XCTAssertEqual(get("ab-loop-b") as? String, "no")
        XCTAssertEqual(set("ab-loop-a", "soon"), "unsupported format for accessing property")

        XCTAssertEqual(get("loop-file") as? String, "no")
        XCTAssertEqual(set("loop-file", "inf"), "success")
        XCTAssertEqual(get("loop-file") as? String, "inf")
        XCTAssertEqual(get("loop") as? String, "Track")
        XCTAssertEqual(set("loop-file", false), "success")
        XCTAssertEqual(get("loop") as? String, "None")

        XCTAssertEqual(set("audio-delay", 0.25), "success")
        XCTAssertEqual(get("audio-delay") as? Double, 0.25)
        XCTAssertEqual(set("audio-delay", 601), "invalid-argument")

        for name in ["brightness", "contrast", "saturation", "gamma", "hue"] {
            XCTAssertEqual(get(name) as? Int, 0, name)
            XCTAssertEqual(set(name, -20), "success", name)
            XCTAssertEqual(get(name) as? Int, -20, name)
        }
        XCTAssertEqual(set("brightness", 101), "invalid-argument")
        XCTAssertEqual(set("contrast", 2.5), "invalid-argument")

        id += 1
        _ = c.request(["quit"], id: id)
        _ = reel.finish(timeout: 10)
        let events = reel.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(events.filter { $0.contains(#""event":"ab-loop""#) }.count, 3, "\(events.filter { $0.contains("ab-loop") })")
        XCTAssertTrue(events.contains { $0.contains(#""event":"audio-delay""#) && $0.contains(#""delay":0.25"#) })
        XCTAssertEqual(events.filter { $0.contains(#""event":"picture""#) }.count, 5)
    }
}
