import Foundation
import ReelTestSupport
import XCTest

/// Seed 000's event URLs: `…/master.m3u8?Authorization=TOKEN` with no token source. The token
/// leaves the URL and reaches every request of the stream (master, variants, segments) as the
/// header (or the query, with --token-placement query); it never shows in events or on stderr.
final class EventURLTokenTests: XCTestCase {
    private let token = "ev-\(UUID().uuidString.prefix(8))"

    private func play(_ server: HTTPFixtureServer, _ extra: [String] = []) -> ProcessRunner.Result {
        let url = server.url("/hls/vod/master.m3u8").absoluteString + "?Authorization=\(token)"
        return ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--audio-sink", "fakesink sync=false",
                                                               "--video-sink", "fakesink sync=false"] + extra + [url], timeout: 60)
    }

    func testTheURLsTokenGoesOnEveryRequestAsTheHeader() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.url("hls"), at: "/hls")
        server.requireHeader("Authorization", token)
        let r = play(server)
        XCTAssertEqual(r.status, 0, r.stderr)
        let requests = server.requests
        XCTAssertGreaterThan(requests.filter { $0.path.hasSuffix(".ts") }.count, 2)
        XCTAssertTrue(requests.allSatisfy { $0.header("Authorization") == token }, "\(requests)")
        XCTAssertTrue(requests.allSatisfy { !$0.uri.contains("Authorization=") }, "taken out of the URL")
        XCTAssertFalse(r.stdout.contains(token), "not in events")
        XCTAssertFalse(r.stderr.contains(token), "not on stderr")
    }

    func testWithQueryPlacementItGoesOnEveryRequestAsTheParameter() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.url("hls"), at: "/hls")
        server.requireQueryToken(token)
        let r = play(server, ["--token-placement", "query"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(server.requests.allSatisfy { $0.uri.contains("Authorization=\(token)") }, "\(server.requests)")
        XCTAssertTrue(server.requests.allSatisfy { $0.header("Authorization") == nil })
        XCTAssertFalse(r.stdout.contains(token))
    }

    /// Credentials under names nobody listed (`pw=`, `api-key=`, `client-secret=`, `pin=`: issue
    /// 46, item 13) stay out of events, stderr and the debug log of a failing item; the parameter
    /// that names the content stays readable.
    func testCredentialsUnderUnlistedNamesNeverReachEventsOrLogs() throws {
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        let secrets = ["hunter2x", "k-\(UUID().uuidString.prefix(6))", "cs-\(UUID().uuidString.prefix(6))", "4711"]
        let url = server.url("/missing.mp4").absoluteString
            + "?pw=\(secrets[0])&api-key=\(secrets[1])&client-secret=\(secrets[2])&pin=\(secrets[3])&id=episode7"
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--audio-sink", "fakesink", "--video-sink", "fakesink", url],
                                  timeout: 60, environment: ["REEL_DEBUG": "*:5"])
        XCTAssertEqual(r.status, 1, "the item failed (404)")
        XCTAssertTrue(r.stdout.contains("\"error\""), r.stdout)
        for secret in secrets {
            XCTAssertFalse(r.stdout.contains(secret), "\(secret) in events: \(r.stdout.prefix(1500))")
            XCTAssertFalse(r.stderr.contains(secret), "\(secret) in the log: \(r.stderr.components(separatedBy: "\n").filter { $0.contains(secret) }.prefix(3))")
        }
        XCTAssertTrue(r.stdout.contains("id=episode7"), "what names the content stays: \(r.stdout.prefix(600))")
        XCTAssertFalse(server.requests.isEmpty, "the server was asked")
    }
}
