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
        Thread.sleep(forTimeInterval: 0.5)  // an absence: the switch came within milliseconds
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

    private func gdbus(_ name: String, _ args: [String]) -> ProcessRunner.Result {
        ProcessRunner.run("/usr/bin/gdbus", ["call", "--session", "--dest", "org.mpris.MediaPlayer2.\(name)",
                                             "--object-path", "/org/mpris/MediaPlayer2"] + args, timeout: 10)
    }

    /// The rest of the Player interface through real clients: Pause, LoopStatus and Shuffle
    /// (playerctl), Rate and the Can* properties (gdbus), OpenUri (playerctl open), each change
    /// announced with PropertiesChanged; and the window's default: MPRIS on without --mpris.
    func testPauseLoopShuffleRateOpenUriAndTheCanProperties() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: run under dbus-run-session (make test does)")
        }
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no display: run under xvfb-run (make test does)") }
        // A window (no --headless) publishes MPRIS without being asked: media keys just work.
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                          TestMedia.path("color10s.mp4"), TestMedia.path("clip2s.mp4")])
        defer {
            // reel stopped answering after the rate went from -64 back to 1 (twice in many runs).
            // Found since: that sequence, paused, switched to the next item every time (reverse
            // playback's about-to-finish handed it over; SeekAndRateTests), now fixed; should it
            // stop answering again, its threads' stacks say where it waits.
            if (testRun?.totalFailureCount ?? 0) > 0, reel.process.isRunning { StackDump.log(reel.process.processIdentifier, reason: "the MPRIS test failed") }
            reel.process.terminate()
            reel.finish(timeout: 10)
        }
        let name = "reel.instance\(reel.process.processIdentifier)"
        eventually("the windowed player on the bus") { ProcessRunner.run("/usr/bin/playerctl", ["-l"], timeout: 5).stdout.contains(name) }
        eventually("Playing") { playerctl(name, ["status"]) == "Playing" }
        eventually("the length (seekable once it is known)") { !playerctl(name, ["metadata", "mpris:length"]).isEmpty }

        let all = gdbus(name, ["--method", "org.freedesktop.DBus.Properties.GetAll", "org.mpris.MediaPlayer2.Player"])
        XCTAssertEqual(all.status, 0, all.stderr)
        for expected in ["'CanGoNext': <true>", "'CanGoPrevious': <false>", "'CanPlay': <true>", "'CanPause': <true>",
                         "'CanSeek': <true>", "'CanControl': <true>", "'LoopStatus': <'None'>", "'Shuffle': <false>", "'Rate': <1.0>"] {
            XCTAssertTrue(all.stdout.contains(expected), "\(expected) in \(all.stdout)")
        }
        let root = gdbus(name, ["--method", "org.freedesktop.DBus.Properties.GetAll", "org.mpris.MediaPlayer2"])
        XCTAssertTrue(root.stdout.contains("'Identity': <'Reel'>") && root.stdout.contains("'DesktopEntry': <'io.github.reel_player.Reel'>"), root.stdout)

        let follow = try BackgroundProcess("/usr/bin/playerctl", ["-p", name, "--follow", "loop"])
        defer { follow.process.terminate(); follow.finish() }
        eventually("follower ready") { follow.stdout.contains("None") }

        _ = playerctl(name, ["pause"])
        eventually("Pause") { playerctl(name, ["status"]) == "Paused" }
        _ = playerctl(name, ["pause"])
        XCTAssertEqual(playerctl(name, ["status"]), "Paused", "Pause on a paused player keeps it paused")

        _ = playerctl(name, ["loop", "Playlist"])
        eventually("LoopStatus Playlist") { playerctl(name, ["loop"]) == "Playlist" }
        eventually("PropertiesChanged(LoopStatus)") { follow.stdout.contains("Playlist") }
        _ = playerctl(name, ["loop", "Track"])
        eventually("LoopStatus Track") { playerctl(name, ["loop"]) == "Track" }
        _ = playerctl(name, ["shuffle", "On"])
        eventually("Shuffle on") { playerctl(name, ["shuffle"]) == "On" }
        _ = playerctl(name, ["shuffle", "Off"])
        eventually("Shuffle off") { playerctl(name, ["shuffle"]) == "Off" }

        let set = gdbus(name, ["--method", "org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2.Player", "Rate", "<2.0>"])
        XCTAssertEqual(set.status, 0, set.stderr)
        eventually("Rate 2") {
            gdbus(name, ["--method", "org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2.Player", "Rate"]).stdout.contains("<2.0>")
        }

        // Rates outside 1/64…64 are brought into it (issue 28: 1e-300 and -1e300 crashed GStreamer).
        for (sent, expected) in [("<1e-300>", "<0.015625>"), ("<-1e300>", "<-64.0>"), ("<1.0>", "<1.0>")] {
            let r = gdbus(name, ["--method", "org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2.Player", "Rate", sent])
            XCTAssertEqual(r.status, 0, r.stderr)
            eventually("Rate \(expected) after \(sent)") {
                gdbus(name, ["--method", "org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2.Player", "Rate"]).stdout.contains(expected)
            }
            XCTAssertTrue(reel.process.isRunning, "\(sent): \(reel.stderr.suffix(600))")
        }
        // Paused through −64 and back: still the same track (the reverse run's about-to-finish
        // handed the next one over, and the rate seek back to 1 switched to it).
        XCTAssertEqual(playerctl(name, ["metadata", "xesam:title"]), "color10s.mp4")
        let range = gdbus(name, ["--method", "org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2.Player", "MaximumRate"])
        XCTAssertTrue(range.stdout.contains("<64.0>"), range.stdout)

        // OpenUri: the URI plays.
        _ = playerctl(name, ["open", URL(fileURLWithPath: TestMedia.path("gapless-03.mp4")).absoluteString])
        eventually("the opened URI plays") {
            playerctl(name, ["metadata", "xesam:title"]) == "gapless-03.mp4" && playerctl(name, ["status"]) == "Playing"
        }
        let bad = gdbus(name, ["--method", "org.mpris.MediaPlayer2.Player.OpenUri", "not a uri"])
        XCTAssertNotEqual(bad.status, 0, "a malformed URI is refused")
        XCTAssertTrue(bad.stderr.contains("InvalidArgs"), bad.stderr)
        XCTAssertTrue(reel.process.isRunning, "no crash")
    }

    /// An MP3's cover art reaches the desktop's media controls: `mpris:artUrl` names a private
    /// file with the picture (the song's green 64x64 PNG); the next item, without one, has none.
    func testTheCoverArtOfASongIsTheArtURL() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: run under dbus-run-session (make test does)")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl") else { throw XCTSkip("playerctl is not installed") }
        let runtime = TestMedia.temporaryDirectory("reel-runtime")
        defer { try? FileManager.default.removeItem(at: runtime) }
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--headless", "--mpris", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                          TestMedia.path("cover.mp3"), TestMedia.path("tone3s.m4a")],
                                         environment: ["XDG_RUNTIME_DIR": runtime.path])
        defer { reel.process.terminate(); reel.finish(timeout: 10) }
        let name = "reel.instance\(reel.process.processIdentifier)"
        eventually("Playing") { playerctl(name, ["status"]) == "Playing" }
        var art = ""
        eventually("an art URL") { art = playerctl(name, ["metadata", "mpris:artUrl"]); return !art.isEmpty }
        let file = try XCTUnwrap(URL(string: art), art)
        XCTAssertEqual(file.deletingLastPathComponent().path, runtime.appendingPathComponent("reel-art").path, art)
        XCTAssertEqual(file.pathExtension, "png")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(PixelProbe.size(file.path).map { [$0.width, $0.height] }, [64, 64])
        let pixel = try XCTUnwrap(PixelProbe.pixel(file.path, x: 32, y: 32))
        XCTAssertLessThan(pixel.distance(to: PixelProbe.RGB(r: 0, g: 255, b: 0)), 10, "\(pixel)")
        eventually("the next item, without art", timeout: 15) {
            playerctl(name, ["metadata", "xesam:url"]).hasSuffix("tone3s.m4a") && playerctl(name, ["metadata", "mpris:artUrl"]).isEmpty
        }
    }
}
