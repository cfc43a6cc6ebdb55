import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// Issue 56 (round 5): a manifest is told by its bytes, not its name, everywhere Reel meets one.
/// Each test runs the real binary from outside on what crashed it (exit 134/136 in dashdemux2, or in
/// the legacy dashdemux through the discoverer that probes queue items).
final class HostileInputRound5Tests: XCTestCase {
    private func events(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    private func errorCode(_ all: [[String: Any]], item: Int) -> String? {
        (all.first { $0["event"] as? String == "error" && $0["item"] as? Int == item }?["error"] as? [String: Any])?["code"] as? String
    }

    private func played(_ all: [[String: Any]], item: Int) -> Bool {
        all.contains { $0["event"] as? String == "end" && $0["item"] as? Int == item }
    }

    /// The two MPDs that crashed under names without `.mpd`.
    static let hostile = HostileInputRound4Tests.craftedMPDs.filter { $0.name == "duration 1e-300" || $0.name == "S@d 1e-300 repeated to the end" }

    private func play(_ inputs: [String]) -> ProcessRunner.Result {
        ProcessRunner.run(ProcessRunner.reelExecutable,
                          ["--headless", "--events", "--exit-at-end", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=false"] + inputs, timeout: 90)
    }

    /// Served at `/manifest?format=mpd` as CDNs do, as `application/dash+xml` and as
    /// `application/octet-stream`, ahead of a good clip: the MPD goes through the gateway (which
    /// refuses it as `invalid-playlist`), the clip plays, and reel exits 1 by itself.
    func testAnMPDAtAURLWithoutItsExtensionIsBoundedByTheGateway() throws {
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/clip.mp4", .file(TestMedia.url("clip2s.mp4"), contentType: "video/mp4"))
        for (n, crafted) in Self.hostile.enumerated() {
            for type in ["application/dash+xml", "application/octet-stream"] {
                server.serve("/manifest\(n)", .data(Data(crafted.text.utf8), contentType: type))
                let run = play([server.url("/manifest\(n)").absoluteString + "?format=mpd", server.url("/clip.mp4").absoluteString])
                XCTAssertFalse(run.timedOut, "\(crafted.name), \(type): reel hung: \(run.stderr.suffix(800))")
                XCTAssertEqual(run.status, 1, "\(crafted.name), \(type): an error, not a crash: \(run.stderr.suffix(800))")
                let all = events(run.stdout)
                XCTAssertEqual(errorCode(all, item: 0), "invalid-playlist", "\(crafted.name), \(type): \(run.stdout.suffix(1500))")
                XCTAssertTrue(played(all, item: 1), "\(crafted.name), \(type): the clip after it played: \(run.stdout.suffix(800))")
            }
        }
    }

    /// A good MPD at a URL without `.mpd` still plays (through the gateway): routing by content
    /// takes nothing away.
    func testAGoodMPDAtAURLWithoutItsExtensionPlays() throws {
        let dash = TestMedia.url("dash/ffmpeg")
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(dash, at: "/dash")
        let mpd = try Data(contentsOf: dash.appendingPathComponent("manifest.mpd"))
        server.serve("/dash/manifest", .data(mpd, contentType: "application/dash+xml"))
        let run = play([server.url("/dash/manifest").absoluteString + "?format=mpd"])
        XCTAssertFalse(run.timedOut, run.stderr.suffix(800).description)
        XCTAssertEqual(run.status, 0, run.stderr.suffix(800).description + run.stdout.suffix(800))
        XCTAssertTrue(played(events(run.stdout), item: 0), run.stdout.suffix(800).description)
        XCTAssertTrue(server.requests.contains { $0.path.hasSuffix(".m4s") }, "its segments were fetched")
    }

    /// In a local file named `movie.mp4`, and as a local `.mpd` queued after a good clip (whose
    /// layout probe once gave it to the legacy dashdemux): play, check and inspect answer.
    func testAnMPDInALocalFileUnderAnyNameIsBounded() throws {
        let dir = TestMedia.temporaryDirectory("reel-mpd-content")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (n, crafted) in Self.hostile.enumerated() {
            let disguised = dir.appendingPathComponent("movie\(n).mp4"), named = dir.appendingPathComponent("bad\(n).mpd")
            try crafted.text.write(to: disguised, atomically: true, encoding: .utf8)
            try crafted.text.write(to: named, atomically: true, encoding: .utf8)
            for inputs in [[disguised.path, TestMedia.path("clip2s.mp4")], [TestMedia.path("clip2s.mp4"), named.path]] {
                let run = play(inputs)
                XCTAssertFalse(run.timedOut, "\(crafted.name) \(inputs): reel hung: \(run.stderr.suffix(800))")
                XCTAssertEqual(run.status, 1, "\(crafted.name) \(inputs): an error, not a crash: \(run.stderr.suffix(800))")
                let all = events(run.stdout)
                let bad = inputs[0] == disguised.path ? 0 : 1
                XCTAssertEqual(errorCode(all, item: bad), "invalid-playlist", "\(crafted.name) \(inputs): \(run.stdout.suffix(1500))")
                XCTAssertTrue(played(all, item: 1 - bad), "\(crafted.name) \(inputs): the clip played: \(run.stdout.suffix(800))")
            }
            let inspect = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", disguised.path], timeout: 30)
            XCTAssertFalse(inspect.timedOut, crafted.name)
            XCTAssertTrue(inspect.status == 0 || inspect.status == 1, "\(crafted.name): an answer, not a trap (\(inspect.status)): \(inspect.stderr.suffix(600))")
            let json = try? JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any]
            XCTAssertNotNil(json?["representations"] ?? json?["periods"] ?? json?["problems"], "\(crafted.name): described as an MPD: \(inspect.stdout.prefix(600))")
        }
        let report = dir.appendingPathComponent("report")
        let check = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--report", report.path, TestMedia.path("clip2s.mp4"),
                                                                     dir.appendingPathComponent("movie0.mp4").path, dir.appendingPathComponent("bad1.mpd").path], timeout: 120)
        XCTAssertFalse(check.timedOut)
        XCTAssertEqual(check.status, 1, check.stderr.suffix(800).description)
        let json = try XCTUnwrap(try? JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("report.json"))) as? [String: Any],
                                 "the report is written: \(check.stderr.suffix(800))")
        let items = try XCTUnwrap(json["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 3)
        XCTAssertEqual(items.first?["ok"] as? Bool, true, "the good clip's result is kept: \(items.first ?? [:])")
        XCTAssertEqual((items[1]["error"] as? [String: Any])?["code"] as? String, "invalid-playlist", "\(items[1])")
    }
}

/// Issue 56, item 6: the exit status of every run says what its `finished` event says, and what is
/// not media is a clear error within seconds.
final class RunEndsTruthfullyTests: XCTestCase {
    private func events(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// `reel --exit-at-end one.mp4` in a window, in a folder with other media: it plays that file
    /// alone (a scripted run plays what it was given) and exits 0; asked to autoload, it plays from
    /// that file to the folder's end and still exits 0 (the files before it were never asked for).
    /// It exited 1 after a clean play.
    func testAWindowedScriptedRunExitsZeroAfterACleanPlayAmongSiblings() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no display: run under xvfb-run (make test does)") }
        let dir = TestMedia.temporaryDirectory("reel-siblings")
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["a.mp4", "b.mp4", "c.mp4"] {
            try FileManager.default.copyItem(at: TestMedia.url("gapless-00.mp4"), to: dir.appendingPathComponent(name))
        }
        let b = dir.appendingPathComponent("b.mp4").path
        for (extra, plays) in [([String](), 1), (["--autoload=yes"], 2)] {
            let run = ProcessRunner.run(ProcessRunner.reelExecutable, ["--exit-at-end", "--no-mpris", "--events", "--audio-sink", "fakesink sync=true"] + extra + [b],
                                        timeout: 60)
            XCTAssertFalse(run.timedOut, "\(extra): the window closes by itself")
            XCTAssertEqual(run.status, 0, "\(extra): every item it played played cleanly: \(run.stderr.suffix(600))")
            let all = events(run.stdout)
            XCTAssertEqual(all.filter { $0["event"] as? String == "end" }.count, plays, "\(extra): \(run.stdout.suffix(800))")
            let finished = all.last { $0["event"] as? String == "finished" }
            XCTAssertEqual(finished?["played"] as? Int, plays, "\(extra)")
            XCTAssertEqual(finished?["failed"] as? Int, 0, "\(extra)")
            XCTAssertFalse(run.stderr.contains("playing headless"), "it had a window: \(run.stderr)")
        }
    }

    /// A web page (a video site's watch URL, a local .html file) ahead of a clip: GStreamer types
    /// HTML as SAMI subtitles and played it for ever (headless never exited). Now it fails within
    /// seconds as `unsupported-format` saying it is a web page, and the clip plays; `reel inspect`
    /// and `reel check` say the same.
    func testAWebPageIsAClearErrorWithinSeconds() throws {
        let page = Data("<!DOCTYPE html>\n<html><head><title>Watch</title></head><body><p>A video page</p></body></html>\n".utf8)
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/watch", .data(page, contentType: "text/html; charset=utf-8"))
        server.serve("/clip.mp4", .file(TestMedia.url("clip2s.mp4"), contentType: "video/mp4"))
        let dir = TestMedia.temporaryDirectory("reel-web-page")
        defer { try? FileManager.default.removeItem(at: dir) }
        let local = dir.appendingPathComponent("page.html")
        try page.write(to: local)
        for input in [server.url("/watch").absoluteString + "?v=abc", local.path] {
            let run = ProcessRunner.run(ProcessRunner.reelExecutable,
                                        ["--headless", "--events", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=false",
                                         input, server.url("/clip.mp4").absoluteString], timeout: 60)
            XCTAssertFalse(run.timedOut, "\(input): reel never ended: \(run.stdout.suffix(600))")
            XCTAssertEqual(run.status, 1, "\(input): \(run.stderr.suffix(600))")
            let all = events(run.stdout)
            let error = all.first { $0["event"] as? String == "error" && $0["item"] as? Int == 0 }?["error"] as? [String: Any]
            XCTAssertEqual(error?["code"] as? String, "unsupported-format", "\(input): \(run.stdout.suffix(1200))")
            XCTAssertTrue((error?["message"] as? String)?.contains("web page") == true, "\(input): \(error ?? [:])")
            XCTAssertTrue(all.contains { $0["event"] as? String == "end" && $0["item"] as? Int == 1 }, "\(input): the clip played")
            XCTAssertFalse(all.contains { ($0["tracks"] as? [[String: Any]])?.contains { $0["type"] as? String == "subtitle" } == true },
                           "\(input): no subtitle stream was made of it")

            let inspect = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", input], timeout: 30)
            XCTAssertEqual(inspect.status, 1, "\(input): \(inspect.stdout) \(inspect.stderr)")
            XCTAssertTrue(inspect.stderr.contains("web page"), "\(input): \(inspect.stderr)")
        }
        let report = dir.appendingPathComponent("report")
        let check = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--report", report.path, server.url("/watch").absoluteString + "?v=abc"], timeout: 60)
        XCTAssertFalse(check.timedOut)
        XCTAssertEqual(check.status, 1)
        let json = try? JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("report.json"))) as? [String: Any]
        let item = (json?["items"] as? [[String: Any]])?.first
        XCTAssertEqual((item?["error"] as? [String: Any])?["code"] as? String, "unsupported-format", "\(item ?? [:])")
    }
}

/// `add video-zoom` in a loop while playing crashed Reel in a streaming thread (CI, under load):
/// 1.22's videobox took a box set from the main thread under the frame it was transforming and
/// wrote outside it. The box is now taken between frames (`reel_video_box.c`). glibc's
/// MALLOC_PERTURB_ fills freed memory so that a use after free crashes at once.
final class ZoomStormTests: XCTestCase {
    func testZoomAndPanChangedAsFastAsTheSocketAllowsWhilePlayingLeaveReelAnswering() throws {
        let dir = TestMedia.temporaryDirectory("reel-zoom-storm")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (reel, client) = try HostileInputRound4Tests.socketSession(in: dir, environment: ["MALLOC_PERTURB_": "73"])
        defer { reel.finish(timeout: 5, dumpStacks: false) }
        var id = 0
        for round in 0..<300 {
            for command: [Any] in [["add", "video-zoom", round % 2 == 0 ? 1e19 : -1e19], ["set_property", "video-pan-x", round % 3 == 0 ? 1.0 : -1.0],
                                   ["multiply", "video-zoom", 0.5], ["add", "video-pan-y", 0.3]] {
                id += 1
                guard client.request(command, id: id) != nil else {
                    return XCTFail("\(command) in round \(round): no answer; reel \(reel.process.isRunning ? "froze" : "died"): \(reel.stderr.prefix(3000))")
                }
            }
        }
        id += 1
        XCTAssertEqual(client.request(["set_property", "video-zoom", 1], id: id)?["error"] as? String, "success")
        id += 1
        XCTAssertEqual(client.request(["get_property", "video-zoom"], id: id)?["data"] as? Double, 1)
        id += 1
        XCTAssertNotNil(client.request(["get_property", "time-pos"], id: id)?["data"] as? Double, "still playing: \(reel.stderr.suffix(600))")
        XCTAssertTrue(reel.process.isRunning)
    }
}

/// Issue 56, item 2: `add brightness 1e19` over the socket trapped reel (exit 132): every numeric
/// verb (`add`, `multiply`, `cycle`, `set_property`) over every writable property, at the extremes.
final class NumericVerbsTests: XCTestCase {
    func testEveryNumericVerbOverEveryPropertyLeavesReelAnswering() throws {
        let dir = TestMedia.temporaryDirectory("reel-sock-verbs")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (reel, client) = try HostileInputRound4Tests.socketSession(in: dir)
        defer { reel.finish(timeout: 5, dumpStacks: false) }
        var id = 0
        var answering = true
        // One unanswered request ends the test (a frozen reel would cost 15 s for every request left).
        func ask(_ command: [Any]) -> [String: Any]? {
            guard answering else { return nil }
            id += 1
            let reply = client.request(command, id: id)
            if reply == nil {
                answering = false
                // A frozen reel's threads go to the test log: where it waits is the finding.
                if reel.process.isRunning { StackDump.log(reel.process.processIdentifier, reason: "\(command) got no answer") }
                XCTFail("\(command): no answer; reel \(reel.process.isRunning ? "froze" : "died"): \(reel.stderr.prefix(6000))")
            }
            return reply
        }
        // Every property the session declares (mpv's `property-list`): read-only ones answer so.
        let listed = ask(["get_property", "property-list"])?["data"] as? [String] ?? []
        XCTAssertGreaterThan(listed.count, 50, "property-list")
        let properties = listed.sorted().filter { !["pause", "position", "time-pos", "playlist-pos", "index", "playlist-pos-1", "chapter"].contains($0) }
        let values: [Double] = [1e19, -1e19, 1e300, -1e300, Double(Int64.max), 1e308, -1e308, 0.5]
        for property in properties {
            for value in values {
                for verb in ["add", "multiply", "set_property", "add"] { _ = ask([verb, property, value]) }
            }
            _ = ask(["cycle", property])
            guard answering else { return }
        }
        for (property, top) in [("brightness", 100), ("hue", 100), ("contrast", 100), ("saturation", 100), ("gamma", 100)] {
            XCTAssertEqual(ask(["add", property, 1e19])?["error"] as? String, "success", property)
            XCTAssertEqual(ask(["get_property", property])?["data"] as? Int, top, "\(property) at its top")
            XCTAssertEqual(ask(["multiply", property, -1e300])?["error"] as? String, "success", property)
            XCTAssertEqual(ask(["get_property", property])?["data"] as? Int, -top, "\(property) at its bottom")
        }
        XCTAssertEqual(ask(["add", "video-rotate", 1e19])?["error"] as? String != nil, true)
        let rotate = ask(["get_property", "video-rotate"])?["data"] as? Int
        XCTAssertTrue([0, 90, 180, 270].contains(rotate ?? -1), "a right angle: \(rotate ?? -1)")
        XCTAssertEqual(ask(["set_property", "volume", 50])?["error"] as? String, "success")
        XCTAssertEqual(ask(["multiply", "volume", 0.5])?["error"] as? String, "success")
        XCTAssertEqual(ask(["get_property", "volume"])?["data"] as? Double, 25, "multiply is mpv's")
        XCTAssertTrue(reel.process.isRunning, "reel lives: \(reel.stderr.suffix(400))")
    }
}

/// Issue 56, item 3: a probe or a start that never ends. `reel check` hung for ever (its probe on
/// the main thread, not abandonable) and `reel` play stalled the queue on a 70-byte local live
/// playlist whose segments do not exist and on an MKV with 100,000 chapters (matroskademux reads
/// them for ~50 s, and the failed item's NULL state change on the main thread waited for it).
final class ProbesThatNeverEndTests: XCTestCase {
    private func events(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The two inputs, made in `dir`.
    static func inputs(in dir: URL) throws -> [URL] {
        let live = dir.appendingPathComponent("live.m3u8")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nseg1.ts\n#EXTINF:2,\nseg2.ts\n".write(to: live, atomically: true, encoding: .utf8)
        var chapters = ";FFMETADATA1\n"
        chapters.reserveCapacity(6_000_000)
        for i in 0..<100_000 { chapters += "[CHAPTER]\nTIMEBASE=1/1000000\nSTART=\(i * 100)\nEND=\(i * 100 + 99)\ntitle=C\(i)\n" }
        let meta = dir.appendingPathComponent("chapters.txt"), mkv = dir.appendingPathComponent("many-chapters.mkv")
        try chapters.write(to: meta, atomically: true, encoding: .utf8)
        let made = ProcessRunner.run("/usr/bin/ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", TestMedia.path("clip2s.mp4"), "-i", meta.path,
                                                         "-map", "0", "-map_chapters", "1", "-c", "copy", mkv.path], timeout: 60)
        guard made.status == 0 else { throw XCTSkip("ffmpeg could not write the MKV: \(made.stderr)") }
        return [live, mkv]
    }

    func testACheckOfEachEndsWithAReport() throws {
        let dir = TestMedia.temporaryDirectory("reel-endless-probe")
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = try Self.inputs(in: dir)
        let report = dir.appendingPathComponent("report")
        // Before: over 110 s (the live playlist's probe never returned; the MKV's took ~50 s).
        let check = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--item-timeout", "10", "--report", report.path]
                                      + inputs.map(\.path) + [TestMedia.path("clip2s.mp4")], timeout: 90)
        XCTAssertFalse(check.timedOut, "reel check ended: \(check.stderr.suffix(800))")
        XCTAssertEqual(check.status, 1, check.stderr.suffix(800).description)
        let json = try XCTUnwrap(try? JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("report.json"))) as? [String: Any])
        let items = try XCTUnwrap(json["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 3)
        XCTAssertNotNil(items[0]["error"], "\(items[0])")
        XCTAssertNotNil(items[1]["error"], "\(items[1])")
        XCTAssertEqual(items[2]["ok"] as? Bool, true, "the clip after them is checked: \(items[2])")
    }

    func testPlayingEachFailsInBoundedTimeAndTheQueueGoesOn() throws {
        let dir = TestMedia.temporaryDirectory("reel-endless-play")
        defer { try? FileManager.default.removeItem(at: dir) }
        for input in try Self.inputs(in: dir) {
            let run = ProcessRunner.run(ProcessRunner.reelExecutable,
                                        ["--headless", "--events", "--exit-at-end", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=false",
                                         input.path, TestMedia.path("clip2s.mp4")], timeout: 120)
            XCTAssertFalse(run.timedOut, "\(input.lastPathComponent): the queue went on: \(run.stdout.suffix(600))")
            XCTAssertEqual(run.status, 1, "\(input.lastPathComponent): \(run.stderr.suffix(600))")
            let all = events(run.stdout)
            XCTAssertTrue(all.contains { $0["event"] as? String == "error" && $0["item"] as? Int == 0 }, "\(input.lastPathComponent): \(run.stdout.suffix(800))")
            XCTAssertTrue(all.contains { $0["event"] as? String == "end" && $0["item"] as? Int == 1 }, "\(input.lastPathComponent): the clip played")
        }
    }
}

/// Issue 56, medium: cue times no number can hold (`reel inspect` trapped, exit 132).
final class HugeCueTimeTests: XCTestCase {
    func testCueTimesPastAnyClockAreProblemsNotTraps() throws {
        let dir = TestMedia.temporaryDirectory("reel-cue-times")
        defer { try? FileManager.default.removeItem(at: dir) }
        let files: [(String, String)] = [
            ("hours.srt", "1\n00:00:01,000 --> 99999999999999999999:00:01,000\nHuge\n\n2\n00:00:01,000 --> 00:00:02,000\nFine\n"),
            ("minutes.vtt", "WEBVTT\n\n00:01.000 --> 18446744073709551616:00:00.000\nHuge\n\n00:01.000 --> 00:02.000\nFine <99999999999999999999:00:00.000>later\n"),
            ("hours.ass", "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
                + "Dialogue: 0,0:00:01.00,99999999999999999999:00:01.00,Default,,0,0,0,,Huge\n"
                + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Fine\n"),
        ]
        for (name, text) in files {
            let file = dir.appendingPathComponent(name)
            try text.write(to: file, atomically: true, encoding: .utf8)
            let run = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", file.path], timeout: 30)
            XCTAssertTrue(run.status == 0 || run.status == 1, "\(name): an answer, not a trap (\(run.status)): \(run.stderr.suffix(400))")
            let json = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            let cues = json?["cues"] as? [[String: Any]]
            XCTAssertEqual(cues?.count, 1, "\(name): the good cue only: \(run.stdout.prefix(600))")
            XCTAssertFalse(run.stdout.contains("\"-0"), "\(name): no negative time: \(run.stdout.prefix(600))")
        }
    }
}
