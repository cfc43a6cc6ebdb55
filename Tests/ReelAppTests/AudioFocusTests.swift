import Foundation
import ReelTestSupport
import XCTest

/// Audio focus against a real PulseAudio server (private, with a null sink and
/// module-role-cork, which corks `video` and `music` streams while a `phone` stream plays):
/// Reel's stream says what it is, a call pauses it, the call's end resumes it — only when Reel
/// was playing when the call came.
final class AudioFocusTests: XCTestCase {
    func testTheStreamCarriesItsRoleACallPausesAndItsEndResumesOnlyWhatWasPlaying() throws {
        let pulse = try PulseAudioServer(modules: ["module-role-cork trigger_roles=phone cork_roles=music,video"])
        defer { pulse.stop() }
        let dir = TestMedia.temporaryDirectory("reel-focus")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path
        // No --audio-sink: playbin3's own choice (autoaudiosink), which finds the server.
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--events", "--ipc", socket, "--no-resume",
                                                                        "--video-sink", "fakesink sync=true", TestMedia.path("color10s.mp4")],
                                         environment: pulse.environment)
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        var id = 0
        func get(_ name: String) -> Any? { id += 1; return c.request(["get_property", name], id: id)?["data"] }
        func set(_ name: String, _ value: Any) -> String? { id += 1; return c.request(["set_property", name, value], id: id)?["error"] as? String }
        func position() -> Double { get("position") as? Double ?? -1 }
        func eventually(_ what: String, timeout: Double = 10, _ condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition() && Date() < deadline { usleep(50_000) }
            XCTAssertTrue(condition(), what)
        }
        /// A call: a `phone` stream of `seconds` on the same server.
        func call(seconds: Double) throws -> BackgroundProcess {
            try BackgroundProcess("/usr/bin/gst-launch-1.0", ["-q", "audiotestsrc", "num-buffers=\(Int(seconds * 43))", "!", "pulsesink",
                                                               "stream-properties=props,media.role=phone"], environment: pulse.environment)
        }

        eventually("playing into PulseAudio") { position() > 0.3 && get("pause") as? Bool == false }
        let stream = try XCTUnwrap(pulse.sinkInputs().first { $0["application.name"] == "Reel" }, "\(pulse.sinkInputs())")
        XCTAssertEqual(stream["media.role"], "video")
        XCTAssertEqual(stream["application.id"], "reel")
        XCTAssertEqual(stream["application.icon_name"], "reel")

        // A call while playing: paused, and the position holds.
        let first = try call(seconds: 2)
        eventually("the call paused Reel") { get("pause") as? Bool == true }
        let held = position()
        usleep(500_000)
        XCTAssertEqual(position(), held, accuracy: 0.05, "paused during the call")
        _ = first.finish(timeout: 10, dumpStacks: false)
        eventually("the call's end resumed it") { get("pause") as? Bool == false && position() > held + 0.5 }

        // Paused by the user before a call: the call's end leaves it paused.
        XCTAssertEqual(set("pause", true), "success")
        let second = try call(seconds: 1)
        _ = second.finish(timeout: 10, dumpStacks: false)
        usleep(1_500_000)
        XCTAssertEqual(get("pause") as? Bool, true, "still paused: it was not playing when the call came")

        id += 1
        XCTAssertEqual(c.request(["quit"], id: id)?["error"] as? String, "success")
        XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0, reel.stderr)
        let focus = reel.stdout.split(separator: "\n").filter { $0.contains("\"event\":\"audio-focus\"") }
        XCTAssertEqual(focus.map { $0.contains("\"held\":true") }, [false, true], "one focus loss, one return: \(focus)")
    }
}
