import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// The flight recorder (issue 63), from outside: a live HLS stream that needs a header, with a
/// 503 on one segment and a 4 s wait on another, recorded by a headless Reel; the folder holds
/// no trace of the header, is private, and `reel inspect` names both faults. With the origin
/// gone, two replays answer as it did (the gateway's own log shows the 503 and the slow
/// segment again), Reel's events come in the same order with the same programme dates and the
/// same frame is captured at the same media position, a
/// faults file adds a fault where it says and removes the 503 (the recorder asked the failed
/// segment again for it), and `reel check --replay` plays the recording on the clock to its end
/// and reports the 503, the same twice, and not once it is removed.
final class FlightRecorderTests: XCTestCase {
    private let secret = "rec-\(UUID().uuidString)"
    private let seconds: UInt32 = 14

    private struct Run {
        var events: [[String: Any]]
        var httpLog: String
        var stderr: String
    }

    /// Reel headless for `seconds`, then told to stop (SIGTERM, as a desktop session ends it).
    private func play(_ arguments: [String], in dir: URL, name: String, for seconds: UInt32? = nil) throws -> Run {
        let log = dir.appendingPathComponent("\(name).http.log").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--headless", "--events", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                          "--http-log", log] + arguments)
        sleep(seconds ?? self.seconds)
        kill(reel.process.processIdentifier, SIGTERM)
        let (status, killed) = reel.finish(timeout: 10)
        XCTAssertFalse(killed, "\(name): reel stops when told: \(reel.stderr)")
        XCTAssertEqual(status, 0, "\(name): a stop asked for is a clean exit: \(reel.stderr.suffix(1500))")
        let events = reel.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        XCTAssertEqual(events.last?["event"] as? String, "finished", "\(name): \(reel.stderr)")
        return Run(events: events, httpLog: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "", stderr: reel.stderr)
    }

    /// The events that say what playback did (not its ticks or buffering steps), by kind.
    private func story(_ events: [[String: Any]]) -> [String] {
        events.compactMap { e in
            let kind = e["event"] as? String ?? "?"
            if kind == "tick" || kind == "buffering" { return nil }
            return [kind, e["status"] as? String, e["reason"] as? String].compactMap { $0 }.joined(separator: ":")
        }
    }

    private func liveDate(_ events: [[String: Any]]) -> Double? { events.first { $0["event"] as? String == "live" }?["epochTime"] as? Double }
    /// Where the first `live` event says playback stands in the window (a replay's clock is the
    /// recorded one, pinned: the same position on every replay).
    private func livePosition(_ events: [[String: Any]]) -> Double? { events.first { $0["event"] as? String == "live" }?["position"] as? Double }

    /// The gateway log's line for a segment: its status and milliseconds.
    private func logged(_ log: String, _ path: String) -> [(status: String, ms: Int)] {
        log.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count >= 6, f[2].hasSuffix(path) else { return nil }
            return (String(f[3]), Int(f[5].dropLast(2)) ?? -1)
        }
    }

    func testALiveSessionIsRecordedWithoutItsHeaderAndReplaysAsItHappened() throws {
        let dir = TestMedia.temporaryDirectory("reel-flight")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("recording")
        // Segment n is out at 2n − 10 s from the server's start: 7 at 4 s, 9 at 8 s.
        let server = try LiveEventServer(window: 6, header: "X-Reel-Secret: \(secret)", faults: ["status:7:503", "slow:9:4"])
        let recorded = try play(["--record", folder.path, "--header", "X-Reel-Secret: \(secret)", server.playlistURL], in: dir, name: "recorded")
        let asked = server.requests
        server.stop()
        XCTAssertGreaterThan(asked.count, 8)
        XCTAssertTrue(asked.allSatisfy(\.carriedHeader), "every request carried the header while recording")
        XCTAssertEqual(logged(recorded.httpLog, "/live/seg/7.ts").first?.status, "503", recorded.httpLog)

        // Private, and without the header's value anywhere.
        let fm = FileManager.default
        let mode = { (path: String) in ((try? fm.attributesOfItem(atPath: path))?[.posixPermissions] as? Int) ?? -1 }
        XCTAssertEqual(mode(folder.path), 0o700)
        let files = (fm.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).map { folder.appendingPathComponent($0).path }
        XCTAssertGreaterThan(files.count, 8)
        for file in files {
            var isDir: ObjCBool = false
            _ = fm.fileExists(atPath: file, isDirectory: &isDir)
            XCTAssertEqual(mode(file), isDir.boolValue ? 0o700 : 0o600, file)
            if !isDir.boolValue, let data = fm.contents(atPath: file) {
                XCTAssertNil(data.range(of: Data(secret.utf8)), "\(file) holds the header's value")
            }
        }
        let requests = try RecordingIndex.read(String(contentsOf: folder.appendingPathComponent("requests.jsonl"), encoding: .utf8))
        let fault = try XCTUnwrap(requests.first { $0.url.hasSuffix("/seg/7.ts") && $0.status == 503 }, "the 503 is recorded")
        let slow = try XCTUnwrap(requests.first { $0.url.hasSuffix("/seg/9.ts") }, "the slow segment is recorded")
        XCTAssertGreaterThanOrEqual(slow.latency, 3.5, "its wait for the first byte")
        XCTAssertGreaterThan(requests.filter(\.playlist).count, 3, "every refresh of the playlist")

        let inspect = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", folder.path], timeout: 20)
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        let summary = try XCTUnwrap((try? JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8))) as? [String: Any], inspect.stdout)
        let faults = (summary["faults"] as? [[String: Any]] ?? []).compactMap { $0["what"] as? String }
        XCTAssertTrue(faults.contains("HTTP 503"), "\(faults)")
        XCTAssertTrue(faults.contains { $0.hasPrefix("slow: 4.") }, "\(faults)")
        XCTAssertEqual(summary["requests"] as? Int, requests.filter(\.isPlayers).count, "the player's requests")
        XCTAssertEqual(summary["probes"] as? Int, requests.count - requests.filter(\.isPlayers).count, "the recorder's own, apart")

        // The origin is gone: two replays, no header.
        let shots = (1...2).map { dir.appendingPathComponent("shots-\($0)") }
        let first = try play(["--replay", folder.path, "--screenshot-at", "7", "--screenshot-dir", shots[0].path], in: dir, name: "replay-1")
        let second = try play(["--replay", folder.path, "--screenshot-at", "7", "--screenshot-dir", shots[1].path], in: dir, name: "replay-2")
        for replay in [first, second] {
            XCTAssertEqual(logged(replay.httpLog, "/live/seg/7.ts").first?.status, "503", "the 503 where it came: \(replay.httpLog)")
            let wait = try XCTUnwrap(logged(replay.httpLog, "/live/seg/9.ts").first, replay.httpLog)
            XCTAssertGreaterThanOrEqual(wait.ms, 3500, "as slow as it was")
            XCTAssertEqual(story(replay.events), story(recorded.events), "the same events in the same order")
            let date = try XCTUnwrap(liveDate(replay.events)), recordedDate = try XCTUnwrap(liveDate(recorded.events))
            XCTAssertEqual(date, recordedDate, accuracy: 0.1, "the same programme date at the start")
        }
        XCTAssertEqual(try XCTUnwrap(livePosition(first.events)), try XCTUnwrap(livePosition(second.events)), accuracy: 0.1, "the same position in the window")
        XCTAssertEqual(first.events.compactMap { $0["event"] as? String }.filter { $0 != "tick" && $0 != "buffering" },
                       second.events.compactMap { $0["event"] as? String }.filter { $0 != "tick" && $0 != "buffering" })
        // The same frame at the same media position (the file names it: the stream time).
        let pictures = shots.map { folder -> [String: Data] in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return Dictionary(uniqueKeysWithValues: names.map { ($0, FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) ?? Data()) })
        }
        XCTAssertFalse(pictures[0].isEmpty, "a frame captured: \(first.stderr.suffix(800))")
        XCTAssertEqual(pictures[0].keys.sorted(), pictures[1].keys.sorted(), "captured at the same media position")
        XCTAssertTrue(pictures[0].allSatisfy { pictures[1][$0.key] == $0.value }, "the same pictures, byte for byte")

        // The recorder asked the failed segment once more, for itself (the player had moved on):
        // a faults file can remove the 503. Here a segment that answered well answers 404 and
        // the 503 answers as the origin did the second time.
        let probe = try XCTUnwrap(requests.first { $0.url.hasSuffix("/seg/7.ts") && $0.probe == true }, "the failed segment asked again")
        XCTAssertEqual(probe.status, 200)
        XCTAssertGreaterThan(probe.asked, fault.asked + 1.5)
        let good = try XCTUnwrap(requests.first { $0.url.hasSuffix("/seg/8.ts") && $0.status == 200 }, "segment 8 answered")
        let faultsFile = dir.appendingPathComponent("faults.txt")
        try "# a regression made on purpose\nrequest \(good.seq) status 404\nrequest \(fault.seq) ok\n".write(to: faultsFile, atomically: true, encoding: .utf8)
        let changed = try play(["--replay", folder.path, "--replay-faults", faultsFile.path], in: dir, name: "changed")
        XCTAssertEqual(logged(changed.httpLog, "/live/seg/8.ts").first?.status, "404", changed.httpLog)
        XCTAssertEqual(logged(changed.httpLog, "/live/seg/7.ts").first?.status, "200", "the 503 removed: \(changed.httpLog)")
        XCTAssertFalse(changed.stderr.contains("never answered well"), changed.stderr)
        for replay in [first, second] {
            XCTAssertEqual(logged(replay.httpLog, "/live/seg/7.ts").count, 1, "the probe is never served as itself: \(replay.httpLog)")
        }

        // A check of the recording plays it on the clock to where it ends (the live playlist is
        // closed there) rather than waiting at an edge that never moves, and finds the 503 the
        // origin gave; a second check of it reports the same. A segment the recording never
        // fetched answers 404 (a gap to the player), so a seek before it does not spin.
        var reports: [[String: Any]] = []
        for n in 1...2 {
            let report = dir.appendingPathComponent("report-\(n)")
            let checked = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--replay", folder.path, "--report", report.path, "--item-timeout", "60",
                                                                           // a seek before where the recorded player started: segments it never fetched are gaps
                                                                           "--at", "1"], timeout: 150)
            XCTAssertEqual(checked.status, 1, "the recorded 503 fails the item: \(checked.stderr)")
            XCTAssertFalse(checked.stderr.contains("CRITICAL"), "no spin at the recording's end: \(checked.stderr.prefix(2000))")
            let json = (try? Data(contentsOf: report.appendingPathComponent("report.json"))).flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]
            let item = try XCTUnwrap((json?["items"] as? [[String: Any]])?.first, checked.stderr)
            XCTAssertEqual(item["live"] as? Bool, true)
            XCTAssertEqual(item["decodedToEnd"] as? Bool, true, "played to the recording's end: \(item)")
            let played = (item["qoe"] as? [String: Any])?["playSeconds"] as? Double ?? 0
            XCTAssertGreaterThan(played, 10, "on the clock, as recorded: \(item)")
            let problems = (item["problems"] as? [[String: Any]] ?? []).map { "\($0["code"] ?? "?"): \($0["message"] ?? "")" }
            XCTAssertTrue(problems.contains { $0.hasPrefix("segment-unavailable") && $0.contains("7.ts") }, "\(problems)")
            reports.append(item)
        }
        let facts = { (item: [String: Any]) -> [String] in
            // Not the codec names: GStreamer's tags may come after the check has read them (seen in CI).
            ["ok", "live", "decodedToEnd", "width", "height", "container", "error"].map { "\($0)=\(item[$0] ?? "nil")" }
                + (item["problems"] as? [[String: Any]] ?? []).map { "\($0["code"] ?? "?"): \($0["message"] ?? "")" }
        }
        XCTAssertEqual(facts(reports[0]), facts(reports[1]), "two checks of one recording report the same")

        // With the 503 removed by a faults file, the check no longer finds it.
        let fixedFile = dir.appendingPathComponent("fixed.txt")
        try "request \(fault.seq) ok\n".write(to: fixedFile, atomically: true, encoding: .utf8)
        let report = dir.appendingPathComponent("report-fixed")
        let fixed = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--replay", folder.path, "--replay-faults", fixedFile.path, "--report", report.path,
                                                                     "--item-timeout", "60"], timeout: 150)
        let json = (try? Data(contentsOf: report.appendingPathComponent("report.json"))).flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]
        let item = try XCTUnwrap((json?["items"] as? [[String: Any]])?.first, fixed.stderr)
        let problems = (item["problems"] as? [[String: Any]] ?? []).map { "\($0["code"] ?? "?"): \($0["message"] ?? "")" }
        XCTAssertFalse(problems.contains { $0.contains("7.ts") }, "the removed 503 is gone from the report: \(problems)")
        XCTAssertEqual(item["decodedToEnd"] as? Bool, true, "\(item)")
    }

    /// The newest segment number ffmpeg's live MPD lists (its first timeline).
    private func newestNumber(_ mpd: String) -> Int? {
        guard let template = mpd.range(of: #"startNumber="\d+""#, options: .regularExpression),
              let start = Int(mpd[template].filter(\.isNumber)),
              let open = mpd.range(of: "<SegmentTimeline>"), let close = mpd.range(of: "</SegmentTimeline>", range: open.upperBound..<mpd.endIndex) else { return nil }
        let runs = mpd[open.upperBound..<close.lowerBound].components(separatedBy: "<S ").dropFirst()
        let count = runs.reduce(0) { total, run in
            guard let r = run.range(of: #"r="\d+""#, options: .regularExpression) else { return total + 1 }
            return total + (Int(run[r].filter(\.isNumber)) ?? 0) + 1
        }
        return count > 0 ? start + count - 1 : nil
    }

    /// Live DASH as a packager makes it (ffmpeg's DASH muxer in real time) behind a server that
    /// requires a header, with a 503 on one video segment and a 4 s wait before another: the
    /// recording holds no trace of the header; with the origin gone, a replay starts at the
    /// recorded programme date (the MPD says the recorded clock), meets the 503 and the wait
    /// where they came, and ends where the recording does (the MPD is closed there: static, its
    /// streams restarted by `LiveDASHEnd`) with a clean exit; two replays tell the same events and
    /// capture the same frame at the same media position, and two `reel check --replay` runs
    /// report the same.
    func testALiveDASHSessionIsRecordedAndReplaysToItsEnd() throws {
        let dir = TestMedia.temporaryDirectory("reel-flight-dash")
        defer { try? FileManager.default.removeItem(at: dir) }
        let packager = try LiveDASHPackager(timeline: true)
        defer { packager.stop() }
        let until = Date().addingTimeInterval(30)
        while (newestNumber(packager.manifest) ?? 0) < 4 && Date() < until { Thread.sleep(forTimeInterval: 0.2) }
        let newest = try XCTUnwrap(newestNumber(packager.manifest), packager.manifest)
        let server = try HTTPFixtureServer(host: "127.0.0.1")
        defer { server.shutdown() }
        server.serveLiveDirectory(packager.directory, at: "/live")
        server.requireHeader("X-Reel-Secret", secret)
        let failing = String(format: "chunk-stream0-%05d.m4s", newest + 3), slow = String(format: "chunk-stream0-%05d.m4s", newest + 5)
        server.misbehave("/live/" + failing, [.status(503)])
        server.misbehave("/live/" + slow, [.late(seconds: 4)])
        let folder = dir.appendingPathComponent("recording")
        let recorded = try play(["--record", folder.path, "--header", "X-Reel-Secret: \(secret)", server.url("/live/manifest.mpd").absoluteString],
                                in: dir, name: "recorded", for: 20)
        let asked = server.requests
        server.shutdown()
        packager.stop()
        XCTAssertTrue(asked.allSatisfy { $0.header("X-Reel-Secret") == secret }, "every request carried the header while recording")
        XCTAssertEqual(logged(recorded.httpLog, failing).first?.status, "503", recorded.httpLog)
        for file in FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [] {
            if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(file).path) {
                XCTAssertNil(data.range(of: Data(secret.utf8)), "\(file) holds the header's value")
            }
        }
        let requests = try RecordingIndex.read(String(contentsOf: folder.appendingPathComponent("requests.jsonl"), encoding: .utf8))
        XCTAssertGreaterThan(requests.filter(\.playlist).count, 3, "every refresh of the MPD")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(requests.first { $0.url.hasSuffix(slow) && $0.status == 200 }).latency, 3.5,
                                    "the wait is recorded: \(recorded.httpLog)")

        // Two replays with the origin gone, each to its own end.
        var stories: [[String]] = [], positions: [Double] = []
        for n in 1...2 {
            let log = dir.appendingPathComponent("replay-\(n).http.log").path
            let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                             ["--headless", "--events", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                              "--http-log", log, "--replay", folder.path,
                                              "--screenshot-at", "7", "--screenshot-dir", dir.appendingPathComponent("shots-\(n)").path])
            let (status, killed) = reel.finish(timeout: 90)
            XCTAssertFalse(killed, "replay \(n) ends by itself where the recording ends: \(reel.stderr.suffix(2000))")
            XCTAssertEqual(status, 0, "replay \(n): \(reel.stderr.suffix(2000))")
            let events = reel.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            let httpLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            XCTAssertEqual(logged(httpLog, failing).first?.status, "503", "the 503 where it came: \(httpLog)")
            XCTAssertGreaterThanOrEqual(logged(httpLog, slow).first { $0.status == "200" }?.ms ?? 0, 3500, "as slow as it was: \(httpLog)")
            let date = try XCTUnwrap(liveDate(events)), recordedDate = try XCTUnwrap(liveDate(recorded.events))
            XCTAssertEqual(date, recordedDate, accuracy: 0.1, "the same programme date at the start: the MPD is on the recorded clock")
            let story = self.story(events)
            XCTAssertEqual(Array(story.prefix(story.count - 1).prefix(self.story(recorded.events).count - 1)),
                           Array(self.story(recorded.events).dropLast()), "as the recorded session went")
            XCTAssertTrue(story.contains("end:ended") && story.last == "finished:ended", "played to the recording's end: \(story)")
            stories.append(story)
            positions.append(try XCTUnwrap(livePosition(events)))
        }
        XCTAssertEqual(stories[0], stories[1], "two replays, the same events")
        XCTAssertEqual(positions[0], positions[1], accuracy: 0.1, "the same position in the window")
        // The same frame at the same media position (the file names it: the stream time).
        let shots = (1...2).map { n -> [String: Data] in
            let folder = dir.appendingPathComponent("shots-\(n)")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return Dictionary(uniqueKeysWithValues: names.map { ($0, FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) ?? Data()) })
        }
        XCTAssertFalse(shots[0].isEmpty, "a frame captured")
        XCTAssertEqual(shots[0].keys.sorted(), shots[1].keys.sorted(), "captured at the same media position")
        XCTAssertTrue(shots[0].allSatisfy { shots[1][$0.key] == $0.value }, "the same pictures, byte for byte")
        let fast = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--replay", folder.path, "--replay-speed", "4"], timeout: 20)
        XCTAssertEqual(fast.status, 2, "a faster live DASH replay is refused, not played wrong")
        XCTAssertTrue(fast.stderr.contains("live DASH recording replays in real time only"), fast.stderr)

        var reports: [[String]] = []
        for n in 1...2 {
            let report = dir.appendingPathComponent("report-\(n)")
            let checked = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--replay", folder.path, "--report", report.path, "--item-timeout", "60", "--at", "1"],
                                            timeout: 150)
            XCTAssertFalse(checked.stderr.contains("timed out"), "the check ends with the recording: \(checked.stderr.suffix(2000))")
            let json = (try? Data(contentsOf: report.appendingPathComponent("report.json"))).flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]
            let item = try XCTUnwrap((json?["items"] as? [[String: Any]])?.first, checked.stderr)
            XCTAssertEqual(item["live"] as? Bool, true)
            XCTAssertEqual(item["decodedToEnd"] as? Bool, true, "played to the recording's end: \(item)")
            reports.append(["status=\(checked.status)"] + ["ok", "live", "decodedToEnd", "width", "height", "container", "error"].map { "\($0)=\(item[$0] ?? "nil")" }
                + (item["problems"] as? [[String: Any]] ?? []).map { "\($0["code"] ?? "?"): \($0["message"] ?? "")" })
        }
        XCTAssertEqual(reports[0], reports[1], "two checks of one recording report the same")
    }

    /// What was under way when Reel stopped is written as it stood: a segment whose body had
    /// partly come (its bytes, cut at "exit"), and one whose origin had not answered yet.
    func testWhatIsUnderWayWhenReelStopsIsRecorded() throws {
        let dir = TestMedia.temporaryDirectory("reel-flight-exit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let vod = TestMedia.directory.appendingPathComponent("hls/vod/lo")
        for slow in ["paced", "silent"] {
            let server = try HTTPFixtureServer()
            defer { server.shutdown() }
            server.serve("/v/index.m3u8", .file(vod.appendingPathComponent("index.m3u8"), contentType: "application/vnd.apple.mpegurl"))
            server.serve("/v/segment00000.ts", .file(vod.appendingPathComponent("segment00000.ts"), contentType: "video/mp2t"))
            server.serve("/v/segment00002.ts", .file(vod.appendingPathComponent("segment00002.ts"), contentType: "video/mp2t"))
            if slow == "paced" {
                server.serve("/v/segment00001.ts", .paced(vod.appendingPathComponent("segment00001.ts"), contentType: "video/mp2t", bytesPerSecond: 4000))
            } else {
                server.serve("/v/segment00001.ts", .file(vod.appendingPathComponent("segment00001.ts"), contentType: "video/mp2t"))
                server.misbehave("/v/segment00001.ts", [.delayedStatus(503, seconds: 60)])
            }
            let folder = dir.appendingPathComponent(slow)
            let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--events", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                                                            "--record", folder.path, server.url("/v/index.m3u8").absoluteString])
            sleep(5)
            kill(reel.process.processIdentifier, SIGTERM)
            let (_, killed) = reel.finish(timeout: 10)
            XCTAssertFalse(killed, "\(slow): reel stops when told: \(reel.stderr)")
            let requests = try RecordingIndex.read(String(contentsOf: folder.appendingPathComponent("requests.jsonl"), encoding: .utf8))
            let asked = requests.filter { $0.url.hasSuffix("/v/segment00001.ts") }
            XCTAssertEqual(asked.count, 1, "\(slow): the segment under way is written, once: \(requests.map(\.url))")
            guard let under = asked.first else { continue }
            XCTAssertEqual(under.cut, "exit", slow)
            if slow == "paced" {
                XCTAssertEqual(under.status, 200)
                XCTAssertGreaterThan(under.bytes, 0, "what had come")
                XCTAssertLessThan(under.bytes, 114_868, "only what had come")
            } else {
                XCTAssertNil(under.status)
                XCTAssertTrue(under.error?.hasPrefix("no answer yet when Reel stopped, ") == true, "\(under.error ?? "nil")")
                XCTAssertTrue(RecordingSummary(manifest: RecordingManifest(started: 0, inputs: []), requests: requests).faults.contains { $0.what.hasPrefix("no answer: no answer yet when Reel stopped") },
                              "reel inspect names the wait")
            }
        }
    }

    /// `reel check --record`: the requests and, as a check prints no event stream, each item's
    /// player events (`--events`' form, with its item) in events.jsonl.
    func testACheckRecordsItsItemsEvents() throws {
        let dir = TestMedia.temporaryDirectory("reel-flight-check")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls/vod/lo"), at: "/v")
        let folder = dir.appendingPathComponent("recording")
        let run = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--record", folder.path, "--frames-only", "--at", "1",
                                                                   "--report", dir.appendingPathComponent("report").path,
                                                                   server.url("/v/index.m3u8").absoluteString], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        let requests = try RecordingIndex.read(String(contentsOf: folder.appendingPathComponent("requests.jsonl"), encoding: .utf8))
        XCTAssertTrue(requests.contains { $0.url.hasSuffix("/v/index.m3u8") && $0.status == 200 }, "\(requests.map(\.url))")
        let events = try String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8).split(separator: "\n")
            .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        XCTAssertTrue(events.contains { $0["event"] as? String == "status" && $0["status"] as? String == "readyToPlay" && $0["item"] as? Int == 0 },
                      "\(events.prefix(10))")
    }

    /// What cannot be honoured is a command-line error (exit 2), before anything plays.
    func testBadRecordingOptionsAreRefused() throws {
        let dir = TestMedia.temporaryDirectory("reel-flight-options")
        defer { try? FileManager.default.removeItem(at: dir) }
        let notARecording = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: notARecording, withIntermediateDirectories: true)
        let badFaults = dir.appendingPathComponent("faults.txt")
        try "segment zero status 503\n".write(to: badFaults, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--replay", notARecording.path], "is not a recording"),
            (["--record", dir.appendingPathComponent("r").path, "--replay", notARecording.path], "not both"),
            (["--record-max", "1M", "x.mp4"], "--record-max needs --record"),
            (["--record", dir.appendingPathComponent("r2").path, "--record-max", "lots", "x.mp4"], "is not a size"),
            (["--replay-speed", "4", "x.mp4"], "need --replay"),
            (["--record", "/nonexistent/dir/rec", "x.mp4"], "cannot be written"),
        ]
        let minimal = dir.appendingPathComponent("minimal")
        try FileManager.default.createDirectory(at: minimal, withIntermediateDirectories: true)
        try #"{"version":1,"started":0,"inputs":["http://127.0.0.1:9/live.m3u8"]}"#.write(to: minimal.appendingPathComponent("recording.json"), atomically: true, encoding: .utf8)
        try "".write(to: minimal.appendingPathComponent("requests.jsonl"), atomically: true, encoding: .utf8)
        let check = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--replay", minimal.path], timeout: 20)
        XCTAssertEqual(check.status, 2, check.stderr)
        XCTAssertTrue(check.stderr.contains("--report"), "the recording's inputs are checked, into a report: \(check.stderr)")
        for (arguments, words) in cases {
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless"] + arguments, timeout: 20)
            XCTAssertEqual(r.status, 2, "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(words), "\(arguments): \(r.stderr)")
        }
    }
}
