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
}
