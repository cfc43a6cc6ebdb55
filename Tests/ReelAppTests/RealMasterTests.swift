import Foundation
import ReelTestSupport
import XCTest

/// HLS masters as real packagers write them (ffmpeg's HLS muxer; masters with AVERAGE-BANDWIDTH,
/// CODECS and FRAME-RATE as RFC 8216 and Apple's authoring spec describe, in either order, with
/// I-frame playlists, a variant that 404s, an alternate audio rendition; TS, fMP4 and byte-range
/// segments: make-media.sh,
/// hls/ffmpeg), played by the real binary from a plain HTTP server on 127.0.0.1, fresh and as a
/// returning user (`ReturningUser`: a remembered throughput and a resume entry). What plays is
/// read from the server's request log, never from what Reel says about itself.
final class RealMasterTests: XCTestCase {
    /// (folder under hls/ffmpeg, master file) of every master fixture.
    static let masters: [(folder: String, master: String)] = [
        ("ts", "master.m3u8"), ("ts", "avg.m3u8"), ("ts", "avg-desc.m3u8"), ("ts", "missing.m3u8"),
        ("fmp4", "master.m3u8"), ("fmp4", "avg.m3u8"), ("range", "avg.m3u8"), ("audio", "master.m3u8"),
    ]

    struct Run: CustomStringConvertible {
        var status: Int32
        var events: [[String: Any]]
        var requests: [HTTPFixtureServer.RecordedRequest]
        var stderr: String

        /// stderr's tail, or for a crash its report's head (what died and where), which a
        /// backtrace's library list would push out of the tail.
        static func crashAware(_ stderr: String) -> String {
            guard let crash = stderr.range(of: "Program crashed") ?? stderr.range(of: "Fatal error") ?? stderr.range(of: "crashed:") else { return String(stderr.suffix(600)) }
            return String(stderr[crash.lowerBound...].prefix(2500))
        }

        func named(_ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }
        /// The variant ("360p", "720p") of every media segment requested, in order.
        var segmentVariants: [String] {
            requests.filter { r in [".ts", ".m4s"].contains { r.path.hasSuffix($0) } }.compactMap { r in
                r.path.split(separator: "/").first { $0.hasSuffix("p") && Int($0.dropLast()) != nil }.map(String.init)
            }
        }
        var renditionHeights: [Int] { named("rendition").compactMap { $0["height"] as? Int } }
        var description: String {
            "status \(status), renditions \(named("rendition").map { "\($0["height"] ?? "-") \($0["reason"] ?? "-")" }), "
                + "segments \(segmentVariants), errors \(named("error")), stderr: \(Self.crashAware(stderr))"
        }
    }

    /// Plays one master to its end as fast as the sinks take it (`--headless` exits at the end).
    private func play(_ folder: String, _ master: String, as user: ReturningUser, _ arguments: [String] = []) throws -> Run {
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.url("hls/ffmpeg/\(folder)"), at: "/s")
        let url = server.url("/s/\(master)").absoluteString
        let state = try user.stateDirectory(resuming: url, at: 6, of: 20)
        defer { try? FileManager.default.removeItem(at: state) }
        let result = ProcessRunner.run(ProcessRunner.reelExecutable,
                                       ["--headless", "--events", "--audio-sink", "fakesink sync=false", "--video-sink", "fakesink sync=false"]
                                           + arguments + [url],
                                       timeout: 60, environment: ["XDG_STATE_HOME": state.path])
        let events = result.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        return Run(status: result.status, events: events, requests: server.requests, stderr: result.stderr)
    }

    private func assertPlayed(_ run: Run, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 0, "\(what): plays to its end, never dies (\(run))", file: file, line: line)
        XCTAssertEqual(run.named("end").count, 1, "\(what): \(run)", file: file, line: line)
        XCTAssertTrue(run.named("error").isEmpty, "\(what): \(run)", file: file, line: line)
    }

    /// `--quality` at a height, and between heights (480p: the nearest below, 360p), on every
    /// master, fresh and warm: the server is asked for that rendition's segments and no other's,
    /// and Reel says the same. Before the fix, a master with AVERAGE-BANDWIDTH played 720p while
    /// Reel said 360p, and a remembered fast link crashed the second playback.
    func testAPinnedRenditionIsTheOneFetchedOnEveryMasterFreshAndWarm() throws {
        TestMedia.ensureGenerated()
        let pins: [(arg: String, variant: String, height: Int)] = [("360p", "360p", 360), ("720p", "720p", 720), ("480p", "360p", 360)]
        for (m, (folder, master)) in Self.masters.enumerated() {
            for (u, user) in ReturningUser.allCases.enumerated() {
                let pin = pins[(m + u) % pins.count]
                let what = "\(folder)/\(master), \(user), --quality \(pin.arg)"
                let run = try play(folder, master, as: user, ["--quality", pin.arg])
                assertPlayed(run, what)
                XCTAssertFalse(run.segmentVariants.isEmpty, "\(what): \(run)")
                XCTAssertEqual(Set(run.segmentVariants), [pin.variant], "\(what): only the pinned rendition is fetched. \(run)")
                XCTAssertEqual(Set(run.renditionHeights), [pin.height], "\(what): and that is what Reel reports. \(run)")
                XCTAssertEqual(run.named("rendition").first?["mode"] as? String, "manual", what)
            }
        }
    }

    /// Auto on every master, fresh and with a fast or slow link remembered: it plays to the end,
    /// and the first segment fetched is of the rendition Reel says it starts at.
    func testAutoStartsWithTheRenditionItReportsOnEveryMasterFreshAndWarm() throws {
        TestMedia.ensureGenerated()
        for (folder, master) in Self.masters {
            for user in ReturningUser.allCases {
                let what = "\(folder)/\(master), \(user), auto"
                let run = try play(folder, master, as: user)
                assertPlayed(run, what)
                let first = try XCTUnwrap(run.segmentVariants.first, "\(what): \(run)")
                let start = try XCTUnwrap(run.named("rendition").first, "\(what): \(run)")
                XCTAssertEqual(start["reason"] as? String, "start", what)
                XCTAssertEqual("\(start["height"] as? Int ?? 0)p", first, "\(what): the start rendition is the one fetched first. \(run)")
                // One master fetch at start (there were four): the queue builder's look at a
                // `.m3u8` URL (an HLS stream, or an M3U list to expand?) answers the gateway's
                // first request (`GatewayItem.prefetched`), which the demuxer, the playlist reader
                // and the discoverer share (MasterCache).
                XCTAssertEqual(run.requests.filter { $0.path == "/s/\(master)" }.count, 1, "\(what): \(run.requests)")
                if master == "missing.m3u8" {
                    XCTAssertEqual(run.requests.filter { $0.path.hasPrefix("/s/1080p/") }.count, 1, "\(what): the 404 variant is asked for once, when checked")
                    XCTAssertTrue(run.stderr.contains("1080p/index.m3u8 is left out"), run.stderr)
                }
                if user == .fastLink {
                    XCTAssertEqual(first, "720p", "\(what): a fast link remembered starts at the top. \(run)")
                } else if user == .slowLink {
                    XCTAssertEqual(first, "360p", "\(what): a slow link remembered starts at the bottom. \(run)")
                }
            }
        }
    }

    /// `max-bitrate` compares with BANDWIDTH (the peak the link must carry): 2 Mbit/s allows only
    /// 360p (720p's BANDWIDTH is 3.37 M, its AVERAGE-BANDWIDTH 2.84 M); 3 Mbit/s, still only 360p
    /// by BANDWIDTH though 720p's average would fit. `max-height=400` likewise.
    func testACapKeepsToTheRenditionsUnderIt() throws {
        TestMedia.ensureGenerated()
        for (choice, user) in [("max-bitrate=2000000", ReturningUser.fastLink), ("max-bitrate=3000000", .fastLink), ("max-height=400", .fastLink),
                               ("max-bitrate=2000000", .fresh)] {
            let what = "ts/avg-desc.m3u8, \(user), --quality \(choice)"
            let run = try play("ts", "avg-desc.m3u8", as: user, ["--quality", choice])
            assertPlayed(run, what)
            XCTAssertEqual(Set(run.segmentVariants), ["360p"], "\(what): \(run)")
            XCTAssertEqual(Set(run.renditionHeights), [360], "\(what): \(run)")
            XCTAssertEqual(run.named("rendition").first?["mode"] as? String, "auto", what)
        }
    }

    /// Choosing 720p over the socket while 360p plays (the spec master, a returning user): the
    /// server is asked for 720p segments after the switch, and no 360p segment after it has begun.
    func testChoosingARenditionWhilePlayingIsWhatTheServerSees() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        // A little faster than real time, so that the switch comes while segments are still to fetch.
        server.serveDirectory(TestMedia.url("hls/ffmpeg/ts"), at: "/s", bytesPerSecond: 600_000)
        let url = server.url("/s/avg.m3u8").absoluteString
        let state = try ReturningUser.fastLink.stateDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let socket = state.appendingPathComponent("reel.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--headless", "--ipc", socket, "--quality", "360p", "--audio-sink", "fakesink sync=true",
                                          "--video-sink", "fakesink sync=true", url], environment: ["XDG_STATE_HOME": state.path])
        defer { reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "tick" && ($0["position"] as? Double ?? 0) >= 2 }, reel.stderr)
        func segments(_ variant: String, after: Date = .distantPast) -> [String] {
            server.requests.filter { $0.path.hasPrefix("/s/\(variant)/") && $0.path.hasSuffix(".ts") && $0.time > after }.map(\.path)
        }
        XCTAssertEqual(segments("720p"), [], "pinned at 360p")
        let switched = Date()
        XCTAssertEqual(c.request(["set_property", "rendition", ProcessInfo.processInfo.environment["REEL_TEST_SWITCH_TO"] ?? "720p"], id: 1)?["error"] as? String, "success")
        let deadline = Date().addingTimeInterval(15)
        while segments("720p", after: switched).count < 2 && Date() < deadline { usleep(100_000) }
        XCTAssertGreaterThanOrEqual(segments("720p", after: switched).count, 2, "720p is fetched after the switch")
        let firstHigh = try XCTUnwrap(server.requests.first { $0.path.hasPrefix("/s/720p/") && $0.path.hasSuffix(".ts") }?.time)
        XCTAssertEqual(segments("360p", after: firstHigh), [], "and 360p no more")
        let chosen = try XCTUnwrap(c.request(["get_property", "rendition"], id: 2)?["data"] as? [String: Any])
        XCTAssertEqual(chosen["height"] as? Int, 720)
    }
}
