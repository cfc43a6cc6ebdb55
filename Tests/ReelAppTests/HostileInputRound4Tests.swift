import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// Issue 46 (round 4): one attribute of a DASH MPD, one WebVTT file or one socket number must never
/// kill or freeze Reel. Each test runs the real binary on the input from outside (a server on
/// 127.0.0.1, a file beside a video, the socket) and failed before its fix.
final class HostileInputRound4Tests: XCTestCase {
    private func events(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    private static func mpd(dynamic: Bool, template: String, extra: String = "") -> String {
        """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" \
        type="\(dynamic ? "dynamic" : "static")" \(dynamic ? "availabilityStartTime=\"2026-01-01T00:00:00Z\" minimumUpdatePeriod=\"PT2S\"" : "mediaPresentationDuration=\"PT10S\"") \(extra) minBufferTime="PT2S">
          <Period id="0" start="PT0S">
            <AdaptationSet contentType="video" mimeType="video/mp4">
              <Representation id="v" bandwidth="500000" width="640" height="360" codecs="avc1.64001e">
                \(template)
              </Representation>
            </AdaptationSet>
          </Period>
        </MPD>
        """
    }

    /// What crashed (exit 132/134) or looped for ever in the gateway, live or static.
    static let craftedMPDs: [(name: String, text: String)] = [
        ("startNumber Int.max with a timeline", mpd(dynamic: true, template: #"<SegmentTemplate timescale="1" startNumber="9223372036854775807" media="$Number$.m4s" initialization="init.mp4"><SegmentTimeline><S t="0" d="2" r="-1"/></SegmentTimeline></SegmentTemplate>"#)),
        ("duration 1e-300", mpd(dynamic: true, template: #"<SegmentTemplate timescale="1" duration="1e-300" media="$Number$.m4s" initialization="init.mp4"/>"#)),
        ("negative time-shift depth", mpd(dynamic: true, template: #"<SegmentTemplate timescale="1" duration="2" media="$Number$.m4s" initialization="init.mp4"/>"#, extra: #"timeShiftBufferDepth="-PT100S""#)),
        ("startNumber Int.min with $Time$", mpd(dynamic: true, template: #"<SegmentTemplate timescale="1" startNumber="-9223372036854775808" media="$Time$.m4s" initialization="init.mp4"><SegmentTimeline><S t="10" d="2" r="5"/></SegmentTimeline></SegmentTemplate>"#)),
        ("a terabyte of padding", mpd(dynamic: false, template: #"<SegmentTemplate timescale="1" duration="2" media="$Bandwidth%0999999999999d$-$Number$.m4s" initialization="init.mp4"/>"#)),
        ("S@d 1e-300 repeated to the end", mpd(dynamic: true, template: #"<SegmentTemplate timescale="1" media="$Time$.m4s" initialization="init.mp4"><SegmentTimeline><S t="0" d="1e-300" r="-1"/></SegmentTimeline></SegmentTemplate>"#)),
        ("one tick since 1970", mpd(dynamic: true, template: #"<SegmentTemplate timescale="1" media="$Time$.m4s" initialization="init.mp4"><SegmentTimeline><S t="0" d="1" r="-1"/></SegmentTimeline></SegmentTemplate>"#)
            .replacingOccurrences(of: "2026-01-01T00:00:00Z", with: "1970-01-01T00:00:00Z")),
        ("t 1e300 in a static timeline", mpd(dynamic: false, template: #"<SegmentTemplate timescale="1" media="$Time$.m4s" initialization="init.mp4"><SegmentTimeline><S t="0" d="2" r="1"/><S t="1e300" d="1"/></SegmentTimeline></SegmentTemplate>"#)),
        ("r Int.max", mpd(dynamic: false, template: #"<SegmentTemplate timescale="1" media="$Number$.m4s" initialization="init.mp4"><SegmentTimeline><S d="2" r="9223372036854775807"/></SegmentTimeline></SegmentTemplate>"#)),
        ("timescale 1e300", mpd(dynamic: false, template: #"<SegmentTemplate timescale="1e300" media="$Number$.m4s" initialization="init.mp4"><SegmentTimeline><S d="2" r="3"/></SegmentTimeline></SegmentTemplate>"#)),
        ("a presentation of 10^20 years", mpd(dynamic: false, template: #"<SegmentTemplate timescale="1" duration="2" media="$Number$.m4s" initialization="init.mp4"/>"#)
            .replacingOccurrences(of: "PT10S", with: "P99999999999999999999Y")),
        ("r 2^31", mpd(dynamic: false, template: #"<SegmentTemplate timescale="1" media="$Number$.m4s" initialization="init.mp4"><SegmentTimeline><S d="2" r="2147483648"/></SegmentTimeline></SegmentTemplate>"#)),
    ]

    /// Each crafted MPD, served over HTTP ahead of a good clip in one queue: the MPD fails as
    /// `invalid-playlist`, the clip after it plays to its end, and the process exits by itself
    /// (not 132/134, not a hang).
    func testEveryCraftedMPDFailsAsInvalidAndTheQueueGoesOn() throws {
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/clip.mp4", .file(TestMedia.url("clip2s.mp4"), contentType: "video/mp4"))
        // "One tick since 1970" is within bounds (a day of 1 s segments): it plays as a live
        // stream whose segments are missing (ReelCoreTests.DASHNumberTests bounds its window).
        for (n, crafted) in Self.craftedMPDs.enumerated() where !crafted.name.hasPrefix("one tick") {
            server.serve("/bad\(n).mpd", .data(Data(crafted.text.utf8), contentType: "application/dash+xml"))
            let run = ProcessRunner.run(ProcessRunner.reelExecutable,
                                        ["--headless", "--events", "--exit-at-end", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=false",
                                         server.url("/bad\(n).mpd").absoluteString, server.url("/clip.mp4").absoluteString], timeout: 90)
            XCTAssertFalse(run.timedOut, "\(crafted.name): reel hung: \(run.stderr.suffix(800))")
            XCTAssertEqual(run.status, 1, "\(crafted.name): an error, not a crash: \(run.stderr.suffix(800))")
            let all = events(run.stdout)
            let error = all.first { $0["event"] as? String == "error" && $0["item"] as? Int == 0 }?["error"] as? [String: Any]
            XCTAssertEqual(error?["code"] as? String, "invalid-playlist", "\(crafted.name): \(run.stdout.suffix(1500))")
            XCTAssertTrue(all.contains { $0["event"] as? String == "end" && $0["item"] as? Int == 1 }, "\(crafted.name): the clip after it played: \(run.stdout.suffix(800))")
        }
    }

    /// `reel inspect` and `reel check` on the same MPDs as local files: an answer for each, and
    /// the check's report keeps the good item checked beside it.
    func testInspectAndCheckAnswerOnEveryCraftedMPD() throws {
        let dir = TestMedia.temporaryDirectory("reel-mpd-numbers")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (n, crafted) in Self.craftedMPDs.enumerated() {
            let file = dir.appendingPathComponent("bad\(n).mpd")
            try crafted.text.write(to: file, atomically: true, encoding: .utf8)
            let inspect = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", file.path], timeout: 30)
            XCTAssertFalse(inspect.timedOut, crafted.name)
            XCTAssertTrue(inspect.status == 0 || inspect.status == 1, "\(crafted.name): an answer, not a trap (\(inspect.status)): \(inspect.stderr.suffix(600))")
            let json = try? JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any]
            XCTAssertNotNil(json, "\(crafted.name): \(inspect.stdout.prefix(400))")
            XCTAssertFalse(inspect.stdout.contains("-2147483647"), "\(crafted.name): no wrapped count")
        }
        let report = dir.appendingPathComponent("report")
        let check = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--report", report.path, TestMedia.path("clip2s.mp4")]
                                      + Self.craftedMPDs.indices.map { dir.appendingPathComponent("bad\($0).mpd").path }, timeout: 300)
        XCTAssertFalse(check.timedOut)
        XCTAssertEqual(check.status, 1, check.stderr.suffix(800).description)
        let json = try XCTUnwrap(try? JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("report.json"))) as? [String: Any],
                                 "the report is written: \(check.stderr.suffix(800))")
        let items = try XCTUnwrap(json["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, Self.craftedMPDs.count + 1, "every item is in the report")
        XCTAssertEqual(items.first?["ok"] as? Bool, true, "the good clip's result is kept: \(items.first ?? [:])")
    }

    /// 10,000 nested `<b>` in one cue (and 100,000 `<c.a>`, 50,000 `<ruby><rt>`): beside a video
    /// (loaded by itself), by `--sub-file`, and by `reel inspect`. SIGSEGV in 0.1 s before.
    func testDeeplyNestedWebVTTNeitherCrashesNorHangs() throws {
        let dir = TestMedia.temporaryDirectory("reel-deep-vtt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bodies = [String(repeating: "<b>", count: 10_000) + "x",
                      String(repeating: "<c.a>", count: 100_000) + "x",
                      String(repeating: "<ruby><rt>", count: 50_000) + "x"]
        for (n, body) in bodies.enumerated() {
            let movie = dir.appendingPathComponent("movie\(n).mp4")
            try FileManager.default.copyItem(at: TestMedia.url("clip2s.mp4"), to: movie)
            let vtt = dir.appendingPathComponent("movie\(n).vtt")
            try "WEBVTT\n\n00:00:00.000 --> 00:00:01.500\n\(body)\n".write(to: vtt, atomically: true, encoding: .utf8)
            let beside = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--exit-at-end", "--audio-sink", "fakesink",
                                                                          "--video-sink", "fakesink sync=false", movie.path], timeout: 60)
            XCTAssertEqual(beside.status, 0, "case \(n), beside the video: \(beside.stderr.suffix(600))")
            XCTAssertTrue(beside.stdout.contains(#""event":"end""#), "case \(n): it played to its end")
            let subFile = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--exit-at-end", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=false",
                                                                           "--sub-file", vtt.path, TestMedia.path("clip2s.mp4")], timeout: 60)
            XCTAssertEqual(subFile.status, 0, "case \(n), --sub-file: \(subFile.stderr.suffix(600))")
            let inspect = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", vtt.path], timeout: 30)
            XCTAssertTrue(inspect.status == 0 || inspect.status == 1, "case \(n), inspect: \(inspect.status) \(inspect.stderr.suffix(600))")
        }
    }

    /// A headless reel looping a clip with its socket in `dir`, and a client on that socket.
    static func socketSession(in dir: URL, environment: [String: String] = [:]) throws -> (BackgroundProcess, IPCTestClient) {
        let socket = dir.appendingPathComponent("reel.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=true",
                                                                        "--ipc", socket, "--loop=all", TestMedia.path("clip2s.mp4")],
                                         environment: environment)
        guard let client = IPCTestClient(path: socket) else {
            reel.finish(timeout: 5, dumpStacks: false)
            throw NSError(domain: "HostileInput", code: 1, userInfo: [NSLocalizedDescriptionKey: "the socket did not appear: \(reel.stderr)"])
        }
        return (reel, client)
    }

    /// `set_property sub-pos 1e300` (and −1e300, Int.max) crashed Reel (exit 132); `volume 1e308`
    /// was taken by set_property while the `volume` command refused it.
    func testHugeNumbersForEveryPropertyAreRefusedAndReelLives() throws {
        let dir = TestMedia.temporaryDirectory("reel-sock-numbers")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (reel, client) = try HostileInputRound4Tests.socketSession(in: dir)
        defer { reel.finish(timeout: 5, dumpStacks: false) }
        var id = 0
        for value in [1e300, -1e300, 9223372036854775807.0, 1e308, -1e308] {
            for property in ["sub-pos", "volume", "playlist-pos", "audio-track", "subtitle-track", "speed", "sub-delay"] {
                id += 1
                let reply = client.request(["set_property", property, value], id: id)
                XCTAssertNotNil(reply, "\(property) \(value): an answer (\(reel.stderr.suffix(400)))")
                XCTAssertNotEqual(reply?["error"] as? String, "success", "\(property) \(value) is refused")
            }
            id += 1
            XCTAssertEqual(client.request(["volume", value], id: id)?["error"] as? String, "invalid-argument", "volume \(value)")
        }
        id += 1
        XCTAssertEqual(client.request(["set_property", "sub-pos", 80], id: id)?["error"] as? String, "success", "a good value still works")
        id += 1
        XCTAssertEqual(client.request(["set_property", "volume", 130], id: id)?["error"] as? String, "success")
        XCTAssertTrue(reel.process.isRunning, "reel lives: \(reel.stderr.suffix(400))")
    }

    /// `--sub-file /dev/zero` or a FIFO: said for what it is (it was "too large"; a FIFO could
    /// block the read), and the video plays (item 15).
    func testASubtitleFileThatIsADeviceOrAPipeIsNamedSoAndTheVideoPlays() throws {
        let dir = TestMedia.temporaryDirectory("reel-sub-special")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("subs.srt").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for path in ["/dev/zero", fifo] {
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--exit-at-end", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=false",
                                                                     "--sub-file", path, TestMedia.path("clip2s.mp4")], timeout: 30)
            XCTAssertFalse(r.timedOut, "\(path): \(r.stderr.suffix(400))")
            XCTAssertTrue(r.stderr.contains("not a regular file"), "\(path): \(r.stderr.suffix(400))")
            XCTAssertFalse(r.stderr.contains("too large"), "\(path): \(r.stderr.suffix(400))")
        }
    }

    /// A remote `.m3u` that trickles (30 bytes a second: never silent long enough for a read
    /// timeout, never whole within the 10 s deadline) fails as `timeout` and the queue goes on;
    /// it was handed to GStreamer as media and "played" as a live stream for ever (item 14).
    func testATricklingRemotePlaylistFailsAsTimeout() throws {
        let dir = TestMedia.temporaryDirectory("reel-trickle")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("list.m3u")
        try ("#EXTM3U\n" + String(repeating: "#EXTINF:2,clip\n\(TestMedia.path("clip2s.mp4"))\n", count: 10)).write(to: list, atomically: true, encoding: .utf8)
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/list.m3u", .paced(list, contentType: "audio/x-mpegurl", bytesPerSecond: 30))
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=false",
                                                                 server.url("/list.m3u").absoluteString, TestMedia.path("clip2s.mp4")], timeout: 60)
        XCTAssertFalse(r.timedOut, "reel ended: \(r.stderr.suffix(400))")
        XCTAssertEqual(r.status, 1, r.stderr.suffix(400).description)
        let errors = events(r.stdout).filter { $0["event"] as? String == "error" }.compactMap { $0["error"] as? [String: Any] }
        XCTAssertEqual(errors.first?["code"] as? String, "timeout", "\(errors)")
        XCTAssertTrue((errors.first?["message"] as? String ?? "").contains("within 10 s"), "\(errors)")
        XCTAssertEqual(events(r.stdout).filter { $0["event"] as? String == "end" }.count, 1, "the clip after it played")
    }

    /// `--golden DIR` is someone else's folder: a frame path out of `frames/`, a FIFO and a PNG
    /// claiming 20,000² pixels are each not used (said as `golden-unreadable`), the run neither
    /// hangs nor copies the outside file into its report (item 11).
    func testAGoldenFolderCannotReachOutsideHangOrExhaust() throws {
        let dir = TestMedia.temporaryDirectory("reel-golden-hostile")
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = dir.appendingPathComponent("golden")
        let make = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--frames-only", "--at", "0.5,1,1.5", "--golden", golden.path, "--update-golden",
                                                                    "--report", dir.appendingPathComponent("r0").path, TestMedia.path("clip2s.mp4")], timeout: 120)
        XCTAssertEqual(make.status, 0, make.stderr)
        let secret = dir.appendingPathComponent("outside.png")
        try FileManager.default.copyItem(at: golden.appendingPathComponent("frames").appendingPathComponent(
            try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: golden.appendingPathComponent("frames").path).first)), to: secret)
        XCTAssertEqual(mkfifo(golden.appendingPathComponent("frames/fifo.png").path, 0o600), 0)
        var huge = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        huge += Data([0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 2, 0, 0, 0])  // 20,000 x 20,000, RGB
        try huge.write(to: golden.appendingPathComponent("frames/huge.png"))
        // Point the reference's three frames at the three hostile files.
        let reportURL = golden.appendingPathComponent("report.json")
        var text = try String(contentsOf: reportURL, encoding: .utf8)
        let names = try FileManager.default.contentsOfDirectory(atPath: golden.appendingPathComponent("frames").path)
            .filter { $0.hasSuffix(".png") && $0 != "fifo.png" && $0 != "huge.png" }.sorted()
        XCTAssertEqual(names.count, 3, "\(names)")
        for (name, hostile) in zip(names, ["../../outside.png", "fifo.png", "huge.png"]) {
            text = text.replacingOccurrences(of: "frames\\/\(name)", with: "frames\\/\(hostile)").replacingOccurrences(of: "frames/\(name)", with: "frames/\(hostile)")
        }
        try text.write(to: reportURL, atomically: true, encoding: .utf8)
        let report = dir.appendingPathComponent("r1")
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--frames-only", "--at", "0.5,1,1.5", "--golden", golden.path,
                                                                 "--report", report.path, TestMedia.path("clip2s.mp4")], timeout: 60)
        XCTAssertFalse(r.timedOut, "no hang on the FIFO: \(r.stderr.suffix(400))")
        let json = try String(contentsOf: report.appendingPathComponent("report.json"), encoding: .utf8)
        XCTAssertEqual(json.components(separatedBy: "golden-unreadable").count - 1, 3, json)
        let copied = (try? FileManager.default.contentsOfDirectory(atPath: report.appendingPathComponent("golden").path)) ?? []
        XCTAssertFalse(copied.contains("outside.png"), "the outside file stays outside: \(copied)")
    }

    /// A URL with a credential under a name nobody listed (`pw=`, `api-key=`, `client-secret=`,
    /// `pin=`): a saved playlist holding it is owner-only, and the resume book never holds it
    /// (item 13: 0644 and the value in the resume key before).
    func testQueryCredentialsUnderAnyNameStayPrivate() throws {
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/a.mp4", .file(TestMedia.url("clip2s.mp4"), contentType: "video/mp4"))
        let dir = TestMedia.temporaryDirectory("reel-query-secrets")
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state")
        for secret in ["pw=hunter2", "api-key=k3y-v4lue", "client-secret=cl13nt", "pin=4821"] {
            let saved = dir.appendingPathComponent("saved-\(secret.prefix(3)).m3u8")
            let url = server.url("/a.mp4").absoluteString + "?\(secret)&episode=3"
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--exit-at-end", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=false",
                                                                     "--start-time", "1.5", "--save-playlist", saved.path, url],
                                      timeout: 30, environment: ["XDG_STATE_HOME": state.path, "XDG_DATA_HOME": state.path + "/data"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: saved.path)[.posixPermissions] as? NSNumber)
            XCTAssertEqual(mode.intValue & 0o777, 0o600, "\(secret): the saved playlist is owner-only")
            let value = String(secret.split(separator: "=")[1])
            let files = FileManager.default.enumerator(atPath: state.path)?.compactMap { $0 as? String } ?? []
            for file in files {
                let text = (try? String(contentsOfFile: state.appendingPathComponent(file).path, encoding: .utf8)) ?? ""
                XCTAssertFalse(text.contains(value), "\(secret) is not in \(file)")
            }
        }
    }

    /// A cue of 100,000 unbreakable characters: the video plays to its end (it failed as "The
    /// file is damaged" after 52–60 s while the overlay laid it out; item 10).
    func testAHugeUnbreakableCueDoesNotStopTheVideo() throws {
        let dir = TestMedia.temporaryDirectory("reel-long-cue")
        defer { try? FileManager.default.removeItem(at: dir) }
        let srt = dir.appendingPathComponent("long.srt")
        try "1\n00:00:00,000 --> 00:00:02,000\n\(String(repeating: "x", count: 100_000))\n".write(to: srt, atomically: true, encoding: .utf8)
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--exit-at-end", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=true",
                                                                 "--sub-file", srt.path, TestMedia.path("clip2s.mp4")], timeout: 90)
        XCTAssertFalse(r.timedOut)
        XCTAssertEqual(r.status, 0, r.stderr.suffix(400).description)
        XCTAssertEqual(events(r.stdout).filter { $0["event"] as? String == "end" }.count, 1, r.stdout.suffix(600).description)
    }
}
