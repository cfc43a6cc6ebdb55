import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// `reel check` on HLS streams, as mediastreamvalidator checks them: measured bitrates against
/// BANDWIDTH, segments that start mid-GOP, RESOLUTION against the decoded picture. The streams are
/// made here from the generated HLS media: an honest one, one that lies about its bandwidth, one
/// with a segment cut in the middle of a GOP; served from files and over HTTP.
final class HLSStreamCheckTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        TestMedia.ensureGenerated()
        dir = TestMedia.temporaryDirectory("reel-hls-check")
        try FileManager.default.copyItem(at: TestMedia.url("hls/vod/lo"), to: dir.appendingPathComponent("lo"))
    }

    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    private func segmentBytes() throws -> [Int] {
        try (0..<3).map { try Data(contentsOf: dir.appendingPathComponent(String(format: "lo/segment%05d.ts", $0))).count }
    }

    private func master(bandwidth: Int, average: Int? = nil, resolution: String = "320x180") -> String {
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth)\(average.map { ",AVERAGE-BANDWIDTH=\($0)" } ?? ""),RESOLUTION=\(resolution),FRAME-RATE=30.000,CODECS=\"avc1.42c00d,mp4a.40.2\"\nlo/index.m3u8\n"
    }

    private var lastReport = ""

    private func check(_ playlist: String) throws -> (ProcessRunner.Result, [HLSProblem]) {
        let file = dir.appendingPathComponent(playlist)
        let report = dir.appendingPathComponent("report-\(UUID().uuidString)")
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--frames-only", "--at", "50%", "--report", report.path, file.path], timeout: 120)
        let json = try Data(contentsOf: report.appendingPathComponent("report.json"))
        let parsed = try CheckReport.decode(json)
        // The report, for a status that does not match (once 1 with no problem under load).
        lastReport = String(decoding: json, as: UTF8.self)
        return (r, parsed.items.first?.problems ?? [])
    }

    func testAnHonestStreamPassesAndALyingOneIsNamed() throws {
        let bytes = try segmentBytes()
        let durations = [2.0, 2.0, 1.966666579246521]
        let peak = zip(bytes, durations).map { Double($0 * 8) / $1 }.max()!
        let average = Double(bytes.reduce(0, +) * 8) / durations.reduce(0, +)
        try master(bandwidth: Int(peak * 1.05), average: Int(average)).write(to: dir.appendingPathComponent("clean.m3u8"), atomically: true, encoding: .utf8)
        let (clean, cleanProblems) = try check("clean.m3u8")
        XCTAssertEqual(cleanProblems, [], "an honest stream has nothing to report")
        XCTAssertEqual(clean.status, 0, clean.stderr + lastReport)

        try master(bandwidth: 100_000).write(to: dir.appendingPathComponent("lying.m3u8"), atomically: true, encoding: .utf8)
        let (lying, lyingProblems) = try check("lying.m3u8")
        XCTAssertEqual(lying.status, 1)
        XCTAssertEqual(lyingProblems.map(\.code), ["bandwidth-exceeded"])
        XCTAssertTrue(lyingProblems.first?.message.contains("lo/index.m3u8: the measured peak bitrate \(Int(peak)) bit/s exceeds BANDWIDTH=100000") ?? false,
                      lyingProblems.first?.message ?? "")

        try master(bandwidth: Int(peak * 1.05), average: Int(average) * 2, resolution: "640x360")
            .write(to: dir.appendingPathComponent("wrong.m3u8"), atomically: true, encoding: .utf8)
        let (_, wrongProblems) = try check("wrong.m3u8")
        XCTAssertEqual(Set(wrongProblems.map(\.code)), ["average-bandwidth-mismatch", "resolution-mismatch"])
    }

    func testASegmentCutInTheMiddleOfAGOPIsNamed() throws {
        // Segment 1 cut in two at a packet boundary: its second half starts with no keyframe.
        let whole = try Data(contentsOf: dir.appendingPathComponent("lo/segment00001.ts"))
        let cut = (whole.count / 188 / 2) * 188
        try whole.prefix(cut).write(to: dir.appendingPathComponent("lo/a.ts"))
        try whole.dropFirst(cut).write(to: dir.appendingPathComponent("lo/b.ts"))
        XCTAssertEqual(TransportStreamScan.startsWithKeyframe(whole), true, "hlssink cuts at keyframes")
        XCTAssertEqual(TransportStreamScan.startsWithKeyframe(whole.dropFirst(cut)), false)
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nsegment00000.ts\n#EXTINF:1,\na.ts\n#EXTINF:1,\nb.ts\n#EXT-X-ENDLIST\n"
            .write(to: dir.appendingPathComponent("lo/midgop.m3u8"), atomically: true, encoding: .utf8)
        let (r, problems) = try check("lo/midgop.m3u8")
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(problems.map(\.code), ["segment-not-keyframe"])
        XCTAssertTrue(problems.first?.message.contains("b.ts does not start with a keyframe") ?? false, problems.first?.message ?? "")
    }

    func testOverHTTPTheSameChecksApply() throws {
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(dir.appendingPathComponent("lo"), at: "/s/lo")
        server.serve("/s/master.m3u8", .data(Data(master(bandwidth: 100_000).utf8), contentType: "application/vnd.apple.mpegurl"))
        let report = dir.appendingPathComponent("report-http")
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--frames-only", "--at", "50%", "--report", report.path,
                                                                server.url("/s/master.m3u8").absoluteString], timeout: 120)
        XCTAssertEqual(r.status, 1, r.stderr)
        let problems = try CheckReport.decode(Data(contentsOf: report.appendingPathComponent("report.json"))).items.first?.problems ?? []
        XCTAssertEqual(problems.map(\.code), ["bandwidth-exceeded"])
        XCTAssertEqual(server.requests.filter { $0.path.hasSuffix(".ts") }.map(\.path).filter { $0.hasPrefix("/s/lo/segment") }.count >= 3, true,
                       "every segment measured")
    }
}

extension HLSStreamCheckTests {
    /// Issue 28, item 13: a playlist from the network named local files (it read /etc/passwd into
    /// the bitrate figures) and a FIFO (the check hung). Neither is read: the file segment is
    /// unavailable, a file variant is no rendition, and the run ends.
    func testANetworkPlaylistCannotMakeTheCheckReadLocalFiles() throws {
        let secret = dir.appendingPathComponent("secret.bin")
        try Data(repeating: 0x47, count: 4_000_000).write(to: secret)
        let fifo = dir.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(dir.appendingPathComponent("lo"), at: "/s/lo")
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nlo/segment00000.ts\n#EXTINF:2,\n\(secret.absoluteString)\n#EXTINF:2,\n\(fifo.absoluteString)\n#EXT-X-ENDLIST\n"
        server.serve("/s/media.m3u8", .data(Data(media.utf8), contentType: "application/vnd.apple.mpegurl"))
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=10000000,RESOLUTION=320x180\nmedia.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=20000000,RESOLUTION=320x180\n\(fifo.absoluteString)\n"
        server.serve("/s/master.m3u8", .data(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"))
        let report = dir.appendingPathComponent("report-local")
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--frames-only", "--at", "10%", "--renditions", "all",
                                                                "--report", report.path, server.url("/s/master.m3u8").absoluteString], timeout: 120)
        XCTAssertFalse(r.timedOut, "the check ends: \(r.stderr)")
        let items = try CheckReport.decode(Data(contentsOf: report.appendingPathComponent("report.json"))).items
        XCTAssertFalse(items.contains { $0.title.contains("fifo") }, "a file variant of a network master is no rendition: \(items.map(\.title))")
        let problems = items.flatMap(\.problems)
        XCTAssertTrue(problems.contains { $0.code == "segment-unavailable" && $0.message.contains("secret.bin") }, "\(problems)")
        XCTAssertFalse(problems.contains { $0.code == "bandwidth-exceeded" }, "4 MB of a local file measured nothing: \(problems)")
    }

    /// `--renditions all`: every variant checked and photographed at the same positions, a row
    /// each; a black rendition, a silent one and a wrong aspect ratio are each named.
    func testEveryRenditionIsCheckedAndTheBadOnesAreNamed() throws {
        let report = dir.appendingPathComponent("renditions")
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--renditions", "all", "--at", "25%,75%", "--report", report.path,
                                                                TestMedia.path("hls/renditions/master.m3u8")], timeout: 120)
        XCTAssertEqual(r.status, 1, r.stderr)
        let items = try CheckReport.decode(Data(contentsOf: report.appendingPathComponent("report.json"))).items
        XCTAssertEqual(items.map(\.title), ["master · 180p", "master · 180p", "master · 180p", "master · 240p"])
        XCTAssertEqual(items.map { $0.problems.map(\.code) }, [[], ["black-video"], ["silent-audio"], ["aspect-mismatch", "resolution-mismatch"]])
        XCTAssertEqual(items.map { $0.frames.map(\.requested) }, Array(repeating: ["25%", "75%"], count: 4), "the same positions for each")
        XCTAssertTrue(items.allSatisfy { $0.frames.allSatisfy { $0.file != nil } }, "every rendition photographed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: report.appendingPathComponent("contact-sheet.png").path))

        let clean = dir.appendingPathComponent("clean-renditions")
        let c = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--renditions", "all", "--report", clean.path,
                                                                TestMedia.path("hls/vod/master.m3u8")], timeout: 120)
        XCTAssertEqual(c.status, 0, "the generated two-rendition stream is clean: \(c.stderr)")
        XCTAssertEqual(try CheckReport.decode(Data(contentsOf: clean.appendingPathComponent("report.json"))).items.map(\.title),
                       ["master · 360p", "master · 180p"])
    }
}

extension HLSStreamCheckTests {
    /// An I-frame playlist must point at keyframes: one entry at a segment's start (a keyframe),
    /// one in the middle of its GOP (not one).
    func testAnIFramePlaylistThatPointsBesideAKeyframeIsNamed() throws {
        let segment = try Data(contentsOf: dir.appendingPathComponent("lo/segment00000.ts"))
        let middle = (segment.count / 188 / 4) * 188
        XCTAssertEqual(TransportStreamScan.startsWithKeyframe(segment, at: 0), true)
        XCTAssertEqual(TransportStreamScan.startsWithKeyframe(segment, at: middle), false, "a quarter into a 1 s GOP")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-I-FRAMES-ONLY\n#EXT-X-BYTERANGE:1316@0\n#EXTINF:1,\nlo/segment00000.ts\n#EXT-X-BYTERANGE:1316@\(middle)\n#EXTINF:1,\nlo/segment00000.ts\n#EXT-X-ENDLIST\n"
            .write(to: dir.appendingPathComponent("iframes.m3u8"), atomically: true, encoding: .utf8)
        let bytes = try segmentBytes()
        let peak = zip(bytes, [2.0, 2.0, 1.966666579246521]).map { Double($0 * 8) / $1 }.max()!
        try (master(bandwidth: Int(peak * 1.05)) + "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=100000,URI=\"iframes.m3u8\"\n")
            .write(to: dir.appendingPathComponent("with-iframes.m3u8"), atomically: true, encoding: .utf8)
        let (r, problems) = try check("with-iframes.m3u8")
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(problems.map(\.code), ["iframe-not-keyframe"])
        XCTAssertTrue(problems.first?.message.contains("I-frame 1 (segment00000.ts at byte \(middle))") ?? false, problems.first?.message ?? "")
    }
}

extension HLSStreamCheckTests {
    /// Playback warns (on stderr) about a playlist that breaks RFC 8216, and plays it all the same.
    func testPlaybackWarnsAndPlaysOn() throws {
        try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:2,\nsegment00000.ts\n#EXTINF:2,\nsegment00001.ts\n#EXT-X-ENDLIST\n"
            .write(to: dir.appendingPathComponent("lo/short-target.m3u8"), atomically: true, encoding: .utf8)
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--audio-sink", "fakesink sync=false", "--video-sink", "fakesink sync=false",
                                                                dir.appendingPathComponent("lo/short-target.m3u8").path], timeout: 60)
        XCTAssertEqual(r.status, 0, "played to its end: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("the playlist deviates from RFC 8216 (played anyway): line 3: error: The segment lasts 2.0 s"), r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "deviates from RFC 8216").count - 1, 1, "once")
    }
}
