import Foundation
import ReelCore
import ReelGateway
import ReelTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Upstream transfers the player no longer wants (issue 28, item 7): a playlist that crawls in
/// at a byte a tenth of a second never trips the read timeout, and the gateway read every one
/// to its end after the player gave up, so eight of them filled AsyncHTTPClient's per-host pool
/// and a good stream from the same host failed. Real server, raw client sockets.
final class GatewayTransferTests: XCTestCase {
    var server: HTTPFixtureServer!
    var crawling: URL!

    override func setUp() async throws {
        TestMedia.ensureGenerated()
        server = try HTTPFixtureServer(host: "127.0.0.1")
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls"), at: "/hls")
        // A "playlist" of 200 KB sent at 10 bytes a second: it would take 5.5 hours.
        crawling = FileManager.default.temporaryDirectory.appendingPathComponent("reel-crawl-\(getpid()).m3u8")
        try ("#EXTM3U\n" + String(repeating: "#EXT-X-COMMENT\n", count: 14_000)).write(to: crawling, atomically: true, encoding: .utf8)
        server.serve("/crawl.m3u8", .paced(crawling, contentType: "application/vnd.apple.mpegurl", bytesPerSecond: 10))
    }

    override func tearDown() async throws {
        server?.shutdown()
        try? FileManager.default.removeItem(at: crawling)
    }

    private func connect(_ port: Int) throws -> Int32 { try RawSocket.connect(port, receiveTimeout: 10) }

    private func get(_ fd: Int32, _ url: URL) { RawSocket.send(fd, "GET \(url.path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }

    private func readUntilClosed(_ fd: Int32) -> String? { RawSocket.readUntilClosed(fd) }

    private func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    func testAbandonedTransfersAreCancelledAndTheHostStaysUsable() async throws {
        let gateway = try await Gateway.start()
        defer { Task { await gateway.shutdown() } }
        let (_, good) = gateway.register(GatewayItem(url: server.url("/hls/vod/master.m3u8")))
        // Twelve players (items) ask for the crawling playlist, then give up (close their connections).
        var clients: [Int32] = []
        for _ in 0..<12 {
            let (_, crawl) = gateway.register(GatewayItem(url: server.url("/crawl.m3u8")))
            let fd = try connect(gateway.port)
            get(fd, crawl)
            clients.append(fd)
        }
        XCTAssertTrue(waitUntil(10) { server.requests.filter { $0.path == "/crawl.m3u8" }.count >= 8 }, "upstream was asked")
        clients.forEach { close($0) }
        // Each answer stops with its client, and its upstream request with it.
        XCTAssertTrue(waitUntil(5) { gateway.activeTransferCount == 0 }, "transfers still running: \(gateway.activeTransferCount)")
        // The same host serves a whole stream through the gateway at once.
        let fetched = try await GatewayTestClient.crawl(good)
        XCTAssertEqual(fetched.map(\.1), Array(repeating: 200, count: 9), "master + 2 variants + 6 segments")
    }

    func testAPlaylistThatCrawlsInIsAbandonedAtTheDeadline() async throws {
        let gateway = try await Gateway.start(.init(transferDeadline: 2))
        defer { Task { await gateway.shutdown() } }
        let (_, crawl) = gateway.register(GatewayItem(url: server.url("/crawl.m3u8")))
        let fd = try connect(gateway.port)
        defer { close(fd) }
        let started = Date()
        get(fd, crawl)
        let answer = try XCTUnwrap(readUntilClosed(fd), "no answer within 10 s")
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 504"), String(answer.prefix(200)))
        XCTAssertTrue(answer.contains("did not arrive whole within 2 s"), answer)
        XCTAssertLessThan(Date().timeIntervalSince(started), 9, "answered at the deadline, not at the read timeout")
        XCTAssertTrue(waitUntil(5) { gateway.activeTransferCount == 0 })
    }

    func testReleasingAnItemStopsItsTransfers() async throws {
        let gateway = try await Gateway.start()
        defer { Task { await gateway.shutdown() } }
        let (id, crawl) = gateway.register(GatewayItem(url: server.url("/crawl.m3u8")))
        let fd = try connect(gateway.port)
        defer { close(fd) }
        get(fd, crawl)
        XCTAssertTrue(waitUntil(10) { gateway.activeTransferCount == 1 && server.requests.contains { $0.path == "/crawl.m3u8" } })
        gateway.unregister(id)
        XCTAssertEqual(readUntilClosed(fd), "", "the player's connection is closed, with nothing answered")
        XCTAssertTrue(waitUntil(5) { gateway.activeTransferCount == 0 })
    }

    /// A reader that leaves while the gateway checks a master's variants (a discoverer timing out
    /// under load) cancels that check: the variants it had not finished are not "unavailable",
    /// and the master kept for the others lists them all.
    func testAReaderLeavingDuringTheVariantCheckLeavesNoVariantOut() async throws {
        let dir = TestMedia.temporaryDirectory("reel-gw-leaving")
        defer { try? FileManager.default.removeItem(at: dir) }
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n" + String(repeating: "#EXTINF:2,\nseg.ts\n", count: 10) + "#EXT-X-ENDLIST\n"
        for name in ["a", "b"] {
            let file = dir.appendingPathComponent("\(name).m3u8")
            try media.write(to: file, atomically: true, encoding: .utf8)
            // About 2 s each: the check is under way when the first reader leaves.
            server.serve("/m/\(name).m3u8", .paced(file, contentType: "application/vnd.apple.mpegurl", bytesPerSecond: 120))
        }
        // A third variant answers at once: its check is done when the reader leaves.
        let quick = dir.appendingPathComponent("c.m3u8")
        try media.write(to: quick, atomically: true, encoding: .utf8)
        server.serve("/m/c.m3u8", .file(quick, contentType: "application/vnd.apple.mpegurl"))
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nb.m3u8\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=200000\nc.m3u8\n"
        server.serve("/m/master.m3u8", .data(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"))
        let gateway = try await Gateway.start()
        defer { Task { await gateway.shutdown() } }
        let (_, url) = gateway.register(GatewayItem(url: server.url("/m/master.m3u8")))
        let first = try connect(gateway.port)
        get(first, url)
        XCTAssertTrue(waitUntil(5) { server.requests.contains { $0.path == "/m/c.m3u8" } && server.requests.contains { $0.path == "/m/a.m3u8" } }, "the check began")
        let second = Task { try await GatewayTestClient.fetch(url) }
        usleep(300_000)
        close(first)  // the first reader leaves mid-check
        let answer = try await second.value
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.text.components(separatedBy: "#EXT-X-STREAM-INF").count - 1, 3, "every variant is listed: \(answer.text)")
    }
}
