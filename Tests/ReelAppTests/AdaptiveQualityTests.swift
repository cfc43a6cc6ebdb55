import Foundation
import ReelTestSupport
import XCTest

/// Reel's own adaptive rule end to end: the real binary, the generated three-rendition stream
/// (hls/abr: 360p, 720p, 1080p at about 0.6, 2 and 5 Mbit/s, 2 s segments, 60 s) and the
/// throttling server (one shared link whose bandwidth follows a schedule). What the server was
/// asked for, and when, shows which rendition played.
final class AdaptiveQualityTests: XCTestCase {
    private struct Run {
        var events: [[String: Any]]
        var requests: [ThrottleServer.Request]
        var stderr: String
        /// Reel's `REEL_ABR_TRACE`: what its rule saw (time, buffered, throughput, playing, rendition).
        var trace: [[Double]]

        func named(_ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }
        /// (height, reason) of every rendition event.
        var renditions: [String] { named("rendition").map { "\($0["height"] as? Int ?? 0) \($0["reason"] as? String ?? "?")" } }
        /// Waiting spells after playback first started: (start, seconds).
        var stalls: [(at: Double, seconds: Double)] {
            var result: [(Double, Double)] = []
            var started = false, since: Double?
            for e in events where e["event"] as? String == "time-control" {
                let t = e["t"] as? Double ?? 0
                switch e["status"] as? String {
                case "playing":
                    if let s = since { result.append((s, t - s)) }
                    since = nil
                    started = true
                case "waiting" where started && since == nil:
                    since = t
                default: break
                }
            }
            if let s = since { result.append((s, (events.last?["t"] as? Double ?? s) - s)) }
            return result
        }
        /// The position at the last tick at or before `t` (seconds since the start).
        func position(at t: Double) -> Double? {
            named("tick").last { ($0["t"] as? Double ?? .infinity) <= t }?["position"] as? Double
        }
        /// What a failure message needs to tell a slope-predicted step down from a measured one:
        /// each rendition event's time, and each segment's request (start, duration, rendition).
        var timeline: String {
            let switches = named("rendition").map { "\($0["height"] as? Int ?? 0) \($0["reason"] as? String ?? "?") at \(String(format: "%.1f", $0["t"] as? Double ?? -1))" }
            let fetched = requests.filter { $0.path.hasSuffix(".ts") }.map { "\($0.path.split(separator: "/").first ?? "") \(String(format: "%.1f+%.1f", $0.time, $0.seconds))" }
            var picked: [[Double]] = []
            for sample in trace where sample.count == 5 && picked.last.map({ sample[0] >= $0[0] + 1 }) ?? true { picked.append(sample) }
            let samples = picked.map { String(format: "%.0f: %.1f s %.1f Mb/s r%.0f", $0[0], $0[1], $0[2] / 1e6, $0[4]) }
            return "renditions \(switches); segments \(fetched); stalls \(stalls); the rule saw (a sample a second) \(samples)"
        }
        func segments(_ rendition: String) -> [ThrottleServer.Request] {
            requests.filter { $0.path.hasPrefix("/\(rendition)/") && $0.path.hasSuffix(".ts") }
        }
    }

    /// Plays hls/abr through the throttle for `seconds`, then asks Reel to quit (SIGTERM).
    private func play(schedule: [(at: Double, bitsPerSecond: Int)], seconds: Double, arguments: [String] = [],
                      rememberedThroughput: Int? = nil) throws -> Run {
        TestMedia.ensureGenerated()
        let server = try ThrottleServer(root: TestMedia.url("hls/abr"), schedule: schedule)
        defer { server.stop() }
        let state = TestMedia.temporaryDirectory("reel-abr-state")
        defer { try? FileManager.default.removeItem(at: state) }
        if let rememberedThroughput {
            try FileManager.default.createDirectory(at: state.appendingPathComponent("reel"), withIntermediateDirectories: true)
            try "\(rememberedThroughput)\n".write(to: state.appendingPathComponent("reel/throughput"), atomically: true, encoding: .utf8)
        }
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--headless", "--events", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true"]
                                             + arguments + [server.url("master.m3u8")],
                                         environment: ["XDG_STATE_HOME": state.path,
                                                       "REEL_ABR_TRACE": state.appendingPathComponent("abr.csv").path])
        Thread.sleep(forTimeInterval: seconds)
        reel.process.terminate()
        let (_, killed) = reel.finish(timeout: 10)
        XCTAssertFalse(killed, "reel quits on SIGTERM")
        let events = reel.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        let trace = ((try? String(contentsOf: state.appendingPathComponent("abr.csv"), encoding: .utf8)) ?? "")
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",").compactMap { Double($0) } }
        return Run(events: events, requests: server.requests, stderr: reel.stderr, trace: trace)
    }

    /// 10 Mbit/s, then 1 Mbit/s from the 16th second, starting at 1080p (8 Mbit/s remembered from
    /// an earlier run): Reel pins 360p before the buffer empties; playback never waits. (At 8 Mbit/s
    /// a machine loaded far beyond the suite's own load measured the first 1080p fragment below
    /// its 5.55 Mbit/s, and the rule rightly stepped down to 720p before the drop. With 16–17 s
    /// buffered at 10 Mbit/s, the first 360p segment comes 10–12 s after the drop: the run lasts
    /// 40 s, so that 4 of them, at least, are on the wire; 34 s gave 4 at best.)
    /// Which of the rule's two ways down names the step is a race the scenario cannot fix. The
    /// buffer's slope predicts the stall once it is within 16 s (`stall-predicted`, about 3 s after
    /// the drop with 12 s buffered). A 1080p fragment begun within 0.8 s before the drop completes
    /// 3–9 s after it at under 2.5 Mbit/s, and that measurement alone says 360p (`auto-down`); it
    /// comes first when more was buffered (a slower start under load: CI, once). A fragment begun
    /// earlier measures more and says 720p, which the demuxer never fetches: its next 1080p
    /// fragment is already on the way, and the slope's 360p comes while it downloads.
    /// `AdaptiveRuleTests` tells the two ways apart on recorded traces.
    func testADropWithABufferAheadStepsDownBeforeAStall() throws {
        let run = try play(schedule: [(0, 10_000_000), (16, 1_000_000)], seconds: 40, rememberedThroughput: 8_000_000)
        XCTAssertEqual(run.renditions.first, "1080 start", "8 Mbit/s remembered: 1080p from the start. \(run.renditions)")
        XCTAssertEqual(run.named("rendition").first?["mode"] as? String, "auto")
        // The premise: at least 6 s were buffered when the bandwidth fell.
        let fetched = Double(run.segments("1080").filter { $0.time + $0.seconds <= 16 }.count) * 2
        let position = try XCTUnwrap(run.position(at: 16))
        XCTAssertGreaterThanOrEqual(fetched - position, 6, "buffered at the drop: \(fetched - position) s; \(run.timeline)")

        let down = try XCTUnwrap(run.named("rendition").dropFirst().first, run.timeline)
        XCTAssertTrue(["stall-predicted", "auto-down"].contains(down["reason"] as? String ?? ""), run.timeline)
        XCTAssertEqual(down["height"] as? Int, 360, "1 Mbit/s carries 360p only: \(run.timeline)")
        let at = try XCTUnwrap(down["t"] as? Double)
        XCTAssertGreaterThan(at, 16)
        XCTAssertFalse(run.renditions.contains { $0.hasSuffix("auto-up") }, "no step up on 1 Mbit/s: \(run.renditions)")
        // No stall, no buffering once playing.
        XCTAssertEqual(run.stalls.count, 0, "waiting after playback started: \(run.stalls)")
        let started = run.named("time-control").first { $0["status"] as? String == "playing" }?["t"] as? Double ?? 0
        XCTAssertEqual(run.named("buffering").filter { ($0["t"] as? Double ?? 0) > started }.count, 0)
        // On the wire: 360p segments after the drop, and no 1080p segment begun after them.
        let low = run.segments("360")
        XCTAssertGreaterThanOrEqual(low.count, 4, run.timeline)
        let firstLow = try XCTUnwrap(low.first?.time)
        XCTAssertFalse(run.segments("1080").contains { $0.time > firstLow }, "no 1080p segment after the step down")
        // Playback went on to the end of the run at the wall clock's pace.
        let last = try XCTUnwrap(run.named("tick").last)
        XCTAssertGreaterThan(last["position"] as? Double ?? 0, 34, run.timeline)
    }

    /// Issue 27's fresh-start weak spot: nothing remembered, a steady 8 Mbit/s. hlsdemux2 starts
    /// at the first listed 360p; at its own 30 s target it queued ~22 s of 360p (11 segments)
    /// before Reel's rule could step up, and those played first. With the probe (the demuxer
    /// holds 6 s until the first decision) the step up comes within seconds and, on the wire,
    /// every segment from the 10th second of media on is 1080p: ≥ 90 % of what the link allows.
    func testAFreshStartOnAFastLinkStepsUpBeforeTheTenthSecond() throws {
        let run = try play(schedule: [(0, 8_000_000)], seconds: 20)
        XCTAssertEqual(run.renditions.first, "360 start", "nothing remembered: the first listed. \(run.renditions)")
        XCTAssertNotNil(run.named("rendition").first { $0["reason"] as? String == "auto-up" }, "\(run.renditions)")
        func index(_ r: ThrottleServer.Request) -> Int? {
            Int(r.path.split(separator: "/").last?.dropFirst("segment".count).prefix(5) ?? "")
        }
        // The probe bounds what is queued at 360p: segments 0–4 alone (10 s) and at most one
        // more under a loaded machine; without it hlsdemux2 fetched 0–9. Which rendition comes
        // first depends on the measurements (1080p alone on this machine; 720p then 1080p under
        // the whole suite's load), so it is not asserted here: `make bench` has the figures.
        let low = run.segments("360").compactMap(index)
        XCTAssertLessThanOrEqual(low.max() ?? 0, 5, "360p only within the first 10–12 s of media: \(run.requests.map(\.path))")
        let higher = Set(run.segments("720").compactMap(index) + run.segments("1080").compactMap(index))
        XCTAssertTrue(higher.contains(6), "a higher rendition from the 12th second on: \(run.requests.map(\.path))")
        XCTAssertEqual(run.stalls.count, 0, "\(run.stalls)")
    }

    /// Pinned at 360p, the rendition stays when the bandwidth rises from 1 to 8 Mbit/s.
    func testAPinnedRenditionStaysWhenTheBandwidthRises() throws {
        let run = try play(schedule: [(0, 1_000_000), (5, 8_000_000)], seconds: 16, arguments: ["--quality", "360p"])
        XCTAssertEqual(run.renditions, ["360 start"], "one rendition event, the pin: \(run.renditions)")
        XCTAssertEqual(run.named("rendition").first?["mode"] as? String, "manual")
        XCTAssertGreaterThanOrEqual(run.segments("360").count, 6)
        XCTAssertEqual(run.segments("720").count + run.segments("1080").count, 0,
                       "only 360p on the wire: \(run.requests.map(\.path))")
        XCTAssertEqual(run.stalls.count, 0, "\(run.stalls)")
    }

    /// 1080p → 360p → auto over the socket at a steady 8 Mbit/s: each switch reconfigures the
    /// running hlsdemux2, so the position runs on with the wall clock (no reload, no seek) and
    /// playback never waits for more than half a second.
    func testSwitchingRenditionsKeepsThePositionWithoutWaiting() throws {
        TestMedia.ensureGenerated()
        let server = try ThrottleServer(root: TestMedia.url("hls/abr"), schedule: [(0, 8_000_000)])
        defer { server.stop() }
        let dir = TestMedia.temporaryDirectory("reel-abr-switch")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--headless", "--events", "--ipc", socket, "--quality", "1080p", "--audio-sink", "fakesink sync=true",
                                          "--video-sink", "fakesink sync=true", server.url("master.m3u8")])
        defer { reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "tick" && ($0["position"] as? Double ?? 0) >= 4 })
        let toLow = Date()
        XCTAssertEqual(c.request(["set_property", "rendition", "360p"], id: 1)?["error"] as? String, "success")
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "tick" && ($0["position"] as? Double ?? 0) >= 10 })
        XCTAssertEqual(c.request(["set_property", "rendition", "auto"], id: 2)?["error"] as? String, "success")
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "tick" && ($0["position"] as? Double ?? 0) >= 16 })
        let rendition = try XCTUnwrap(c.request(["get_property", "rendition"], id: 3)?["data"] as? [String: Any])
        XCTAssertEqual(rendition["mode"] as? String, "auto")
        let info = try XCTUnwrap(c.request(["get_property", "media-info"], id: 4)?["data"] as? [String: Any])
        XCTAssertEqual((info["rendition"] as? [String: Any])?["index"] as? Int, rendition["index"] as? Int, "media-info carries the rendition")
        XCTAssertNotNil(rendition["index"] as? Int, "auto pins one rendition (Reel's rule)")
        reel.process.terminate()
        reel.finish(timeout: 10)

        let events = reel.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        let names = events.compactMap { $0["event"] as? String }
        let heights = events.filter { $0["event"] as? String == "rendition" }.map { "\($0["height"] as? Int ?? 0) \($0["mode"] as? String ?? "") \($0["reason"] as? String ?? "")" }
        XCTAssertEqual(Array(heights.prefix(2)), ["1080 manual start", "360 manual manual"], "\(heights)")
        XCTAssertEqual(heights.dropFirst(2).first?.hasSuffix("auto manual"), true, "\(heights)")
        XCTAssertEqual(names.filter { $0 == "item" }.count, 1, "no reload")
        XCTAssertFalse(names.contains("seeked"), "no seek")
        // Once playing, the position follows the wall clock from tick to tick (± 0.25 s).
        let ticks = events.filter { $0["event"] as? String == "tick" && $0["every"] as? Int == 1 }
            .compactMap { e -> (t: Double, p: Double)? in
                guard let t = e["t"] as? Double, let p = e["position"] as? Double else { return nil }
                return (t, p)
            }
        XCTAssertGreaterThan(ticks.count, 12)
        for (a, b) in zip(ticks, ticks.dropFirst()) {
            XCTAssertEqual(b.p - a.p, b.t - a.t, accuracy: 0.25, "tick at \(a.t) → \(b.t): position \(a.p) → \(b.p)")
        }
        // Waiting after the start: none longer than half a second.
        var playing = false, since: Double?
        for e in events where e["event"] as? String == "time-control" {
            let t = e["t"] as? Double ?? 0
            if e["status"] as? String == "playing" {
                if let s = since { XCTAssertLessThan(t - s, 0.5, "waited \(t - s) s at \(s)") }
                since = nil
                playing = true
            } else if e["status"] as? String == "waiting", playing, since == nil {
                since = t
            }
        }
        // On the wire: 360p after the first switch.
        let switchedAt = server.requests.first { $0.path.hasPrefix("/360/") && $0.path.hasSuffix(".ts") }
        XCTAssertNotNil(switchedAt, "360p segments were fetched after the switch at \(toLow)")
    }
}
