import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// `reel check`'s QoE thresholds and known problems, from outside: the same item checked over a
/// slow link and a fast one (HTTPFixtureServer's paced files), each bound failing the one run
/// and passing the other; a playlist entry's own bounds; a known problem reported as known,
/// then, once it no longer happens, as fixed.
final class CheckVerdictRunTests: XCTestCase {
    private func check(_ args: [String], report: URL) throws -> (ProcessRunner.Result, CheckReport) {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--at", "0", "--report", report.path] + args, timeout: 240)
        XCTAssertFalse(r.timedOut, "reel check \(args): \(r.stderr)")
        let data = try XCTUnwrap(try? Data(contentsOf: report.appendingPathComponent("report.json")), "report.json: \(r.stderr)")
        return (r, try CheckReport.decode(data))
    }

    private func codes(_ report: CheckReport) -> [String] { report.items.flatMap { $0.problems.filter { $0.severity == .error }.map(\.code) } }

    /// One rendition of ffmpeg's HLS, its segments paced below what a fast decode takes (slow)
    /// or not (fast).
    private func server() throws -> HTTPFixtureServer {
        let server = try HTTPFixtureServer()
        server.serveDirectory(TestMedia.url("hls/ffmpeg/ts/360p"), at: "/slow", bytesPerSecond: 400_000)
        server.serveDirectory(TestMedia.url("hls/ffmpeg/ts/360p"), at: "/fast")
        server.serveDirectory(TestMedia.url("hls/ffmpeg/ts"), at: "/master")
        server.serve("/slow.mp4", .paced(TestMedia.url("hd10s.mp4"), contentType: "video/mp4", bytesPerSecond: 60_000))
        server.serve("/fast.mp4", .file(TestMedia.url("hd10s.mp4"), contentType: "video/mp4"))
        return server
    }

    func testStallsAndRebufferingFailTheSlowRunOnly() throws {
        let dir = TestMedia.temporaryDirectory("reel-qoe-stalls")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try server()
        defer { server.shutdown() }
        let bounds = ["--max-stalls", "0", "--max-rebuffer-ratio", "1", "--max-dropped", "50"]
        let (slow, slowReport) = try check(bounds + [server.url("/slow/index.m3u8").absoluteString], report: dir.appendingPathComponent("slow"))
        XCTAssertEqual(slow.status, 1, "stalled: \(slow.stderr)")
        XCTAssertEqual(Set(codes(slowReport)), ["too-many-stalls", "rebuffering"], "\(slowReport.items.first?.problems ?? [])")
        let q = try XCTUnwrap(slowReport.items.first?.qoe)
        XCTAssertGreaterThan(q.stalls, 0)
        let stalls = try XCTUnwrap(slowReport.items.first?.problems.first { $0.code == "too-many-stalls" })
        XCTAssertEqual(stalls.figure, Double(q.stalls), "the figure is what was measured")
        XCTAssertTrue(stalls.message.hasSuffix("(at most 0)"), stalls.message)

        let (fast, fastReport) = try check(bounds + [server.url("/fast/index.m3u8").absoluteString], report: dir.appendingPathComponent("fast"))
        XCTAssertEqual(fast.status, 0, "\(fastReport.items.first?.problems ?? []) \(fast.stderr)")
        XCTAssertEqual(fastReport.items.first?.qoe?.stalls, 0)
        XCTAssertEqual(fastReport.items.first?.qoe?.droppedFrames, 0, "--max-dropped holds: nothing was dropped")

        // A playlist entry holds the slow item to bounds of its own (the command line's for the rest).
        let list = dir.appendingPathComponent("list.m3u")
        try "#EXTM3U\n#EXTREEL:max-stalls=1000\n#EXTREEL:max-rebuffer-ratio=100\n\(server.url("/slow/index.m3u8").absoluteString)\n"
            .write(to: list, atomically: true, encoding: .utf8)
        let (own, ownReport) = try check(bounds + [list.path], report: dir.appendingPathComponent("own"))
        XCTAssertEqual(own.status, 0, "\(ownReport.items.first?.problems ?? []) \(own.stderr)")
        XCTAssertGreaterThan(ownReport.items.first?.qoe?.stalls ?? 0, 0, "it did stall, within its own bound")
    }

    func testASlowStartFailsTheSlowRunOnly() throws {
        let dir = TestMedia.temporaryDirectory("reel-qoe-startup")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try server()
        defer { server.shutdown() }
        // 1080p's first keyframe is over 100 kB: at 60 kB/s its first frame takes seconds.
        let (slow, slowReport) = try check(["--frames-only", "--max-startup", "1.5", server.url("/slow.mp4").absoluteString], report: dir.appendingPathComponent("slow"))
        XCTAssertEqual(slow.status, 1, slow.stderr)
        XCTAssertEqual(codes(slowReport), ["startup-too-slow"])
        XCTAssertGreaterThan(slowReport.items.first?.qoe?.startupSeconds ?? 0, 1.5)
        let (fast, fastReport) = try check(["--frames-only", "--max-startup", "1.5", server.url("/fast.mp4").absoluteString], report: dir.appendingPathComponent("fast"))
        XCTAssertEqual(fast.status, 0, "\(fastReport.items.first?.problems ?? []) \(fast.stderr)")
    }

    /// Dropped frames are the frames a viewer misses, skipped by the decoder (its QoS) as well as
    /// by the sink: played to its end on the clock into a sink that cannot keep up (identity
    /// sleeping 50 ms a frame of a 30 fps clip), a run fails the bound; into the check's own
    /// sink, the same scenario passes. Each of the clip's 60 frames is counted once.
    func testDroppedFramesFailASlowSinksRunAndNotAFastOnes() throws {
        let dir = TestMedia.temporaryDirectory("reel-qoe-dropped")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("to-end.txt")
        try "play-to-end\n".write(to: scenario, atomically: true, encoding: .utf8)
        let file = TestMedia.path("clip2s.mp4")
        let args = ["--frames-only", "--max-dropped", "10", "--scenario", scenario.path]
        let slowSink = "identity sleep-time=50000 ! fakesink qos=true enable-last-sample=true"
        let (slow, slowReport) = try check(args + ["--video-sink", slowSink, file], report: dir.appendingPathComponent("slow"))
        XCTAssertEqual(slow.status, 1, slow.stderr)
        XCTAssertEqual(codes(slowReport), ["dropped-frames"], "\(slowReport.items.first?.problems ?? [])")
        let q = try XCTUnwrap(slowReport.items.first?.qoe)
        XCTAssertGreaterThan(q.droppedPercent ?? 0, 10)
        XCTAssertEqual(q.renderedFrames + q.droppedFrames, 60, "each frame shown or counted dropped, once: \(q)")
        let breach = try XCTUnwrap(slowReport.items.first?.problems.first { $0.code == "dropped-frames" })
        XCTAssertEqual(breach.figure ?? 0, q.droppedPercent ?? -1, accuracy: 0.001, "the figure is what was measured")
        XCTAssertTrue(breach.message.hasSuffix("at most 10 %)"), breach.message)
        XCTAssertNotNil(slowReport.items.first?.frames.first?.file, "the photo came from the given sink's last frame")

        let (fast, fastReport) = try check(args + [file], report: dir.appendingPathComponent("fast"))
        XCTAssertEqual(fast.status, 0, "\(fastReport.items.first?.problems ?? []) \(fast.stderr)")
        let f = try XCTUnwrap(fastReport.items.first?.qoe)
        XCTAssertLessThanOrEqual(f.droppedPercent ?? 100, 10)
        XCTAssertEqual(f.renderedFrames + f.droppedFrames, 60, "\(f)")
    }

    /// Pinned to its lowest rendition, a master plays a third of its top bitrate: below the bound.
    func testALowBitrateFailsAndTheDemuxersOwnChoicePasses() throws {
        let dir = TestMedia.temporaryDirectory("reel-qoe-bitrate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try server()
        defer { server.shutdown() }
        let low = dir.appendingPathComponent("low.txt")
        try "quality 360p\nplay-to-end\n".write(to: low, atomically: true, encoding: .utf8)
        let master = server.url("/master/master.m3u8").absoluteString
        let (pinned, pinnedReport) = try check(["--min-bitrate-ratio", "50", "--scenario", low.path, master], report: dir.appendingPathComponent("low"))
        XCTAssertEqual(pinned.status, 1, pinned.stderr)
        XCTAssertEqual(codes(pinnedReport), ["bitrate-too-low"], "\(pinnedReport.items.first?.problems ?? [])")
        let q = try XCTUnwrap(pinnedReport.items.first?.qoe)
        XCTAssertEqual(q.topBitrate, 2_965_600, "the 720p variant's BANDWIDTH")
        XCTAssertLessThan(q.bitratePercent ?? 100, 50)
        // Decoded to the end at the demuxer's own choice (on a fast link, the top rendition).
        let (free, freeReport) = try check(["--min-bitrate-ratio", "50", master], report: dir.appendingPathComponent("auto"))
        XCTAssertEqual(free.status, 0, "\(freeReport.items.first?.problems ?? []) \(free.stderr)")
        XCTAssertGreaterThanOrEqual(freeReport.items.first?.qoe?.bitratePercent ?? 0, 50)
    }

    /// A known problem does not fail the run and is reported known with its link; the next run,
    /// where it no longer happens, reports it fixed. Another item's failure still fails.
    func testAKnownProblemIsKnownThenFixed() throws {
        let dir = TestMedia.temporaryDirectory("reel-known")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try server()
        defer { server.shutdown() }
        let known = dir.appendingPathComponent("known.txt")
        try """
        # stalls on the slow CDN: QA-12
        */index.m3u8   too-many-stalls   https://tracker.example/QA-12
        corrupt.mp4    corrupt
        """.write(to: known, atomically: true, encoding: .utf8)
        let junit = dir.appendingPathComponent("junit.xml")
        let (first, firstReport) = try check(["--max-stalls", "0", "--known", known.path, "--junit", junit.path,
                                              server.url("/slow/index.m3u8").absoluteString, TestMedia.path("corrupt.mp4")], report: dir.appendingPathComponent("1"))
        XCTAssertEqual(first.status, 0, "known problems fail nothing: \(firstReport.items.map(\.problems)) \(first.stderr)")
        let stalled = try XCTUnwrap(firstReport.items.first)
        XCTAssertTrue(stalled.ok)
        XCTAssertEqual(stalled.problems.filter { $0.code == "too-many-stalls" }.map(\.severity), [.known])
        XCTAssertEqual(stalled.knownProblems.map(\.state), [.known])
        XCTAssertEqual(stalled.knownProblems.first?.link, "https://tracker.example/QA-12")
        XCTAssertTrue(firstReport.items[1].errorIsKnown, "the damaged file's error, by its code")
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("1/report.json"))) as? [String: Any])
        XCTAssertEqual((o["summary"] as? [String: Any])?["known"] as? Int, 2)
        XCTAssertTrue(try String(contentsOf: junit, encoding: .utf8).contains(#"failures="0""#))

        let (second, secondReport) = try check(["--max-stalls", "0", "--known", known.path, server.url("/fast/index.m3u8").absoluteString, TestMedia.path("clip2s.mp4")],
                                               report: dir.appendingPathComponent("2"))
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(secondReport.items.first?.knownProblems.map(\.state), [.fixed], "it did not stall this time")
        let o2 = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("2/report.json"))) as? [String: Any])
        XCTAssertEqual((o2["summary"] as? [String: Any])?["fixed"] as? Int, 1)
        XCTAssertTrue(try String(contentsOf: dir.appendingPathComponent("2/index.html"), encoding: .utf8).contains("fixed: too-many-stalls did not happen"))

        // Only what the file names is known: the same stalls of an item it does not name fail the run.
        let other = dir.appendingPathComponent("other.txt")
        try "*/other.m3u8 too-many-stalls\n".write(to: other, atomically: true, encoding: .utf8)
        let (third, thirdReport) = try check(["--max-stalls", "0", "--known", other.path, server.url("/slow/index.m3u8").absoluteString], report: dir.appendingPathComponent("3"))
        XCTAssertEqual(third.status, 1, third.stderr)
        XCTAssertEqual(thirdReport.items.first?.knownProblems, [])
    }
}
