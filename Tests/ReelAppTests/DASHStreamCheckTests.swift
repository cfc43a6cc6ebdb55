import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// `reel check` on DASH (issue 31), on ffmpeg's DASH muxer's output served over HTTP: an honest
/// stream passes; one with a segment gone is `missing-segment`; one whose MPD understates a
/// Representation's bitrate is `bandwidth-exceeded`.
final class DASHStreamCheckTests: XCTestCase {
    func testMissingSegmentsAndUnderstatedBandwidthsAreNamed() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-dash-check")
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["clean", "missing", "lying"] {
            try FileManager.default.copyItem(at: TestMedia.url("dash/ffmpeg"), to: dir.appendingPathComponent(name))
        }
        try FileManager.default.removeItem(at: dir.appendingPathComponent("missing/chunk-stream1-00003.m4s"))
        let lying = dir.appendingPathComponent("lying/manifest.mpd")
        try String(contentsOf: lying, encoding: .utf8).replacingOccurrences(of: "bandwidth=\"500000\"", with: "bandwidth=\"300000\"")
            .write(to: lying, atomically: true, encoding: .utf8)
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(dir, at: "/d")
        func codes(_ name: String) throws -> [String] {
            let report = dir.appendingPathComponent("report-\(name)")
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--frames-only", "--at", "1", "--report", report.path,
                                                                     server.url("/d/\(name)/manifest.mpd").absoluteString], timeout: 120)
            let parsed = try CheckReport.decode(Data(contentsOf: report.appendingPathComponent("report.json")))
            // The player may reach the missing segment itself (a 404 then fails the item too).
            if name != "missing" { XCTAssertNil(parsed.items.first?.error, "\(name): \(r.stderr)") }
            return parsed.items.first?.problems.map(\.code) ?? []
        }
        XCTAssertEqual(try codes("clean"), [], "ffmpeg's own bandwidths hold (within 10 %)")
        XCTAssertEqual(try codes("missing"), ["missing-segment"])
        XCTAssertEqual(try codes("lying"), ["bandwidth-exceeded"])
    }
}

/// An MPD that a server answers with an empty 200: Reel reports it and exits; it did not survive
/// it (FoundationXML dereferenced NULL in the gateway's rewrite: SIGSEGV).
final class DASHEmptyManifestTests: XCTestCase {
    func testAnEmptyManifestIsAnErrorNotACrash() throws {
        let dir = TestMedia.temporaryDirectory("reel-dash-empty")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data().write(to: dir.appendingPathComponent("manifest.mpd"))
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(dir, at: "/e")
        let url = server.url("/e/manifest.mpd").absoluteString
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", url], timeout: 30)
        XCTAssertFalse(r.timedOut)
        XCTAssertNotEqual(r.status, 11, "no SIGSEGV: \(r.stderr.suffix(400))")
        XCTAssertFalse(r.stderr.contains("Signal 11"), r.stderr)
        XCTAssertTrue(r.stdout.contains("\"event\":\"error\""), "an error event: \(r.stdout.suffix(400))")
        let check = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", url], timeout: 30)
        XCTAssertEqual(check.status, 1, check.stdout)
    }
}
