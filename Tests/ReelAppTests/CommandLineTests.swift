import Foundation
import ReelTestSupport
import XCTest

/// `reel --headless --events` as QA scripts use it: the built binary, real media, real pipelines.
final class CommandLineTests: XCTestCase {
    private func events(_ result: ProcessRunner.Result) -> [[String: Any]] {
        XCTAssertEqual(result.malformedJSONLines, [], "every event line is JSON")
        return result.jsonObjects
    }

    func testHeadlessEventsOnAShortClipEndWithTheEndAndExitZero() throws {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["--headless", "--events", "--audio-sink", "fakesink", TestMedia.path("clip2s.mp4")], timeout: 30)
        XCTAssertFalse(r.timedOut)
        XCTAssertEqual(r.status, 0, r.stderr)
        let ev = events(r)
        XCTAssertEqual(ev.count, r.lines.count, "every stdout line is a JSON object")
        let names = ev.compactMap { $0["event"] as? String }
        let statuses = ev.filter { $0["event"] as? String == "status" }.compactMap { $0["status"] as? String }
        XCTAssertEqual(statuses, ["unknown", "readyToPlay"])
        let tc = ev.filter { $0["event"] as? String == "time-control" }.compactMap { $0["status"] as? String }
        XCTAssertEqual(tc.first, "waiting")
        XCTAssertTrue(tc.contains("playing"))
        XCTAssertEqual(ev.filter { $0["event"] as? String == "tick" }.count, 2, "1 s ticks of a 2 s clip")
        XCTAssertEqual(names.filter { $0 == "end" }.count, 1)
        XCTAssertEqual(names.last(where: { $0 != "time-control" }), "finished")
        XCTAssertLessThan(names.firstIndex(of: "end")!, names.firstIndex(of: "finished")!)
        let info = try XCTUnwrap(ev.first { $0["event"] as? String == "media-info" })
        XCTAssertEqual(info["width"] as? Int, 640)
        XCTAssertEqual(info["height"] as? Int, 360)
        XCTAssertEqual(ev.first { $0["event"] as? String == "item" }?["item"] as? Int, 0)
        // Time stamps never go backwards.
        let times = ev.compactMap { $0["t"] as? Double }
        XCTAssertEqual(times, times.sorted())
    }

    /// `--exit-at-end` with a window (as gst-play-1.0 and mpv end): the window plays the queue
    /// and the process exits by itself, 0 when every item played, 1 when one failed. Without a
    /// display the same command plays headless and still ends (it says so).
    func testExitAtEndWithAWindowAndWithoutADisplay() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no display: run under xvfb-run (make test does)") }
        let clip = TestMedia.path("gapless-00.mp4")
        let ok = ProcessRunner.run(ProcessRunner.reelExecutable, ["--exit-at-end", "--no-mpris", "--events", "--audio-sink", "fakesink sync=true", clip, clip],
                                   timeout: 30)
        XCTAssertFalse(ok.timedOut, "the window closes by itself at the end")
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let names = events(ok).compactMap { $0["event"] as? String }
        XCTAssertEqual(names.filter { $0 == "end" }.count, 2)
        XCTAssertEqual(names.last(where: { $0 != "time-control" }), "finished")
        XCTAssertFalse(ok.stderr.contains("playing headless"), "it had a window: \(ok.stderr)")

        let missing = TestMedia.directory.appendingPathComponent("missing-\(UUID().uuidString).mp4").path
        let failed = ProcessRunner.run(ProcessRunner.reelExecutable, ["--exit-at-end", "--no-mpris", "--audio-sink", "fakesink sync=true", missing, clip],
                                       timeout: 30)
        XCTAssertFalse(failed.timedOut)
        XCTAssertEqual(failed.status, 1, "an item failed: \(failed.stderr)")

        let environment = ["DISPLAY": "", "WAYLAND_DISPLAY": ""]
        let headless = ProcessRunner.run(ProcessRunner.reelExecutable, ["--audio-sink", "fakesink sync=true", clip], timeout: 30, environment: environment)
        XCTAssertFalse(headless.timedOut, "without a display it plays headless and ends")
        XCTAssertEqual(headless.status, 0, headless.stderr)
        XCTAssertTrue(headless.stderr.contains("no display"), headless.stderr)
    }

    /// A window on a desktop without a session bus starts no dbus-daemon: GLib would autolaunch
    /// one (through `dbus-launch`, a fork, and a daemon left running) for anything that asks the
    /// bus; GTK's drop targets asked it while the window was built. A `dbus-launch` first on PATH
    /// records any call; `gdbus` in the same environment shows it would be called.
    func testAWindowWithoutASessionBusAutolaunchesNoDaemon() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no display: run under xvfb-run (make test does)") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-no-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let marker = dir.appendingPathComponent("dbus-launch-called")
        let fake = dir.appendingPathComponent("dbus-launch")
        try "#!/bin/sh\necho \"$*\" >> '\(marker.path)'\nexit 1\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let path = dir.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let noBus = ["-u", "DBUS_SESSION_BUS_ADDRESS", "-u", "XDG_RUNTIME_DIR", "PATH=" + path]

        let control = ProcessRunner.run("/usr/bin/env", noBus + ["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus",
                                                                  "--object-path", "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.GetId"],
                                        timeout: 30)
        guard FileManager.default.fileExists(atPath: marker.path) else {
            throw XCTSkip("GLib does not autolaunch here (no machine id?): \(control.stderr)")
        }
        try FileManager.default.removeItem(at: marker)

        let clip = TestMedia.path("gapless-00.mp4")
        let r = ProcessRunner.run("/usr/bin/env", noBus + [ProcessRunner.reelExecutable, "--exit-at-end", "--autoload=no", "--audio-sink", "fakesink sync=true", clip],
                                  timeout: 30)
        XCTAssertFalse(r.timedOut)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("playing headless"), "it had a window: \(r.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path),
                       "dbus-launch was called: \((try? String(contentsOf: marker, encoding: .utf8)) ?? "")")
    }

    func testMissingFilePrintsAnErrorEventAndExitsNonZero() throws {
        let missing = TestMedia.directory.appendingPathComponent("missing-\(UUID().uuidString).mp4").path
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--audio-sink", "fakesink", missing], timeout: 30)
        XCTAssertFalse(r.timedOut)
        XCTAssertNotEqual(r.status, 0)
        let errors = events(r).filter { $0["event"] as? String == "error" }
        XCTAssertEqual(errors.count, 1)
        let error = try XCTUnwrap(errors.first?["error"] as? [String: Any])
        XCTAssertEqual(error["code"] as? String, "not-found")
        XCTAssertTrue(r.stderr.contains("does not exist"), r.stderr)
    }

    func testBadArgumentsAreRejectedClearly() {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless"], timeout: 30)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("--headless needs at least one"), r.stderr)
        let r2 = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--video-sink", "nope-not-an-element", TestMedia.path("clip2s.mp4")], timeout: 30)
        XCTAssertNotEqual(r2.status, 0)
        XCTAssertTrue(r2.stderr.contains("could not be built"), r2.stderr)
    }
}

/// Issue 60: `reel --version` and `reel version` say Reel's version (the metainfo's newest
/// release), GStreamer's and GTK's, and exit 0 without a display or an input.
final class VersionTests: XCTestCase {
    func testVersionSaysReelGStreamerAndGTKAndExitsZero() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let metainfo = try String(contentsOf: root.appendingPathComponent("Resources/io.github.reel_player.Reel.metainfo.xml"), encoding: .utf8)
        let release = try XCTUnwrap(metainfo.range(of: #"<release version="[^"]+""#, options: .regularExpression).map { String(metainfo[$0].dropFirst(18).dropLast()) })
        for arguments in [["--version"], ["version"]] {
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, arguments, timeout: 30, environment: ["DISPLAY": ""])
            XCTAssertEqual(r.status, 0, "\(arguments): \(r.stderr)")
            let lines = r.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, "Reel \(release)", "\(arguments): the metainfo's newest release")
            XCTAssertTrue(lines.contains { $0.hasPrefix("GStreamer 1.") }, "\(lines)")
            XCTAssertTrue(lines.contains { $0.hasPrefix("GTK 3.") }, "\(lines)")
        }
    }
}
