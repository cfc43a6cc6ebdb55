import Foundation
import ReelCore
import ReelTestSupport
import Synchronization
import XCTest

/// `reel check --watch` on live DASH, from outside: ffmpeg's live packager served as it writes
/// (healthy: no rule broken), and the same stream through a faulty origin that rewrites each MPD
/// it serves — a frozen copy (stale), `publishTime` going back, a Representation whose segments
/// 404, one whose timeline stops, a Period that leaves a gap, a `UTCTiming` clock 9 s ahead —
/// each found, with its time, in report.json and JUnit.
final class DASHWatchCheckTests: XCTestCase {
    private final class Faults: Sendable {
        let stop = Mutex(false)
        let updates = Mutex(0)
    }

    private static func watch(_ url: String, in dir: URL, name: String) throws -> (ProcessRunner.Result, CheckReport.Item?, String) {
        let report = dir.appendingPathComponent(name)
        let junit = dir.appendingPathComponent("\(name).xml")
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--frames-only", "--at", "0", "--watch", "12", "--watch-frames", "0",
                                                                 "--junit", junit.path, "--report", report.path, url], timeout: 120)
        let item = (try? Data(contentsOf: report.appendingPathComponent("report.json"))).flatMap { try? CheckReport.decode($0) }?.items.first
        return (r, item, (try? String(contentsOf: junit, encoding: .utf8)) ?? "")
    }

    func testAHealthyLiveMPDBreaksNoRuleAndAFaultyOneBreaksEach() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "no ffmpeg")
        let server = try HTTPFixtureServer(host: "127.0.0.1")
        defer { server.shutdown() }
        let packager = try LiveDASHPackager(timeline: true, utcTiming: server.url("/live/time"))
        defer { packager.stop() }
        server.serveLiveDirectory(packager.directory, at: "/live")
        server.serveLiveDirectory(packager.directory, at: "/bad")
        server.serveLiveDirectory(packager.directory, at: "/stale")
        server.serve("/live/time", .clock)
        // Three segments written: the window has a past.
        let until = Date().addingTimeInterval(30)
        while packager.manifest.components(separatedBy: "<S ").count < 3 || !packager.manifest.contains("r=\"2\""), Date() < until { Thread.sleep(forTimeInterval: 0.2) }
        let first = packager.manifest
        XCTAssertTrue(first.contains("type=\"dynamic\""), first)
        server.serve("/stale/manifest.mpd", .data(Data(first.utf8), contentType: "application/dash+xml"))
        let frozenAudio = try XCTUnwrap(Self.timelines(first).last, "ffmpeg's audio timeline")
        // The video segments numbered from 3 after the newest now are missing at the faulty origin
        // (listed in its MPD all the same): the watch meets them a few seconds in.
        let newest = Self.segmentCount(try XCTUnwrap(Self.timelines(first).first))  // numbers start at 1
        for k in (newest + 3)...(newest + 12) {
            server.serve("/bad/chunk-stream0-\(String(format: "%05d", k)).m4s", .status(404))
        }

        // The faulty origin: every 0.3 s, ffmpeg's newest MPD rewritten.
        let faults = Faults()
        let anchor = try XCTUnwrap(packager.anchor)
        let manifest = packager.directory.appendingPathComponent("manifest.mpd")
        let writer = Thread {
            var n = 0
            let iso = ISO8601DateFormatter()
            iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            while !faults.stop.withLock({ $0 }) {
                var text = (try? String(contentsOf: manifest, encoding: .utf8)) ?? ""
                if let audio = Self.timelines(text).last, let range = text.range(of: audio, options: .backwards) {
                    text.replaceSubrange(range, with: frozenAudio)  // the audio's timeline stops
                }
                if n % 3 == 2, let p = text.range(of: #"publishTime="[^"]+""#, options: .regularExpression) {
                    text.replaceSubrange(p, with: "publishTime=\"\(iso.string(from: anchor))\"")  // now and then an older one
                }
                if let u = text.range(of: #"<UTCTiming[^>]*/>"#, options: .regularExpression) {
                    text.replaceSubrange(u, with: "<UTCTiming schemeIdUri=\"urn:mpeg:dash:utc:direct:2014\" value=\"\(iso.string(from: Date().addingTimeInterval(9)))\"/>")
                }
                if (n / 10) % 2 == 1, let end = text.range(of: "</Period>") {
                    // Now and then, a Period 20 s after the first one's newest segment: a gap.
                    text.insert(contentsOf: "\n<Period id=\"later\" start=\"PT\(Int(Date().timeIntervalSince(anchor)) + 20)S\"></Period>", at: end.upperBound)
                }
                server.serve("/bad/manifest.mpd", .data(Data(text.utf8), contentType: "application/dash+xml"))
                n += 1
                faults.updates.withLock { $0 = n }
                Thread.sleep(forTimeInterval: 0.3)
            }
        }
        writer.start()
        defer { faults.stop.withLock { $0 = true } }
        while faults.updates.withLock({ $0 }) == 0 { Thread.sleep(forTimeInterval: 0.05) }

        let dir = TestMedia.temporaryDirectory("reel-dash-watch")
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = ["live", "bad", "stale"]
        let results = Mutex<[String: (ProcessRunner.Result, CheckReport.Item?, String)]>([:])
        DispatchQueue.concurrentPerform(iterations: names.count) { i in
            let outcome = try? Self.watch(server.url("/\(names[i])/manifest.mpd").absoluteString, in: dir, name: names[i])
            results.withLock { $0[names[i]] = outcome }
        }
        let all = results.withLock { $0 }

        // Healthy: watched (reloaded, segments fetched), no rule broken.
        let (live, liveItem, liveJUnit) = try XCTUnwrap(all["live"])
        XCTAssertEqual(live.status, 0, "\(liveItem?.problems ?? []) \(live.stderr)")
        let healthy = try XCTUnwrap(liveItem?.watch, "report.json has the watch: \(live.stderr)")
        XCTAssertEqual(healthy.format, "dash")
        XCTAssertGreaterThan(healthy.reloads, 10)
        XCTAssertGreaterThan(healthy.segmentsFetched, 4)
        XCTAssertEqual(healthy.timeline.filter { $0.severity == .error }, [])
        XCTAssertTrue(liveJUnit.contains(#"name="000 manifest: timeline-mismatch""#), liveJUnit)
        XCTAssertTrue(liveJUnit.contains(#"failures="0""#), liveJUnit)

        // Faulty: each rule, with the Representation it is about.
        let (bad, badItem, badJUnit) = try XCTUnwrap(all["bad"])
        XCTAssertEqual(bad.status, 1, bad.stderr)
        let timeline = try XCTUnwrap(badItem?.watch?.timeline, "\(badItem?.error.map { "\($0)" } ?? "no error") \(bad.stderr)")
        let codes = Set(timeline.map(\.code))
        for code in ["segment-unavailable", "publish-time-backwards", "availability-clock", "representation-lagging", "period-change", "period-gap"] {
            XCTAssertTrue(codes.contains(code), "\(code) in \(timeline.map { "\($0.at) \($0.variant) \($0.code): \($0.message)" })")
        }
        XCTAssertEqual(timeline.first { $0.code == "segment-unavailable" }?.variant, "0", "the video Representation")
        XCTAssertTrue(timeline.first { $0.code == "segment-unavailable" }?.message.contains("answered HTTP 404") == true)
        XCTAssertEqual(timeline.first { $0.code == "representation-lagging" }?.variant, "1", "the audio, whose timeline stopped")
        XCTAssertTrue(badJUnit.contains(#"type="segment-unavailable""#), badJUnit)
        XCTAssertTrue(["+8.", "+9."].contains { bad.stderr.contains("the MPD's UTCTiming clock is \($0)") }, "the offset measured: \(bad.stderr)")

        // Stale: a frozen MPD.
        let (stale, staleItem, _) = try XCTUnwrap(all["stale"])
        XCTAssertEqual(stale.status, 1, stale.stderr)
        let staleCodes = staleItem?.watch?.timeline.map(\.code) ?? []
        XCTAssertTrue(staleCodes.contains("mpd-stale"), "\(staleItem?.watch?.timeline ?? [])")
    }

    /// A protected live MPD: its origin refuses the watcher's plain request, so the MPD is read
    /// through the gateway (with the header), on this machine's clock; healthy all the same, and
    /// the origin saw the header on every request.
    func testAProtectedLiveMPDIsWatchedThroughTheGateway() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "no ffmpeg")
        let token = "Bearer dash-watch-62"
        let (packager, server) = try LiveDASHPackager.slidAndServed(header: ("Authorization", token))
        defer { packager.stop(); server.shutdown() }
        let dir = TestMedia.temporaryDirectory("reel-dash-watch-protected")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--frames-only", "--at", "0", "--watch", "8", "--watch-frames", "0",
                                                                 "--header", "Authorization: \(token)", "--report", dir.path,
                                                                 server.url("/live/manifest.mpd").absoluteString], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("read through the gateway"), r.stderr)
        let item = try XCTUnwrap(try CheckReport.decode(Data(contentsOf: dir.appendingPathComponent("report.json"))).items.first)
        let watch = try XCTUnwrap(item.watch, r.stderr)
        XCTAssertGreaterThan(watch.reloads, 4)
        XCTAssertGreaterThan(watch.segmentsFetched, 1)
        XCTAssertEqual(watch.timeline.filter { $0.severity == .error }, [])
        XCTAssertFalse(r.stderr.contains(token) || r.stdout.contains(token), "the token is never printed")
        let plain = server.requests.filter { $0.header("Authorization") != token }
        XCTAssertEqual(plain.map(\.status).filter { $0 != 401 }, [], "a request without the header is refused, none answered: \(plain)")
    }

    /// How many segments a SegmentTimeline lists (each `S` once and `r` more times).
    static func segmentCount(_ timeline: String) -> Int {
        timeline.components(separatedBy: "<S ").dropFirst().reduce(0) { n, s in
            let r = s.range(of: #"r="(\d+)""#, options: .regularExpression).flatMap { Int(s[$0].dropFirst(3).dropLast()) } ?? 0
            return n + 1 + r
        }
    }

    /// The `<SegmentTimeline>…</SegmentTimeline>` elements of an MPD, in order.
    static func timelines(_ text: String) -> [String] {
        var out: [String] = []
        var rest = text[...]
        while let a = rest.range(of: "<SegmentTimeline>"), let b = rest.range(of: "</SegmentTimeline>", range: a.upperBound..<rest.endIndex) {
            out.append(String(rest[a.lowerBound..<b.upperBound]))
            rest = rest[b.upperBound...]
        }
        return out
    }
}
