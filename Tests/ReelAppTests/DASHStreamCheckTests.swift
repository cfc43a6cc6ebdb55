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

/// `reel check --renditions all` on DASH: each video Representation played alone (the gateway
/// serves the MPD without the others), photographed and audited, a row each, as HLS variants are.
final class DASHRenditionsCheckTests: XCTestCase {
    static let token = "Bearer dash-renditions-31"

    /// ffmpeg's two Representations (360p, 720p) behind a server that wants the header: a row
    /// each, its frames at its own size, and by the server's log only its own media fetched while
    /// it was checked (all of 360p's before any of 720p's), every request with the header.
    func testEveryRepresentationIsCheckedAloneWithTheHeader() throws {
        TestMedia.ensureGenerated()
        let dash = TestMedia.url("dash/ffmpeg")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: dash.appendingPathComponent("manifest.mpd").path), "no ffmpeg: no dash/ffmpeg")
        let dir = TestMedia.temporaryDirectory("reel-dash-renditions")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try HTTPFixtureServer(host: "127.0.0.1")
        defer { server.shutdown() }
        server.serveDirectory(dash, at: "/d")
        server.requireHeader("Authorization", Self.token)
        let report = dir.appendingPathComponent("report")
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--frames-only", "--at", "1,5", "--renditions", "all",
                                                                "--header", "Authorization: \(Self.token)", "--report", report.path,
                                                                server.url("/d/manifest.mpd").absoluteString], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        let items = try CheckReport.decode(Data(contentsOf: report.appendingPathComponent("report.json"))).items
        XCTAssertEqual(items.map(\.title), ["manifest · 360p", "manifest · 720p"])
        XCTAssertEqual(items.map { $0.frames.compactMap(\.height) }, [[360, 360], [720, 720]], "each photographed at its own size")
        XCTAssertEqual(items.map { $0.problems.map(\.code) }, [[], []])
        let requests = server.requests
        XCTAssertTrue(requests.allSatisfy { $0.header("Authorization") == Self.token }, requests.filter { $0.header("Authorization") != Self.token }.map(\.description).joined(separator: "\n"))
        let paths = requests.map(\.path)
        let last360 = try XCTUnwrap(paths.lastIndex { $0.hasPrefix("/d/chunk-stream0-") }, "\(paths)")
        let first720 = try XCTUnwrap(paths.firstIndex { $0.hasPrefix("/d/chunk-stream1-") }, "\(paths)")
        XCTAssertLessThan(last360, first720, "360p alone, then 720p alone: \(paths)")
    }

    /// A local MPD whose 360p Representation says it is 720p: that row is a resolution mismatch
    /// (what plays is the Representation itself, not the demuxer's pick), the other is clean.
    func testAMislabelledLocalRepresentationIsNamed() throws {
        TestMedia.ensureGenerated()
        let dash = TestMedia.url("dash/ffmpeg")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: dash.appendingPathComponent("manifest.mpd").path), "no ffmpeg: no dash/ffmpeg")
        let dir = TestMedia.temporaryDirectory("reel-dash-renditions-local")
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("stream")
        try FileManager.default.copyItem(at: dash, to: copy)
        let mpd = copy.appendingPathComponent("manifest.mpd")
        try String(contentsOf: mpd, encoding: .utf8)
            .replacingOccurrences(of: #"bandwidth="500000" width="640" height="360""#, with: #"bandwidth="500000" width="1920" height="1080""#)
            .write(to: mpd, atomically: true, encoding: .utf8)
        let report = dir.appendingPathComponent("report")
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--frames-only", "--at", "50%", "--renditions", "all",
                                                                "--report", report.path, mpd.path], timeout: 120)
        XCTAssertEqual(r.status, 1, r.stderr)
        let items = try CheckReport.decode(Data(contentsOf: report.appendingPathComponent("report.json"))).items
        XCTAssertEqual(items.map(\.title), ["manifest · 1080p", "manifest · 720p"])
        XCTAssertEqual(items.map { $0.problems.map(\.code) }, [["resolution-mismatch"], []])
        XCTAssertEqual(items.map(\.height), [360, 720])
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
