import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// What a client, a playlist or another local user can send Reel (issue 12), against the real
/// binary: each test reproduces one reported defect and shows it gone.
final class HostileInputTests: XCTestCase {
    private func startReel(_ arguments: [String], environment: [String: String] = [:]) throws -> BackgroundProcess {
        try BackgroundProcess(ProcessRunner.reelExecutable,
                              ["--headless", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=true"] + arguments, environment: environment)
    }

    // MARK: Numbers (defect 3)

    func testHugeNumbersOverTheSocketAreRefusedOrClampedNotFatal() throws {
        // An item that never prerolls (the server never answers), so the seek lands before preroll.
        let stalled = try MisbehavingHTTPServer(.stall(seconds: 60))
        defer { stalled.stop() }
        let dir = TestMedia.temporaryDirectory("reel-numbers")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        let reel = try startReel(["--ipc", socket, stalled.url, TestMedia.path("clip2s.mp4")])
        defer { reel.finish(timeout: 5, dumpStacks: false) }
        let client = try XCTUnwrap(IPCTestClient(path: socket), "the socket appears: \(reel.stderr)")

        // A load and a seek far past any duration in one write: the seek reaches the new item
        // before it prerolls, and is applied when it does.
        client.sendRaw("{\"request_id\": 100, \"command\": [\"load\", \"\(TestMedia.path("clip2s.mp4"))\"]}\n{\"request_id\": 1, \"command\": [\"seek\", 1e12, \"absolute\"]}\n")
        XCTAssertEqual(client.reply(to: 100)?["error"] as? String, "success")
        XCTAssertEqual(client.reply(to: 1)?["error"] as? String, "success", "clamped, not fatal")
        XCTAssertNotNil(client.waitForEvent { $0["event"] as? String == "seeked" || $0["event"] as? String == "end" }, reel.stderr)
        let pos = try XCTUnwrap(client.request(["set_property", "playlist-pos", 1e300], id: 2))
        XCTAssertEqual(pos["error"] as? String, "invalid-argument", "\(pos)")
        XCTAssertEqual(client.request(["jump", 1e19], id: 3)?["error"] as? String, "invalid-argument")
        XCTAssertEqual(client.request(["quit", 1e10], id: 5)?["error"] as? String, "invalid-argument")
        // Still alive, still answering.
        XCTAssertEqual(client.request(["get_property", "playlist-count"], id: 6)?["data"] as? Int, 1)
        XCTAssertTrue(reel.process.isRunning, "reel is still running: \(reel.stderr)")
    }

    func testInspectOfAByteRangeAtIntMaxDoesNotTrap() throws {
        let dir = TestMedia.temporaryDirectory("reel-byterange")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("huge.m3u8")
        try """
        #EXTM3U
        #EXT-X-VERSION:4
        #EXT-X-TARGETDURATION:2
        #EXTINF:2,
        #EXT-X-BYTERANGE:9223372036854775807@9223372036854775807
        a.ts
        #EXTINF:2,
        #EXT-X-BYTERANGE:9223372036854775807
        a.ts
        #EXT-X-ENDLIST
        """.write(to: file, atomically: true, encoding: .utf8)
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", file.path], timeout: 30)
        XCTAssertFalse(r.timedOut)
        XCTAssertTrue(r.status == 0 || r.status == 1, "an answer, not a trap (status \(r.status)): \(r.stderr)")
        XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)), r.stdout + r.stderr)
    }

    // MARK: Issue 28: one input kills the process (items 1, 2, 4)

    /// A local HLS stream (played through the gateway's editor) whose numbers are extreme: a
    /// media and discontinuity sequence at Int.max (item 1) and a 0.5 MB EXT-X-DEFINE bomb
    /// (item 2). `reel inspect` answers and playing it ends in an answer, never a trap (132) or
    /// gigabytes of memory.
    func testExtremeSequencesAndADefineBombNeitherTrapNorExhaust() throws {
        let dir = TestMedia.temporaryDirectory("reel-extreme")
        defer { try? FileManager.default.removeItem(at: dir) }
        let segment = TestMedia.url("hls/vod/lo/segment00000.ts")
        try FileManager.default.copyItem(at: segment, to: dir.appendingPathComponent("a.ts"))
        let sequence = dir.appendingPathComponent("sequence.m3u8")
        try "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:9223372036854775807\n#EXT-X-DISCONTINUITY-SEQUENCE:9223372036854775807\n#EXTINF:2,\na.ts\n#EXT-X-ENDLIST\n"
            .write(to: sequence, atomically: true, encoding: .utf8)
        var bomb = ["#EXTM3U", "#EXT-X-VERSION:8", "#EXT-X-TARGETDURATION:2", "#EXT-X-DEFINE:NAME=\"x\",VALUE=\"\(String(repeating: "x", count: 100_000))\""]
        for _ in 0..<100 { bomb += ["#EXTINF:2,", String(repeating: "{$x}", count: 1_000)] }
        let define = dir.appendingPathComponent("define.m3u8")
        try (bomb.joined(separator: "\n") + "\n#EXT-X-ENDLIST\n").write(to: define, atomically: true, encoding: .utf8)
        for file in [sequence, define] {
            let inspect = ProcessRunner.run("/usr/bin/time", ["-v", ProcessRunner.reelExecutable, "inspect", "--json", file.path], timeout: 60)
            XCTAssertFalse(inspect.timedOut, file.lastPathComponent)
            XCTAssertTrue(inspect.status == 0 || inspect.status == 1, "\(file.lastPathComponent): an answer, not a trap (status \(inspect.status)): \(inspect.stderr.suffix(800))")
            let peak = try XCTUnwrap(inspect.stderr.components(separatedBy: "Maximum resident set size (kbytes): ").last.flatMap { Int($0.prefix { $0.isNumber }) })
            XCTAssertLessThan(peak, 300 << 10, "\(file.lastPathComponent): peak RSS in KiB (the bomb reached 2.8 GB)")
            let play = ProcessRunner.run("/usr/bin/time", ["-v", ProcessRunner.reelExecutable, "--headless", "--events", "--audio-sink", "fakesink",
                                                          "--video-sink", "fakesink", file.path], timeout: 60)
            XCTAssertFalse(play.timedOut, file.lastPathComponent)
            XCTAssertTrue(play.status == 0 || play.status == 1, "\(file.lastPathComponent): played or failed, never died (status \(play.status)): \(play.stderr.suffix(800))")
            XCTAssertEqual(play.jsonObjects.filter { ["end", "error"].contains($0["event"] as? String) }.count, 1,
                           "\(file.lastPathComponent): it ends or fails with an error: \(play.stdout.suffix(800))")
            XCTAssertEqual(play.jsonObjects.filter { $0["event"] as? String == "finished" }.count, 1)
        }
    }

    /// Item 4: one `#EXTINF:10000000000000` in a live playlist, with MPRIS on: the segment is
    /// refused where the playlist is parsed; MPRIS's length and position stay numbers; Reel lives.
    func testAnAbsurdLiveSegmentDurationNeverReachesMPRIS() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: run under dbus-run-session (make test does)")
        }
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        let seg = TestMedia.url("hls/live/segment00000.ts")
        server.serve("/live/a.ts", .file(seg, contentType: "video/mp2t"))
        server.serve("/live/b.ts", .file(TestMedia.url("hls/live/segment00001.ts"), contentType: "video/mp2t"))
        let text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:10000000000000,\nb.ts\n"
            + "#EXTINF:2,\na.ts\n#EXTINF:2,\nb.ts\n#EXTINF:2,\na.ts\n#EXTINF:2,\nb.ts\n"
        server.serve("/live/index.m3u8", .data(Data(text.utf8), contentType: "application/vnd.apple.mpegurl"))
        let reel = try startReel(["--mpris", server.url("/live/index.m3u8").absoluteString])
        defer { reel.process.terminate(); reel.finish(timeout: 10, dumpStacks: false) }
        let name = "org.mpris.MediaPlayer2.reel.instance\(reel.process.processIdentifier)"
        let deadline = Date().addingTimeInterval(15)
        var answered = ""
        while Date() < deadline && reel.process.isRunning {
            let r = ProcessRunner.run("/usr/bin/gdbus", ["call", "--session", "--dest", name, "--object-path", "/org/mpris/MediaPlayer2",
                                                         "--method", "org.freedesktop.DBus.Properties.GetAll", "org.mpris.MediaPlayer2.Player"], timeout: 5)
            if r.status == 0, r.stdout.contains("'Position'"), server.requests.contains(where: { $0.path.hasSuffix(".ts") }) { answered = r.stdout; break }
            usleep(200_000)
        }
        XCTAssertTrue(answered.contains("'Position': <int64"), "MPRIS answers with numbers: \(answered) \(reel.stderr.suffix(600))")
        usleep(1_000_000)
        XCTAssertTrue(reel.process.isRunning, "Reel lives: \(reel.stderr.suffix(800))")
    }

    // MARK: Remote playlists (defect 4)

    func testASilentPlaylistServerHoldsUpNeitherTheSocketNorPlayback() throws {
        let silent = try MisbehavingHTTPServer(.stall(seconds: 30))
        defer { silent.stop() }
        let dir = TestMedia.temporaryDirectory("reel-silent")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        let reel = try startReel(["--ipc", socket, "--loop=all", TestMedia.path("clip2s.mp4")])
        defer { reel.finish(timeout: 5, dumpStacks: false) }
        let client = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        let list = "http://127.0.0.1:\(silent.port)/never.m3u"
        XCTAssertEqual(client.request(["append", list], id: 1, timeout: 3)?["error"] as? String, "success", "answered at once")
        // While the server says nothing, every other request is answered and playback goes on.
        for id in 2..<6 {
            XCTAssertEqual(client.request(["get_property", "playlist-count"], id: id, timeout: 3)?["data"] as? Int, 1, "request \(id)")
        }
        XCTAssertNotNil(client.waitForEvent(timeout: 5) { $0["event"] as? String == "tick" }, "time advances meanwhile")
        XCTAssertEqual(silent.requests.count, 1, "the playlist was asked for")
    }

    /// Issue 28, item 7: the 10 s deadline covers the whole transfer, not only the head. A
    /// playlist whose body stops after its first bytes (for 40 s) used to hold start-up as long;
    /// now it fails as timed out and the next item plays.
    func testASlowPlaylistBodyIsAbandonedAtTheDeadline() throws {
        let body = Data("#EXTM3U\n#EXTINF:2,clip\n\(TestMedia.path("clip2s.mp4"))\n".utf8)
        let slow = try MisbehavingHTTPServer(.pauseMidway(body: body, contentType: "audio/x-mpegurl", firstBytes: 8, pause: 40))
        defer { slow.stop() }
        let started = Date()
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--audio-sink", "fakesink", "--video-sink", "fakesink",
                                                                "http://127.0.0.1:\(slow.port)/slow.m3u", TestMedia.path("clip2s.mp4")], timeout: 60)
        XCTAssertFalse(r.timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(started), 35, "abandoned at the deadline, not when the server went on (40 s)")
        let error = r.jsonObjects.first { $0["event"] as? String == "error" }?["error"] as? [String: Any]
        XCTAssertEqual(error?["code"] as? String, "timeout", "a clear, specific error: \(r.stderr)")
        XCTAssertEqual(r.jsonObjects.filter { $0["event"] as? String == "end" }.count, 1, "the next item plays")
    }

    func testAnEndlessRemotePlaylistIsCutAtTheCapNotReadWhole() throws {
        let endless = try MisbehavingHTTPServer(.endless(line: "#EXTINF:1,x\nhttp://127.0.0.1:9/x.mp4\n", contentType: "audio/x-mpegurl",
                                                         maximumBytes: 600 << 20))
        defer { endless.stop() }
        // Through /usr/bin/time -v, for reel's peak RSS.
        let r = ProcessRunner.run("/usr/bin/time", ["-v", ProcessRunner.reelExecutable, "--headless", "--events", "--audio-sink", "fakesink",
                                                   "--video-sink", "fakesink", "http://127.0.0.1:\(endless.port)/huge.m3u", TestMedia.path("clip2s.mp4")],
                                  timeout: 60)
        XCTAssertFalse(r.timedOut)
        XCTAssertEqual(r.status, 1, "a playlist that could not be read fails the run: \(r.stderr)")
        let error = try XCTUnwrap(r.jsonObjects.first { $0["event"] as? String == "error" }?["error"] as? [String: Any], r.stdout)
        XCTAssertEqual(error["code"] as? String, "invalid-playlist")
        XCTAssertTrue((error["message"] as? String)?.contains("larger than 16 MiB") == true, "\(error)")
        XCTAssertEqual(r.jsonObjects.filter { $0["event"] as? String == "end" }.count, 1, "the queue goes on")
        XCTAssertLessThan(endless.sentBytes, 64 << 20, "reading stopped near the cap, not at 600 MB")
        let peak = try XCTUnwrap(r.stderr.components(separatedBy: "Maximum resident set size (kbytes): ").last.flatMap { Int($0.prefix { $0.isNumber }) }, r.stderr)
        XCTAssertLessThan(peak, 400 << 10, "peak RSS in KiB (it was 870 MB for a 600 MB playlist)")
    }

    // MARK: Smaller (defect 7)

    func testASymlinkedPlaylistIsReadAsThePlaylistItNames() throws {
        let dir = TestMedia.temporaryDirectory("reel-symlink-list")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("list.m3u")
        try "#EXTM3U\n\(TestMedia.path("clip2s.mp4"))\n".write(to: list, atomically: true, encoding: .utf8)
        let link = dir.appendingPathComponent("link.m3u")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: list)
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--audio-sink", "fakesink sync=false",
                                                                "--video-sink", "fakesink sync=false", link.path], timeout: 60)
        XCTAssertEqual(r.status, 0, "it was refused as not a regular file: \(r.stderr)")
        XCTAssertEqual(r.jsonObjects.filter { $0["event"] as? String == "end" }.count, 1, r.stdout)
    }

    // MARK: Files (defect 6)

    func testSocketFallbackDirectoryOfAnotherUserIsRefused() throws {
        let root = TestMedia.temporaryDirectory("reel-tmproot")
        defer { try? FileManager.default.removeItem(at: root) }
        let taken = root.appendingPathComponent("reel-\(getuid())").path
        XCTAssertEqual(mkdir(taken, 0o777), 0)
        chmod(taken, 0o777)
        XCTAssertEqual(chown(taken, 65534, 65534), 0, "the tests run as root, so they can hand the directory to nobody")
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--audio-sink", "fakesink", "--video-sink", "fakesink",
                                                                "--ipc", "auto", TestMedia.path("clip2s.mp4")],
                                  timeout: 30, environment: ["XDG_RUNTIME_DIR": "", "TMPDIR": root.path])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("belongs to another user"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: taken), [], "no socket was made in it")

        // The user's own private directory is used (and made when missing).
        try FileManager.default.removeItem(atPath: taken)
        let reel = try startReel(["--ipc", "auto", "--loop=all", TestMedia.path("clip2s.mp4")], environment: ["XDG_RUNTIME_DIR": "", "TMPDIR": root.path])
        defer { reel.finish(timeout: 5, dumpStacks: false) }
        let socket = taken + "/reel-\(reel.process.processIdentifier).sock"
        let client = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        XCTAssertEqual(client.request(["get_property", "playlist-count"], id: 1)?["data"] as? Int, 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: taken)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)
    }

    func testHTTPLogNeverFollowsASymlinkOrChangesWhatItPointsAt() throws {
        let dir = TestMedia.temporaryDirectory("reel-httplog")
        defer { try? FileManager.default.removeItem(at: dir) }
        let victim = dir.appendingPathComponent("victim.txt").path
        try "shared notes\n".write(toFile: victim, atomically: true, encoding: .utf8)
        chmod(victim, 0o644)
        let link = dir.appendingPathComponent("http.log").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        // Issue 28, item 10: it used to play the item directly (exit 0) when the gateway could not
        // open the log: the header not sent, and an entry's header free to follow a redirect.
        // Now an option that cannot be honoured is a command line error, and nothing is fetched.
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.url("hls/vod"), at: "/v")
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--audio-sink", "fakesink", "--video-sink", "fakesink",
                                                                "--http-log", link, "--header", "X-Key: k", server.url("/v/master.m3u8").absoluteString],
                                  timeout: 30)
        XCTAssertEqual(r.status, 2, "exit 2: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("--http-log") && r.stderr.contains("symbolic link"), r.stderr)
        XCTAssertEqual(server.requests.count, 0, "nothing fetched without the gateway")
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: victim)[.posixPermissions] as? NSNumber)
        XCTAssertEqual(mode.intValue, 0o644, "the link's target keeps its mode")
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "shared notes\n")
    }

    func testSavedPlaylistWithSignedURLsIsOwnerOnlyAndReplacesASymlink() throws {
        let dir = TestMedia.temporaryDirectory("reel-save")
        defer { try? FileManager.default.removeItem(at: dir) }
        let victim = dir.appendingPathComponent("victim.txt").path
        try "keep me\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("queue.m3u8").path
        try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: victim)
        let signed = "https://cdn.example.invalid/v/clip.mp4?Expires=1900000000&Signature=abcDEF123&Key-Pair-Id=K2"
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--audio-sink", "fakesink", "--video-sink", "fakesink",
                                                                "--save-playlist", out, TestMedia.path("clip2s.mp4"), signed], timeout: 60)
        XCTAssertFalse(r.timedOut)
        var st = stat()
        XCTAssertEqual(lstat(out, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFREG, "the symlink itself was replaced")
        XCTAssertEqual(st.st_mode & 0o777, 0o600, "signed URLs make the file owner-only")
        XCTAssertTrue(try String(contentsOfFile: out, encoding: .utf8).contains("Signature=abcDEF123"))
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "keep me\n")
    }
}
