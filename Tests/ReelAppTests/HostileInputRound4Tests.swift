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

    /// `set_property sub-pos 1e300` (and −1e300, Int.max) crashed Reel (exit 132); `volume 1e308`
    /// was taken by set_property while the `volume` command refused it.
    func testHugeNumbersForEveryPropertyAreRefusedAndReelLives() throws {
        let dir = TestMedia.temporaryDirectory("reel-sock-numbers")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=true",
                                                                        "--ipc", socket, "--loop=all", TestMedia.path("clip2s.mp4")])
        defer { reel.finish(timeout: 5, dumpStacks: false) }
        let client = try XCTUnwrap(IPCTestClient(path: socket), "the socket appears: \(reel.stderr)")
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
}
