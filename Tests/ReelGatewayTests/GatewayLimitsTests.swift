import Foundation
import ReelCore
import ReelGateway
import ReelTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What a local process (or a playlist) can do to the gateway: hold connections open, send
/// headers slowly, use a key read from a log, make the registry grow. Real server, real sockets.
final class GatewayLimitsTests: XCTestCase {
    var server: HTTPFixtureServer!

    override func setUp() async throws {
        TestMedia.ensureGenerated()
        server = try HTTPFixtureServer(host: "127.0.0.1")
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls"), at: "/hls")
    }

    override func tearDown() async throws { server?.shutdown() }

    /// A raw TCP connection to 127.0.0.1:port (what a hostile local process holds open).
    private func connect(_ port: Int) throws -> Int32 { try RawSocket.connect(port) }

    private func send(_ fd: Int32, _ text: String) { RawSocket.send(fd, text) }

    private func readUntilClosed(_ fd: Int32) -> String? { RawSocket.readUntilClosed(fd) }

    func testHundredsOfHalfOpenConnectionsDoNotStarveTheStream() async throws {
        let gateway = try await Gateway.start()
        defer { Task { await gateway.shutdown() } }
        let (_, url) = gateway.register(GatewayItem(url: server.url("/hls/vod/master.m3u8")))
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for i in 0..<200 {
            let fd = try connect(gateway.port)
            if i % 2 == 0 { send(fd, "GET /\(UUID().uuidString) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") }  // never finished
            held.append(fd)
        }
        // The stream plays on: every playlist and segment still comes through.
        let fetched = try await GatewayTestClient.crawl(url)
        XCTAssertEqual(fetched.map(\.1), Array(repeating: 200, count: 9), "master + 2 variants + 6 segments")
        XCTAssertLessThanOrEqual(gateway.connectionCount, 64, "the connection cap holds")
    }

    func testSlowHeadersAndIdleKeepAliveConnectionsAreClosed() async throws {
        let gateway = try await Gateway.start(.init(headerTimeout: 0.5, idleTimeout: 0.5))
        defer { Task { await gateway.shutdown() } }
        let (_, url) = gateway.register(GatewayItem(url: server.url("/hls/vod/hi/segment00000.ts")))
        // A head that never completes: closed after the header timeout, with nothing answered.
        let slow = try connect(gateway.port)
        defer { close(slow) }
        send(slow, "GET \(url.path) HTTP/1.1\r\nHost: 1")
        XCTAssertEqual(readUntilClosed(slow), "", "closed without an answer")
        // A kept-alive connection after a full answer: closed once idle.
        let idle = try connect(gateway.port)
        defer { close(idle) }
        send(idle, "GET \(url.path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answered = try XCTUnwrap(readUntilClosed(idle), "the idle connection was not closed")
        XCTAssertTrue(answered.hasPrefix("HTTP/1.1 200"), String(answered.prefix(200)))
    }

    func testAnotherProcessCannotUseTheGatewayEvenWithTheKey() async throws {
        server.requireHeader("X-Reel-Key", "k-7f3a")
        let gateway = try await Gateway.start()
        defer { Task { await gateway.shutdown() } }
        let (_, url) = gateway.register(GatewayItem(url: server.url("/hls/vod/master.m3u8"), headers: [try HeaderField(name: "X-Reel-Key", value: "k-7f3a")]))
        // Reel's own process is served …
        let own = try await GatewayTestClient.fetch(url)
        XCTAssertEqual(own.status, 200)
        // … another process with the very same URL (key and all, as GST_DEBUG prints it) is not.
        let run = ProcessRunner.run("/usr/bin/python3", ["-c", """
            import sys, urllib.request
            try:
                urllib.request.urlopen(sys.argv[1], timeout=5); print("served")
            except Exception as e:
                print("refused", type(e).__name__)
            """, url.absoluteString], timeout: 20)
        XCTAssertTrue(run.stdout.hasPrefix("refused"), run.stdout + run.stderr)
        XCTAssertGreaterThanOrEqual(gateway.refusedConnectionCount, 1)
        XCTAssertEqual(server.requests.filter { $0.path == "/hls/vod/master.m3u8" }.count, 1, "upstream saw only Reel's own request")
    }

    func testLiveSignedSegmentURLsKeepTheRegistryBounded() async throws {
        var live = HTTPFixtureServer.LivePlaylist(segments: (0..<200).map { (uri: "seg\($0).ts", duration: 2.0) }, window: 6, preroll: 400)
        live.signedURLs = true
        server.serve("/live/index.m3u8", .live(live))
        let gateway = try await Gateway.start()
        defer { Task { await gateway.shutdown() } }
        let (id, url) = gateway.register(GatewayItem(url: server.url("/live/index.m3u8")))
        var counts: [Int] = []
        for _ in 0..<400 {
            let refresh = try await GatewayTestClient.fetch(url)
            XCTAssertEqual(refresh.status, 200)
            counts.append(try XCTUnwrap(gateway.resourceCount(id)))
        }
        // Each refresh lists 6 new URLs (2,400 in all); the table keeps a bounded window of them.
        XCTAssertLessThanOrEqual(counts.max()!, 2 * 6 + 256 + 1)
        XCTAssertEqual(counts.last, counts[counts.count - 2], "flat once the window is full")
        // The newest refresh's segments still resolve through the gateway.
        let newest = try await GatewayTestClient.fetch(url)
        let segment = try XCTUnwrap(try XCTUnwrap(HLSPlaylist.parse(newest.text).media).segments.last)
        let answer = try await GatewayTestClient.fetch(try XCTUnwrap(URL(string: segment.uri)))
        XCTAssertEqual(answer.status, 404, "the fixture has no such segment file, but the gateway forwarded it upstream")
        XCTAssertTrue(server.requests.last?.uri.hasPrefix("/live/seg") == true, "\(String(describing: server.requests.last))")
    }

    func testTwoHundredThousandSegmentPlaylistIsRewrittenWhole() async throws {
        let text = RegistryBenchmark.mediaPlaylist(segments: 200_000)
        server.serve("/big/index.m3u8", .data(Data(text.utf8), contentType: "application/vnd.apple.mpegurl"))
        let gateway = try await Gateway.start(.init(maximumPlaylistBytes: 64 << 20))
        defer { Task { await gateway.shutdown() } }
        let (id, url) = gateway.register(GatewayItem(url: server.url("/big/index.m3u8")))
        let response = try await GatewayTestClient.fetch(url)
        XCTAssertEqual(response.status, 200)
        let media = try XCTUnwrap(try HLSPlaylist.parse(response.text).media)
        XCTAssertEqual(media.segments.count, 200_000)
        XCTAssertEqual(gateway.resourceCount(id), 200_001, "every segment registered once, and kept")
        // The first segment is still served after the whole list was registered.
        _ = try await GatewayTestClient.fetch(try XCTUnwrap(URL(string: media.segments[0].uri)))
        XCTAssertEqual(server.requests.last?.path, "/big/seg0.ts")
    }
}

extension GatewayLimitsTests {
    /// Shutting down while connections are still arriving (a window closed at once, a quit during
    /// hlsdemux2's first requests) finishes every connection's async wrapper: swift-nio asserts on
    /// one dropped unfinished, which killed a test process when the accept loop was cancelled.
    func testShuttingDownUnderFreshConnectionsFinishesEveryOne() async throws {
        for _ in 0..<10 {
            let gateway = try await Gateway.start()
            let (_, url) = gateway.register(GatewayItem(url: server.url("/hls/vod/master.m3u8")))
            var fds: [Int32] = []
            for i in 0..<30 {
                let fd = try connect(gateway.port)
                if i % 3 == 0 { send(fd, "GET \(url.path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
                fds.append(fd)
            }
            await gateway.shutdown()
            for fd in fds { XCTAssertNotNil(readUntilClosed(fd), "every connection closed by the shutdown"); close(fd) }
        }
    }
}
