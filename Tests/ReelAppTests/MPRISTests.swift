import Foundation
import ReelTestSupport
import XCTest

/// MPRIS 2 as desktops see it, driven with the real `playerctl` on the session bus that
/// `make test` provides (dbus-run-session).
final class MPRISTests: XCTestCase {
    private func playerctl(_ player: String, _ args: [String]) -> String {
        let r = ProcessRunner.run("/usr/bin/playerctl", ["-p", player] + args, timeout: 10)
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func eventually(_ what: String, timeout: Double = 10, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return XCTFail("timed out waiting for \(what)") }
            usleep(50_000)
        }
    }

    func testPlayerctlControlsPlaybackAndReadsMetadataAndPosition() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: run under dbus-run-session (make test does)")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl") else { throw XCTSkip("playerctl is not installed") }
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--headless", "--mpris", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=true",
                                          TestMedia.path("color10s.mp4"), TestMedia.path("clip2s.mp4")])
        let name = "reel.instance\(reel.process.processIdentifier)"
        eventually("the player on the bus") {
            ProcessRunner.run("/usr/bin/playerctl", ["-l"], timeout: 5).stdout.contains(name)
        }
        eventually("Playing") { playerctl(name, ["status"]) == "Playing" }
        XCTAssertEqual(playerctl(name, ["metadata", "xesam:title"]), "color10s.mp4")
        eventually("the length once the item is ready") {
            abs((Int(playerctl(name, ["metadata", "mpris:length"])).map { Double($0) / 1e6 } ?? 0) - 10) < 0.1
        }
        XCTAssertTrue(playerctl(name, ["metadata", "xesam:url"]).hasSuffix("color10s.mp4"))
        XCTAssertTrue(playerctl(name, ["metadata", "mpris:trackid"]).contains("/org/reel/Track/0"))

        // PropertiesChanged: a follower sees the status change without polling.
        let follow = try BackgroundProcess("/usr/bin/playerctl", ["-p", name, "--follow", "status"])
        eventually("follower ready") { follow.stdout.contains("Playing") }
        _ = playerctl(name, ["play-pause"])
        eventually("Paused") { playerctl(name, ["status"]) == "Paused" }
        eventually("PropertiesChanged(Paused)") { follow.stdout.contains("Paused") }

        // Position: SetPosition while paused holds there; playerctl reads it back; Seeked is
        // emitted with the new position (in µs), as the spec asks.
        let monitor = try BackgroundProcess("/usr/bin/dbus-monitor", ["--session", "type='signal',interface='org.mpris.MediaPlayer2.Player',member='Seeked'"])
        defer { monitor.process.terminate(); monitor.finish() }
        eventually("dbus-monitor ready") { monitor.stdout.contains("NameAcquired") }
        _ = playerctl(name, ["position", "4.5"])
        eventually("position 4.5") { abs((Double(playerctl(name, ["position"])) ?? 0) - 4.5) < 0.05 }
        eventually("Seeked(4500000)") { monitor.stdout.contains("member=Seeked") && monitor.stdout.contains("int64 4500000") }
        _ = playerctl(name, ["position", "1-"])  // relative: Seek(-1 s)
        eventually("position 3.5") { abs((Double(playerctl(name, ["position"])) ?? 0) - 3.5) < 0.05 }
        _ = playerctl(name, ["volume", "0.4"])
        eventually("volume 0.4") { abs((Double(playerctl(name, ["volume"])) ?? 0) - 0.4) < 0.01 }

        _ = playerctl(name, ["play"])
        eventually("Playing again") { playerctl(name, ["status"]) == "Playing" }
        _ = playerctl(name, ["next"])
        eventually("next title") { playerctl(name, ["metadata", "xesam:title"]) == "clip2s.mp4" }
        XCTAssertTrue(playerctl(name, ["metadata", "mpris:trackid"]).contains("/org/reel/Track/1"))
        _ = playerctl(name, ["previous"])
        eventually("previous title") { playerctl(name, ["metadata", "xesam:title"]) == "color10s.mp4" }
        _ = playerctl(name, ["stop"])
        eventually("Stopped") { playerctl(name, ["status"]) == "Stopped" }
        eventually("PropertiesChanged(Stopped)") { follow.stdout.contains("Stopped") }
        follow.process.terminate()
        follow.finish()

        reel.process.terminate()
        let end = reel.finish(timeout: 10)
        XCTAssertFalse(end.killed, reel.stderr)
        XCTAssertEqual(end.status, 0)
        eventually("gone from the bus") { !ProcessRunner.run("/usr/bin/playerctl", ["-l"], timeout: 5).stdout.contains(name) }
    }
}
