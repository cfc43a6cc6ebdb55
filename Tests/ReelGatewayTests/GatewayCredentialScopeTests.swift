import Foundation
import ReelCore
import ReelGateway
import ReelTestSupport
import XCTest

/// Where the gateway sends an item's credentials (issue 12, defect 7): its own origin only —
/// not the same host on another port after a redirect, not plain http from an https item — and a
/// local playlist's network segments are fetched, without credentials, instead of refused.
final class GatewayCredentialScopeTests: XCTestCase {
    static let secret = "scope-secret-2b2b"

    func testARedirectToTheSameHostOnAnotherPortDropsTheCredentials() async throws {
        TestMedia.ensureGenerated()
        let origin = try HTTPFixtureServer(host: "127.0.0.1"), other = try HTTPFixtureServer(host: "127.0.0.1")
        defer { origin.shutdown(); other.shutdown() }
        other.serve("/clip.mp4", .file(TestMedia.url("clip2s.mp4"), contentType: "video/mp4"))
        origin.serve("/clip.mp4", .redirect(to: other.url("/clip.mp4").absoluteString, status: 302))
        let gateway = try await Gateway.start()
        defer { Task { await gateway.shutdown() } }
        let (_, url) = gateway.register(GatewayItem(url: origin.url("/clip.mp4"), headers: [try HeaderField(name: "X-Reel-Key", value: Self.secret)]))
        let answer = try await GatewayTestClient.fetch(url)
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(origin.requests.first?.header("X-Reel-Key"), Self.secret)
        XCTAssertEqual(other.requests.count, 1)
        XCTAssertNil(other.requests.first?.header("X-Reel-Key"), "port \(other.port) is another origin: \(other.requests)")
    }

    func testAnHTTPSItemsPlainHTTPReferencesGetNoCredentials() async throws {
        TestMedia.ensureGenerated()
        let tls = try XCTUnwrap(TLSFixture.shared, "openssl made no certificate")
        let secure = try HTTPFixtureServer(host: "127.0.0.1", tls: tls), plain = try HTTPFixtureServer(host: "127.0.0.1")
        defer { secure.shutdown(); plain.shutdown() }
        let segment = TestMedia.directory.appendingPathComponent("hls/vod/lo/segment00000.ts")
        plain.serve("/seg.ts", .file(segment, contentType: "video/mp2t"))
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n\(plain.url("/seg.ts").absoluteString)\n#EXT-X-ENDLIST\n"
        secure.serve("/index.m3u8", .data(Data(playlist.utf8), contentType: "application/vnd.apple.mpegurl"))
        let gateway = try await Gateway.start(.init(trustedCertificatesPath: tls.certificatePath))
        defer { Task { await gateway.shutdown() } }
        // Even with the plain server's host allowed, an https item's secret never goes over http.
        let (_, url) = gateway.register(GatewayItem(url: secure.url("/index.m3u8"), headers: [try HeaderField(name: "X-Reel-Key", value: Self.secret)],
                                                    allowedHosts: ["127.0.0.1"]))
        let fetched = try await GatewayTestClient.crawl(url)
        XCTAssertEqual(fetched.map(\.1), [200, 200])
        XCTAssertEqual(secure.requests.first?.header("X-Reel-Key"), Self.secret)
        XCTAssertEqual(plain.requests.count, 1)
        XCTAssertNil(plain.requests.first?.header("X-Reel-Key"), "\(plain.requests)")
    }

    func testALocalPlaylistOfNetworkSegmentsPlaysTheirBytes() async throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer(host: "127.0.0.1")
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls/vod/lo"), at: "/lo")
        let dir = TestMedia.temporaryDirectory("reel-local-remote")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("index.m3u8")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n\(server.url("/lo/segment00000.ts").absoluteString)\n#EXTINF:2,\n\(server.url("/lo/segment00001.ts").absoluteString)\n#EXT-X-ENDLIST\n"
            .write(to: list, atomically: true, encoding: .utf8)
        let gateway = try await Gateway.start()
        defer { Task { await gateway.shutdown() } }
        let (_, url) = gateway.register(GatewayItem(url: list))
        let fetched = try await GatewayTestClient.crawl(url)
        XCTAssertEqual(fetched.map(\.1), [200, 200, 200], "it failed as not-authorized")
        let bytes = try await GatewayTestClient.fetch(fetched[1].0).body
        XCTAssertEqual(bytes, try Data(contentsOf: TestMedia.directory.appendingPathComponent("hls/vod/lo/segment00000.ts")))
    }
}
