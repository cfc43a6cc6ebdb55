import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// `reel check --scenario`, run as a CI job runs it: the binary on real files and a real
/// packager's HLS master on a local server; the verdict read from the exit status, report.json
/// (read back by `CheckReport.decode`), the JUnit file (xmllint against the schema), the frames
/// on disk and the server's request log.
final class CheckScenarioRunTests: XCTestCase {
    private func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private func check(_ args: [String], report: URL, timeout: Double = 180) throws -> (ProcessRunner.Result, CheckReport?) {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--frames-only", "--at", "50%", "--report", report.path] + args, timeout: timeout)
        XCTAssertFalse(r.timedOut, "reel check \(args): \(r.stderr)")
        let data = try? Data(contentsOf: report.appendingPathComponent("report.json"))
        return (r, try data.map(CheckReport.decode))
    }

    private func lint(_ junit: URL) -> ProcessRunner.Result {
        let schema = TestMedia.packageRoot.appendingPathComponent("Resources/schemas/junit.xsd")
        return ProcessRunner.run("/usr/bin/xmllint", ["--noout", "--schema", schema.path, junit.path], timeout: 30)
    }

    /// Every step in order with its position: the seek lands, a pause holds, playing moves on in
    /// real time (the waits are seconds), the frame is the picture at that point, a property is
    /// set and read back through the socket's road, and the item is played to its end.
    func testAScenarioOnAFileStepByStep() throws {
        let dir = TestMedia.temporaryDirectory("reel-scenario")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = try write("""
        # gop10s: keyframes at 0, 10 and 20 s
        seek 15
        pause 0.5
        expect position ~= 15
        expect paused == yes
        play 1
        expect position >= 16
        frame golden=after-seek
        set speed 2
        expect speed == 2
        expect picture-width == 320
        play-to-end
        expect ended == yes
        """, "walk.txt", in: dir)
        let junit = dir.appendingPathComponent("junit.xml")
        let (r, report) = try check(["--scenario", scenario, "--junit", junit.path, TestMedia.path("gop10s.mp4")], report: dir.appendingPathComponent("r"))
        XCTAssertEqual(r.status, 0, r.stderr)
        let item = try XCTUnwrap(report?.items.first)
        let run = try XCTUnwrap(item.scenario, "report.json has the scenario")
        XCTAssertEqual(run.name, "walk")
        XCTAssertEqual(run.steps.map(\.line), Array(2...13))
        XCTAssertTrue(run.ok, "\(run.steps.filter { !$0.ok })")
        XCTAssertEqual(run.steps[0].position ?? -1, 15, accuracy: 0.05, "an exact seek, 5 s past a keyframe")
        XCTAssertEqual(run.steps[1].position ?? -1, 15, accuracy: 0.05, "paused: still there")
        XCTAssertGreaterThanOrEqual(run.steps[1].at - run.steps[0].at, 0.45, "pause 0.5 waits half a second")
        let played = try XCTUnwrap(run.steps[4].position)
        XCTAssertEqual(played, 16, accuracy: 0.5, "play 1: a second of media, at the clock's pace")
        XCTAssertEqual(run.steps.last?.position ?? -1, 30, accuracy: 0.1)
        XCTAssertTrue(item.decodedToEnd, "a scenario that played to the end decoded it")

        // The frame: a file of the picture at that moment, named for its golden comparison.
        let frame = try XCTUnwrap(item.frames.first { $0.requested == "after-seek" }, "\(item.frames)")
        let file = try XCTUnwrap(frame.file)
        XCTAssertTrue(file.hasSuffix("-after-seek.png"), file)
        XCTAssertEqual(frame.time ?? -1, played, accuracy: 0.1)
        let png = try Data(contentsOf: dir.appendingPathComponent("r").appendingPathComponent(file))
        XCTAssertEqual(CapturedFrame.pngSize(png)?.width, 320)
        XCTAssertEqual(CapturedFrame.pngSize(png)?.height, 180)

        // JUnit: the item and each step a test case, valid against the schema.
        XCTAssertEqual(lint(junit).status, 0, lint(junit).stderr)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        XCTAssertTrue(xml.contains(#"tests="13" failures="0""#), xml)
        XCTAssertTrue(xml.contains(#"classname="reel.check.scenario" name="000 gop10s: walk line 8: frame golden=after-seek""#), xml)
        // The HTML report lists the steps.
        let html = try String(contentsOf: dir.appendingPathComponent("r/index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("scenario walk: 12 of 12 steps passed"), html)
    }

    /// A failed expectation fails the item and names its line (report, JUnit, stderr's summary);
    /// the scenario goes on after it. A failed action stops it there. A malformed file is refused
    /// before anything plays, with its line.
    func testAFailedStepNamesItsLine() throws {
        let dir = TestMedia.temporaryDirectory("reel-scenario-fail")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = try write("""
        seek 5
        expect picture-height == 720
        expect position ~= 5
        select audio klingon
        play 1
        """, "bad.txt", in: dir)
        let junit = dir.appendingPathComponent("junit.xml")
        let (r, report) = try check(["--scenario", scenario, "--junit", junit.path, TestMedia.path("gop10s.mp4")], report: dir.appendingPathComponent("r"))
        XCTAssertEqual(r.status, 1, "a failed step fails the run: \(r.stderr)")
        let item = try XCTUnwrap(report?.items.first)
        XCTAssertFalse(item.ok)
        let run = try XCTUnwrap(item.scenario)
        XCTAssertEqual(run.steps.map(\.line), [1, 2, 3, 4], "line 5 never ran: the action before it failed")
        XCTAssertEqual(run.steps.map(\.ok), [true, false, true, false])
        XCTAssertEqual(item.problems.filter { $0.code == "scenario-failed" }.map(\.line), [2, 4])
        XCTAssertTrue(item.problems.contains { $0.message == "bad line 2: expect picture-height == 720: expected picture-height==720, read picture-height=180" },
                      "\(item.problems)")
        XCTAssertTrue(run.steps[3].message?.contains("no audio track is “klingon”") == true, "\(run.steps[3])")
        XCTAssertTrue(run.steps[3].message?.contains("(the scenario stopped here)") == true)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        XCTAssertEqual(lint(junit).status, 0)
        XCTAssertTrue(xml.contains(#"tests="5" failures="3""#), "the item and its two failed steps: \(xml)")
        XCTAssertTrue(xml.contains("line 2: expect picture-height == 720"), xml)

        let broken = try write("seek 5\nexpect position\n", "broken.txt", in: dir)
        let refused = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--report", dir.appendingPathComponent("r2").path, "--scenario", broken, TestMedia.path("gop10s.mp4")], timeout: 30)
        XCTAssertEqual(refused.status, 2, "a usage error: \(refused.stderr)")
        XCTAssertTrue(refused.stderr.contains("--scenario \(broken): line 2: expect: takes NAME OP VALUE"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("r2/report.json").path), "nothing was checked")
        let unknown = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--report", dir.path, "--scenario", "seek-hurricane", TestMedia.path("gop10s.mp4")], timeout: 30)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("nor a built-in (seek-storm, track-switch)"), unknown.stderr)
    }

    /// Tracks and rate on a film (tracks.mkv: English and French audio and subtitles), and the
    /// `items` patterns choosing which scenario each item gets.
    func testTracksRateAndWhichItemsAScenarioIsFor() throws {
        let dir = TestMedia.temporaryDirectory("reel-scenario-tracks")
        defer { try? FileManager.default.removeItem(at: dir) }
        let film = try write("""
        items tracks.mkv
        select audio fr
        expect audio-lang == fr
        select sub en
        expect sub-lang == en
        select sub none
        expect sub-lang == none
        set-rate 2
        play 1
        expect rate == 2
        """, "film.txt", in: dir)
        let other = try write("items gop10s.mp4\nseek 20 keyframe\nexpect position ~= 20\n", "other.txt", in: dir)
        let (r, report) = try check(["--scenario", film, "--scenario", other, TestMedia.path("tracks.mkv"), TestMedia.path("gop10s.mp4"), TestMedia.path("clip2s.mp4")],
                                    report: dir.appendingPathComponent("r"))
        XCTAssertEqual(r.status, 0, r.stderr)
        let items = try XCTUnwrap(report?.items)
        XCTAssertEqual(items.map { $0.scenario?.name }, ["film", "other", nil], "each item its scenario; clip2s.mp4 none")
        let steps = try XCTUnwrap(items[0].scenario?.steps)
        XCTAssertTrue(steps.allSatisfy(\.ok), "\(steps.filter { !$0.ok })")
        XCTAssertEqual(steps.first?.message, "fr (audio-track 1)")
        XCTAssertEqual(steps.first { $0.action == "play 1" }?.position ?? 0, 1, accuracy: 0.5, "a second of media played from the start")
        XCTAssertEqual(items[1].scenario?.steps.first?.position ?? -1, 20, accuracy: 0.05, "a keyframe seek lands on the keyframe at 20 s")
    }

    /// The built-ins: 20 exact seeks between keyframes 10 s apart, each showing the frame at its
    /// target (not the keyframe before it); every audio and subtitle track of a film switched to,
    /// as playbin3 reports it playing.
    func testTheBuiltInSeekStormAndTrackSwitch() throws {
        let dir = TestMedia.temporaryDirectory("reel-scenario-builtin")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (r, report) = try check(["--scenario", "seek-storm", TestMedia.path("gop10s.mp4")], report: dir.appendingPathComponent("storm"))
        XCTAssertEqual(r.status, 0, r.stderr)
        let storm = try XCTUnwrap(report?.items.first?.scenario)
        XCTAssertEqual(storm.steps.map(\.action), ["seek-storm 20"])
        XCTAssertEqual(storm.steps.first?.message, "20 seeks landed, each on its frame", "\(storm.steps)")

        let (t, tracks) = try check(["--scenario", "track-switch", TestMedia.path("tracks.mkv")], report: dir.appendingPathComponent("tracks"))
        XCTAssertEqual(t.status, 0, t.stderr)
        let switched = try XCTUnwrap(tracks?.items.first?.scenario?.steps.first)
        XCTAssertTrue(switched.ok, "\(switched)")
        XCTAssertEqual(switched.message, "audio en (audio-track 0), audio fr (audio-track 1), sub en (subtitle-track 0), sub fr (subtitle-track 1)")
    }

    /// On ffmpeg's HLS master: the renditions pinned one after the other, each one said by a
    /// `rendition` event, and from then on the only one whose segments the server is asked for
    /// (segments served a little faster than they play, so that the demuxer has not fetched the
    /// whole stream ahead).
    func testAScenarioPinsRenditionsOnARealMaster() throws {
        let dir = TestMedia.temporaryDirectory("reel-scenario-hls")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        // Each rendition's segments a little faster than they play (the stream check after the
        // scenario reads them all again, at the same pace).
        server.serveDirectory(TestMedia.url("hls/ffmpeg/ts/360p"), at: "/s/360p", bytesPerSecond: 150_000)
        server.serveDirectory(TestMedia.url("hls/ffmpeg/ts/720p"), at: "/s/720p", bytesPerSecond: 400_000)
        server.serve("/s/master.m3u8", .file(TestMedia.url("hls/ffmpeg/ts/master.m3u8"), contentType: "application/vnd.apple.mpegurl"))
        let scenario = try write("""
        items *.m3u8
        quality 360p
        play
        wait event rendition timeout 20
        expect rendition-height == 360
        play 2
        quality 720p
        wait event rendition timeout 20
        expect rendition-height == 720
        play 2
        quality auto
        """, "renditions.txt", in: dir)
        let (r, report) = try check(["--at", "0", "--item-timeout", "60", "--scenario", scenario, server.url("/s/master.m3u8").absoluteString],
                                    report: dir.appendingPathComponent("r"))
        XCTAssertEqual(r.status, 0, r.stderr)
        let run = try XCTUnwrap(report?.items.first?.scenario)
        XCTAssertTrue(run.ok, "\(run.steps.filter { !$0.ok })")
        XCTAssertEqual(run.steps.first?.message, "rendition 0: 360p")
        let started = try XCTUnwrap(run.started)
        func end(ofLine line: Int) throws -> Date { started.addingTimeInterval(try XCTUnwrap(run.steps.first { $0.line == line }).at) }
        // The server's view, step by step: once a pinned rendition's segments are asked for, no other's are.
        let segments = server.requests.filter { $0.path.hasSuffix(".ts") }
        func fetched(from: Date, to: Date) -> [String] { segments.filter { $0.time >= from && $0.time <= to }.map(\.path) }
        let low = fetched(from: try end(ofLine: 2), to: try end(ofLine: 6))
        let high = fetched(from: try end(ofLine: 7), to: try end(ofLine: 10))
        let firstLow = try XCTUnwrap(low.firstIndex { $0.contains("/360p/") }, "360p pinned: \(low)")
        XCTAssertTrue(low[firstLow...].allSatisfy { $0.contains("/360p/") }, "\(low)")
        let firstHigh = try XCTUnwrap(high.firstIndex { $0.contains("/720p/") }, "720p pinned: \(high)")
        XCTAssertTrue(high[firstHigh...].allSatisfy { $0.contains("/720p/") }, "\(high)")
        let qoe = try XCTUnwrap(report?.items.first?.qoe)
        XCTAssertGreaterThanOrEqual(qoe.renditionSwitches, 1)
        XCTAssertNotNil(qoe.timeWeightedBitrate)
    }
}
