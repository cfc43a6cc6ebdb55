import Foundation
import ReelTestSupport
import XCTest

/// `reel check --watch` (issue 34) on real live servers: one that breaks on purpose — its playlist
/// stops moving for 10 s, its media sequence jumps, its PROGRAM-DATE-TIME moves by 5 s, it lists a
/// segment that 404s — gets exactly those four problems, at their times; a healthy one gets none.
final class LiveWatchCheckTests: XCTestCase {
    func testAFaultyLiveServerGetsItsFourProblemsAtTheirTimesAndAHealthyOneNone() throws {
        let faulty = try LiveEventServer(faults: ["stall:6:10", "skip:22", "drift:28:5", "missing:34"])
        let healthy = try LiveEventServer()
        defer {
            faulty.stop()
            healthy.stop()
        }
        let dir = TestMedia.temporaryDirectory("reel-watch")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The faulty server's stall would freeze the picture too: it is not photographed there
        // (--watch-frames 0), only its playlists are followed; the healthy one is, every 10 s.
        func start(_ url: String, _ name: String, frames: String) throws -> BackgroundProcess {
            try BackgroundProcess(ProcessRunner.reelExecutable, ["check", "--watch", "40", "--watch-frames", frames, "--frames-only", "--at", "1",
                                                                 "--junit", dir.appendingPathComponent("\(name).xml").path,
                                                                 "--report", dir.appendingPathComponent(name).path, url])
        }
        let runs = [try start(faulty.masterURL, "faulty", frames: "0"), try start(healthy.masterURL, "healthy", frames: "10")]
        let ends = runs.map { $0.finish(timeout: 120) }
        func report(_ name: String) throws -> [String: Any] {
            // No report: how that run ended says why (a CI run once had none for the faulty one).
            let run = name == "faulty" ? 0 : 1
            let data = try XCTUnwrap(FileManager.default.contents(atPath: dir.appendingPathComponent("\(name)/report.json").path),
                                     "\(name): no report.json; exit \(ends[run].status)\(ends[run].killed ? " (killed)" : ""): \(runs[run].stderr.suffix(3000))")
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        func watch(_ name: String) throws -> [String: Any] {
            try XCTUnwrap((try report(name)["items"] as? [[String: Any]])?.first?["watch"] as? [String: Any], "\(name): \(runs.map(\.stderr))")
        }

        XCTAssertEqual(ends[1].status, 0, "healthy: \(runs[1].stderr)")
        let calm = try watch("healthy")
        XCTAssertEqual((calm["timeline"] as? [[String: Any]])?.count, 0, "a healthy server has no problem: \(calm)")
        XCTAssertGreaterThan(calm["reloads"] as? Int ?? 0, 30, "reloaded every half target duration for 40 s")
        XCTAssertGreaterThan(calm["segmentsFetched"] as? Int ?? 0, 15, "every new segment fetched")
        // Photographed every 10 s while it played: pictures that move, neither black nor frozen.
        let photos = ((try report("healthy")["items"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]] ?? [])
            .filter { ($0["requested"] as? String)?.hasPrefix("watch") == true }
        XCTAssertGreaterThanOrEqual(photos.count, 3, "\(photos)")
        for photo in photos {
            let file = try XCTUnwrap(photo["file"] as? String, "\(photo)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("healthy/\(file)").path))
        }

        XCTAssertEqual(ends[0].status, 1, "faulty: the problems fail the item")
        let broken = try watch("faulty")
        let timeline = try XCTUnwrap(broken["timeline"] as? [[String: Any]])
        XCTAssertEqual(timeline.compactMap { $0["code"] as? String }, ["playlist-stale", "media-sequence-skip", "pdt-drift", "segment-unavailable"],
                       "\(timeline)")
        // Times: the report's are since the watch began, 0–8 s after the server started (reel's
        // start, the probe, the first frame); the faults' are since the server started. The stall
        // from 6 s is seen when no new segment came for 1.5 × 2 s and a reload (by ~10 s); the jump
        // at 22 s at the next reload, the drift at 28 s at the next new segment, the segment that
        // answers 404 when it is listed at 34 s.
        let times = timeline.compactMap { $0["at"] as? Double }
        for (time, (serverTime, within)) in zip(times, [(10.0, 3.0), (22.0, 2.0), (28.0, 3.0), (34.0, 3.0)]) {
            XCTAssertGreaterThanOrEqual(time, serverTime - 9, "\(timeline)")
            XCTAssertLessThanOrEqual(time, serverTime + within, "\(timeline)")
        }
        let junit = try String(contentsOf: dir.appendingPathComponent("faulty.xml"), encoding: .utf8)
        for code in ["playlist-stale", "media-sequence-skip", "pdt-drift", "segment-unavailable"] {
            XCTAssertTrue(junit.contains("type=\"\(code)\""), "JUnit: a failed case for \(code)")
        }
        XCTAssertTrue(junit.contains("reel.check.watch") && junit.contains("variant-lagging"), "JUnit: one case per rule")
        let html = try String(contentsOf: dir.appendingPathComponent("faulty/index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<svg") && html.contains("playlist-stale"), "index.html: the variant's timeline")
    }

    /// A server whose segments hang on the watcher's probe (issue 46, item 8: `--watch 12` ran
    /// 211 s, 22 probes × 10 s one after the other): the watch ends at its duration, and the
    /// segments it did not get to are reported as not probed.
    func testAWatchEndsAtItsDurationWhenEveryProbeHangs() throws {
        let server = try LiveEventServer(faults: ["hang-ranged:0"])
        defer { server.stop() }
        let dir = TestMedia.temporaryDirectory("reel-watch-hang")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try BackgroundProcess(ProcessRunner.reelExecutable, ["check", "--watch", "12", "--watch-frames", "0", "--frames-only", "--at", "1",
                                                                      "--report", dir.path, server.masterURL])
        let end = run.finish(timeout: 90)
        XCTAssertFalse(end.killed, "the watch ended by itself: \(run.stderr.suffix(1500))")
        let data = try Data(contentsOf: dir.appendingPathComponent("report.json"))
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let watch = try XCTUnwrap((report["items"] as? [[String: Any]])?.first?["watch"] as? [String: Any], run.stderr)
        XCTAssertEqual(watch["duration"] as? Double, 12)
        let codes = (watch["timeline"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        XCTAssertTrue(codes.contains("not-probed"), "the segments it did not get to are said: \(codes) \(run.stderr.suffix(1500))")
        XCTAssertLessThanOrEqual(watch["segmentsFetched"] as? Int ?? 99, 3, "a probe at a time, each bounded by the time left: \(watch)")
    }
}

