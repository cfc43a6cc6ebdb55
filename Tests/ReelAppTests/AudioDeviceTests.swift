import Foundation
import ReelTestSupport
import XCTest

/// Issue 60: the sound's output chosen from Reel (mpv's `audio-device`, `audio-device-list`,
/// `--audio-device`), on a real PulseAudio with two sinks: the list names both, a choice moves the
/// playing stream there (PulseAudio says which sink it is on), and the command line starts there.
final class AudioDeviceTests: XCTestCase {
    private func sinkOfOurStream(_ pulse: PulseAudioServer) -> String? {
        let sinks = Dictionary(uniqueKeysWithValues: pulse.pactl(["list", "short", "sinks"]).lines.compactMap { line -> (String, String)? in
            let f = line.split(separator: "\t").map(String.init)
            return f.count >= 2 ? (f[0], f[1]) : nil
        })
        let input = pulse.pactl(["list", "short", "sink-inputs"]).lines.first?.split(separator: "\t").map(String.init)
        return input.flatMap { $0.count >= 2 ? sinks[$0[1]] : nil }
    }

    func testTheListTheChoiceAndTheCommandLine() throws {
        let pulse = try PulseAudioServer(modules: ["module-null-sink sink_name=reel_headphones sink_properties=device.description=Headphones"])
        defer { pulse.stop() }
        let dir = TestMedia.temporaryDirectory("reel-audio-device")
        defer { try? FileManager.default.removeItem(at: dir) }
        for fromCommandLine in [false, true] {
            let socket = dir.appendingPathComponent("d\(fromCommandLine).sock").path
            // No --audio-sink: playbin3's own choice (autoaudiosink), which finds the server.
            let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--ipc", socket, "--no-resume", "--video-sink", "fakesink sync=true"]
                                             + (fromCommandLine ? ["--audio-device", "pulse/reel_headphones"] : []) + [TestMedia.path("color10s.mp4")],
                                             environment: pulse.environment)
            defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
            let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
            var id = 0
            func ask(_ command: [Any]) -> [String: Any] { id += 1; return c.request(command, id: id) ?? [:] }
            func eventually(_ what: String, _ condition: () -> Bool) {
                let deadline = Date().addingTimeInterval(10)
                while !condition() && Date() < deadline { usleep(100_000) }
                XCTAssertTrue(condition(), what)
            }
            eventually("playing on a sink") { sinkOfOurStream(pulse) != nil }
            if fromCommandLine {
                eventually("--audio-device started it there") { sinkOfOurStream(pulse) == "reel_headphones" }
                XCTAssertEqual(ask(["get_property", "audio-device"])["data"] as? String, "pulse/reel_headphones")
            } else {
                XCTAssertEqual(sinkOfOurStream(pulse), "reel_test_sink", "the server's default")
                XCTAssertEqual(ask(["get_property", "audio-device"])["data"] as? String, "auto")
                let list = ask(["get_property", "audio-device-list"])["data"] as? [[String: Any]] ?? []
                XCTAssertEqual(list.first?["name"] as? String, "auto")
                XCTAssertTrue(list.contains { $0["name"] as? String == "pulse/reel_headphones" && $0["description"] as? String == "Headphones" }, "\(list)")
                XCTAssertTrue(list.contains { $0["name"] as? String == "pulse/reel_test_sink" }, "\(list)")
                XCTAssertEqual(ask(["set_property", "audio-device", "pulse/reel_headphones"])["error"] as? String, "success")
                eventually("the playing stream moved to the headphones") { sinkOfOurStream(pulse) == "reel_headphones" }
                XCTAssertEqual(ask(["set_property", "audio-device", "pulse/nothing-here"])["error"] as? String, "unavailable")
                XCTAssertEqual(ask(["set_property", "audio-device", "auto"])["error"] as? String, "success")
                eventually("back to the default") { sinkOfOurStream(pulse) == "reel_test_sink" }
            }
            XCTAssertEqual(ask(["quit"])["error"] as? String, "success")
            XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0, reel.stderr)
        }
    }
}
