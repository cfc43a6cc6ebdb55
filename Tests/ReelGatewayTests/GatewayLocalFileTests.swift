import Foundation
import ReelCore
import ReelGateway
import ReelTestSupport
import XCTest

/// Local HLS through the gateway (hlsdemux2 in 1.22 fetches with libsoup only): a playlist on
/// disk and every file it names are served over loopback, with Range; a network item can never
/// reach a local file.
final class GatewayLocalFileTests: XCTestCase {
    func testALocalStreamIsServedWithItsSegmentsAndRanges() async throws {
        TestMedia.ensureGenerated()
        let gateway = try await Gateway.start()
        let local = TestMedia.url("hls/aes/index.m3u8")
        let (_, url) = gateway.register(GatewayItem(url: local))
        let fetched = try await GatewayTestClient.crawl(url)
        XCTAssertEqual(fetched.map(\.1), [200, 200, 200, 200, 200], "playlist, key, three segments")
        let playlist = try await GatewayTestClient.fetch(url)
        XCTAssertEqual(playlist.header("Content-Type"), "application/vnd.apple.mpegurl")
        XCTAssertFalse(playlist.text.contains("file:"), playlist.text)
        let uris = playlist.text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }
        XCTAssertEqual(uris.count, 3)
        XCTAssertTrue(uris.allSatisfy { $0.hasPrefix("http://127.0.0.1:\(gateway.port)/") }, "every URI routes through the gateway: \(playlist.text)")
        XCTAssertTrue(playlist.text.contains("URI=\"http://127.0.0.1:\(gateway.port)/"), "the key too: \(playlist.text)")
        let segmentURL = try XCTUnwrap(fetched.first { $0.0.absoluteString.hasSuffix("segment00001.ts") }?.0)
        let onDisk = try Data(contentsOf: TestMedia.url("hls/aes/segment00001.ts"))
        let whole = try await GatewayTestClient.fetch(segmentURL)
        XCTAssertEqual(whole.body, onDisk, "the bytes arrive unchanged")
        XCTAssertEqual(whole.header("Accept-Ranges"), "bytes")
        let part = try await GatewayTestClient.fetch(segmentURL, headers: [("Range", "bytes=100-299")])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.header("Content-Range"), "bytes 100-299/\(onDisk.count)")
        XCTAssertEqual(part.body, onDisk[100..<300])
        let tail = try await GatewayTestClient.fetch(segmentURL, headers: [("Range", "bytes=-10")])
        XCTAssertEqual(tail.body, onDisk.suffix(10))
        let beyond = try await GatewayTestClient.fetch(segmentURL, headers: [("Range", "bytes=\(onDisk.count)-")])
        XCTAssertEqual(beyond.status, 416)
        await gateway.shutdown()
    }

    func testAMissingSegmentIsNotFoundAndANetworkPlaylistCannotReachLocalFiles() async throws {
        let dir = TestMedia.temporaryDirectory("reel-gw-local")
        defer { try? FileManager.default.removeItem(at: dir) }
        let secret = dir.appendingPathComponent("secret.txt")
        try Data("local secret 4242".utf8).write(to: secret)
        let list = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\ngone.ts\n#EXTINF:2,\n\(secret.absoluteString)\n#EXT-X-ENDLIST\n"
        try Data(list.utf8).write(to: dir.appendingPathComponent("list.m3u8"))
        let gateway = try await Gateway.start()
        let recorder = GatewayErrorRecorder()
        gateway.setErrorHandler { _, error in recorder.append(error) }
        let (_, localURL) = gateway.register(GatewayItem(url: dir.appendingPathComponent("list.m3u8")))
        let fetched = try await GatewayTestClient.crawl(localURL)
        XCTAssertEqual(fetched.map(\.1), [200, 404, 200], "a missing file is 404; the local list may name its own files")
        XCTAssertEqual(recorder.errors.first?.kind, .notFound)

        // The same text from a server: its file: URI is sent to the gateway, which refuses it (403)
        // and reads nothing; it is no longer left in the playlist for a demuxer's filesrc (issue 28).
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/list.m3u8", .data(Data(list.utf8), contentType: "application/vnd.apple.mpegurl"))
        let (_, remoteURL) = gateway.register(GatewayItem(url: server.url("/list.m3u8")))
        let remote = try await GatewayTestClient.fetch(remoteURL)
        XCTAssertFalse(remote.text.contains("file:"), "no file: URI reaches the player: \(remote.text)")
        let crawled = try await GatewayTestClient.crawl(remoteURL)
        XCTAssertEqual(crawled.map(\.1), [200, 404, 403], "the server's 404; the local file refused")
        for (url, _) in crawled {
            let body = try await GatewayTestClient.fetch(url).text
            XCTAssertFalse(body.contains("local secret"))
        }
        await gateway.shutdown()
    }
}
