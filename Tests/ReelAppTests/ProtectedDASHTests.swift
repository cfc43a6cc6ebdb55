import Foundation
import ReelTestSupport
import XCTest

/// Issue 31: a protected DASH stream as users have them: ffmpeg's DASH muxer (SegmentTemplate with
/// SegmentTimeline, fMP4, video and audio adaptation sets), served by a server on 127.0.0.1 that
/// answers 401 to any request without `Authorization: Bearer …`, played by the real binary with
/// `--header`. Before, the header reached the MPD only (the segments resolved against the
/// gateway's URL of the MPD, which answered with the MPD again: 13 MPD requests, no segment) and
/// Reel waited silently.
final class ProtectedDASHTests: XCTestCase {
    static let token = "Bearer dash-e2e-7c41a9"

    private struct Run {
        var status: Int32
        var events: [[String: Any]]
        var stderr: String
        var seconds: Double
        func named(_ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }
    }

    private func play(_ server: HTTPFixtureServer, header: String, timeout: Double = 60, arguments: [String] = []) throws -> Run {
        let started = Date()
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["--headless", "--events", "--audio-sink", "fakesink sync=false", "--video-sink", "fakesink sync=false",
                                   "--header", "Authorization: \(header)"] + arguments + [server.url("/dash/ffmpeg/manifest.mpd").absoluteString],
                                  timeout: timeout)
        XCTAssertFalse(r.timedOut, "reel ended by itself: \(r.stderr.suffix(600))")
        let events = r.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        return Run(status: r.status, events: events, stderr: r.stderr, seconds: Date().timeIntervalSince(started))
    }

    private func server() throws -> HTTPFixtureServer {
        TestMedia.ensureGenerated()
        let dash = TestMedia.directory.appendingPathComponent("dash")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: dash.appendingPathComponent("ffmpeg/manifest.mpd").path), "no ffmpeg: no dash/ffmpeg")
        let server = try HTTPFixtureServer(host: "127.0.0.1")
        server.serveDirectory(dash, at: "/dash")
        server.requireHeader("Authorization", Self.token)
        return server
    }

    func testEveryRequestCarriesTheHeaderAndTheStreamPlaysToItsEnd() throws {
        let server = try server()
        defer { server.shutdown() }
        let run = try play(server, header: Self.token)
        XCTAssertEqual(run.status, 0, "played to the end: \(run.stderr.suffix(800))")
        XCTAssertTrue(run.named("error").isEmpty, "\(run.named("error"))")
        let requests = server.requests
        let paths = requests.map(\.path)
        // A static MPD is asked for once: the gateway tells Reel its renditions as it serves it
        // to the demuxer (`RenditionAnnouncer`), and nothing loops.
        XCTAssertEqual(paths.filter { $0.hasSuffix(".mpd") }.count, 1, "\(paths)")
        XCTAssertTrue(paths.contains { $0.hasPrefix("/dash/ffmpeg/init-stream") }, "init segments: \(paths)")
        let video = paths.filter { $0.hasPrefix("/dash/ffmpeg/chunk-stream0-") || $0.hasPrefix("/dash/ffmpeg/chunk-stream1-") }
        let audio = paths.filter { $0.hasPrefix("/dash/ffmpeg/chunk-stream2-") }
        XCTAssertEqual(Set(video.map { $0.suffix(9) }).count, 4, "every video segment of the 8 s: \(paths)")
        XCTAssertEqual(audio.count, 4, "every audio segment: \(paths)")
        for r in requests {
            XCTAssertEqual(r.header("Authorization"), Self.token, "\(r)")
            XCTAssertEqual(r.status / 100, 2, "\(r)")
        }
        XCTAssertFalse(run.stderr.contains("dash-e2e-7c41a9"), "the token is never printed")
        // What plays is named: dashdemux2's streams carry caps that are not fixed (a CRITICAL
        // from GStreamer's codec description and `videoCodec: null` before).
        let info = try XCTUnwrap(run.named("media-info").last)
        XCTAssertTrue((info["videoCodec"] as? String)?.contains("H.264") == true, "\(info)")
        XCTAssertNotNil(info["audioCodec"] as? String, "\(info)")
        XCTAssertFalse(run.stderr.contains("CRITICAL"), run.stderr)
        XCTAssertFalse(run.events.description.contains("dash-e2e-7c41a9"))
    }

    /// An MPD on the origin whose segments live on a CDN (an absolute `BaseURL` at the Period, as
    /// packagers write for a CDN; another host, 127.0.0.2): the header goes to the origin only,
    /// unless the CDN is named with `--header-host`; it plays to its end either way.
    func testACDNBaseURLGetsTheHeaderOnlyWhenNamed() throws {
        let origin = try server()
        defer { origin.shutdown() }
        let cdn = try HTTPFixtureServer(host: "127.0.0.2")
        defer { cdn.shutdown() }
        cdn.serveDirectory(TestMedia.directory.appendingPathComponent("dash/ffmpeg"), at: "/cdn")
        let mpd = try String(contentsOf: TestMedia.url("dash/ffmpeg/manifest.mpd"), encoding: .utf8)
        let onCDN = try XCTUnwrap(mpd.range(of: "<Period[^>]*>", options: .regularExpression).map {
            mpd.replacingCharacters(in: $0, with: mpd[$0] + "<BaseURL>\(cdn.baseURL)/cdn/</BaseURL>")
        })
        origin.serve("/cdn.mpd", .data(Data(onCDN.utf8), contentType: "application/dash+xml"))
        for named in [false, true] {
            origin.clearRequests()
            cdn.clearRequests()
            let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                      ["--headless", "--events", "--audio-sink", "fakesink sync=false", "--video-sink", "fakesink sync=false",
                                       "--header", "Authorization: \(Self.token)"] + (named ? ["--header-host", "127.0.0.2"] : [])
                                      + [origin.url("/cdn.mpd").absoluteString], timeout: 60)
            XCTAssertEqual(r.status, 0, "named: \(named): \(r.stderr.suffix(600))")
            XCTAssertEqual(origin.requests.map(\.path), ["/cdn.mpd"], "only the MPD from the origin")
            XCTAssertTrue(origin.requests.allSatisfy { $0.header("Authorization") == Self.token })
            let segments = cdn.requests
            XCTAssertGreaterThanOrEqual(segments.filter { $0.path.hasPrefix("/cdn/chunk-stream2-") }.count, 4, "every audio segment from the CDN")
            XCTAssertTrue(segments.allSatisfy { $0.header("Authorization") == (named ? Self.token : nil) },
                          "named: \(named): \(segments.map { "\($0.path) \($0.header("Authorization") ?? "-")" })")
        }
    }

    /// A wrong header: the first request is refused, and Reel says so at once (not-authorized,
    /// naming the manifest), never a silent wait.
    func testAWrongHeaderFailsAsNotAuthorized() throws {
        let server = try server()
        defer { server.shutdown() }
        let run = try play(server, header: "Bearer wrong-value-123", timeout: 30)
        XCTAssertNotEqual(run.status, 0)
        let error = try XCTUnwrap(run.named("error").first?["error"] as? [String: Any], "an error event: \(run.events.suffix(4)) \(run.stderr.suffix(400))")
        XCTAssertEqual(error["code"] as? String, "not-authorized", "\(error)")
        XCTAssertEqual(error["httpStatus"] as? Int, 401, "\(error)")
        XCTAssertTrue((error["message"] as? String)?.contains("refused the stream's manifest") == true, "\(error)")
        XCTAssertLessThan(run.seconds, 15, "no wait for a refusal")
        XCTAssertFalse(run.stderr.contains("wrong-value-123") || run.events.description.contains("wrong-value-123"), "the header is never printed")
    }

    /// The header is right but the media is refused (a CDN that rejects the segments, as an
    /// expired signature is): the refusal of a segment is the error, naming the segment, at once.
    func testARefusedSegmentFailsAsNotAuthorizedNamingTheSegment() throws {
        let server = try server()
        defer { server.shutdown() }
        for stream in 0...2 { server.misbehave("/dash/ffmpeg/chunk-stream\(stream)-00001.m4s", Array(repeating: .status(403), count: 20)) }
        let run = try play(server, header: Self.token, timeout: 30)
        XCTAssertNotEqual(run.status, 0)
        let error = try XCTUnwrap(run.named("error").first?["error"] as? [String: Any], "an error event: \(run.events.suffix(4)) \(run.stderr.suffix(400))")
        XCTAssertEqual(error["code"] as? String, "not-authorized", "\(error)")
        XCTAssertEqual(error["httpStatus"] as? Int, 403, "\(error)")
        XCTAssertTrue((error["message"] as? String)?.contains("refused the segment") == true, "\(error)")
        XCTAssertTrue((error["uri"] as? String)?.contains("chunk-stream") == true, "\(error)")
        XCTAssertLessThan(run.seconds, 15, "no wait for a refusal")
    }

    /// `--quality` on DASH: the MPD's video Representations are the renditions, and a pin is
    /// what the server sends (360p: Representation 0's segments; 720p: 1's, after at most the
    /// first fragment of 0: dashdemux2 1.22 starts every video stream at its lowest
    /// Representation (`gst_mpd_client2_setup_streaming`) whatever its bitrate properties say,
    /// and applies them from the second fragment; the gateway holds the MPD until the pin is on).
    func testAQualityPinIsWhatTheServerSends() throws {
        let server = try server()
        defer { server.shutdown() }
        for (choice, kept, other) in [("360p", "chunk-stream0-", "chunk-stream1-"), ("720p", "chunk-stream1-", "chunk-stream0-")] {
            let before = server.requests.count
            let run = try play(server, header: Self.token, arguments: ["--quality", choice])
            XCTAssertEqual(run.status, 0, "\(choice): \(run.stderr.suffix(600))")
            let paths = server.requests.dropFirst(before).map(\.path)
            XCTAssertGreaterThanOrEqual(paths.filter { $0.contains(kept) }.count, 3, "\(choice): \(paths)")
            let firstKept = try XCTUnwrap(paths.firstIndex { $0.contains(kept) })
            XCTAssertEqual(paths[firstKept...].filter { $0.contains(other) }.count, 0, "\(choice): only the pinned Representation's media once pinned: \(paths)")
            XCTAssertLessThanOrEqual(paths.filter { $0.contains(other) }.count, choice == "720p" ? 1 : 0, "\(choice): \(paths)")
            // What is said is what is fetched (`DASHMediaMatcher`): dashdemux2's first fragment at
            // 360p is the demuxer's, then the pin.
            let said = run.named("rendition").map { "\($0["height"] as? Int ?? 0) \($0["reason"] as? String ?? "")" }
            XCTAssertEqual(said, choice == "720p" ? ["360 demuxer", "720 start"] : ["360 start"], "\(choice): \(run.named("rendition"))")
            XCTAssertTrue(run.named("rendition").allSatisfy { $0["mode"] as? String == "manual" })
        }
    }

    /// Catchup at the origin (`--timeshift-url`): the origin answers the programme as a static MPD
    /// (here the VOD), Reel never asks for the live MPD, plays the origin's to its end, the header
    /// on every request; events name the item's own URL.
    func testCatchupAtTheOriginPlaysWhatTheOriginServes() throws {
        let server = try server()
        defer { server.shutdown() }
        let live = server.url("/live/manifest.mpd").absoluteString
        let origin = server.url("/dash/ffmpeg/manifest.mpd").absoluteString + "?start={start_epoch}&end={end_epoch}"
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["--headless", "--events", "--audio-sink", "fakesink sync=false", "--video-sink", "fakesink sync=false",
                                   "--header", "Authorization: \(Self.token)", "--live-mode", "catchup",
                                   "--program-start", "2026-11-24T20:00:00Z", "--program-end", "2026-11-24T20:00:08Z",
                                   "--timeshift-url", origin, live], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr.suffix(800).description)
        let events = r.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        XCTAssertNotNil(events.first { $0["event"] as? String == "end" }, "to its end")
        XCTAssertEqual(events.first { $0["event"] as? String == "item" }?["uri"] as? String, live)
        let requests = server.requests
        XCTAssertFalse(requests.contains { $0.path.hasPrefix("/live/") }, "the live MPD is never asked for: \(requests.map(\.uri))")
        let mpds = requests.filter { $0.path == "/dash/ffmpeg/manifest.mpd" }
        XCTAssertEqual(mpds.map(\.uri), ["/dash/ffmpeg/manifest.mpd?start=1795550400&end=1795550408"])
        XCTAssertTrue(requests.contains { $0.path.hasPrefix("/dash/ffmpeg/chunk-stream2-") }, "its segments")
        XCTAssertTrue(requests.allSatisfy { $0.header("Authorization") == Self.token }, "the header on every request")
    }
}
