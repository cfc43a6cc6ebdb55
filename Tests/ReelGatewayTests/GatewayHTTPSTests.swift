import Foundation
import ReelCore
import ReelGateway
import ReelTestSupport
import XCTest

/// The gateway against an https upstream on 127.0.0.1 (HTTPFixtureServer with a self-signed
/// certificate, TLSFixture): trusted through `trustedCertificatesPath` (`--ca-file`), the header
/// reaches every request; untrusted, the item fails with a clear TLS error.
final class GatewayHTTPSTests: XCTestCase {
    static let secret = "reel-tls-secret-51d2"

    private func start(trusting: Bool) async throws -> (HTTPFixtureServer, Gateway, GatewayErrorRecorder) {
        TestMedia.ensureGenerated()
        let tls = try XCTUnwrap(TLSFixture.shared, "openssl made no certificate")
        let server = try HTTPFixtureServer(host: "127.0.0.1", tls: tls)
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls"), at: "/hls")
        server.requireHeader("X-Reel-Key", Self.secret)
        let gateway = try await Gateway.start(.init(trustedCertificatesPath: trusting ? tls.certificatePath : nil))
        let recorder = GatewayErrorRecorder()
        gateway.setErrorHandler { _, error in recorder.append(error) }
        return (server, gateway, recorder)
    }

    func testHTTPSUpstreamTrustedThroughTheCAFileGetsTheHeaderOnEveryRequest() async throws {
        let (server, gateway, recorder) = try await start(trusting: true)
        defer { server.shutdown() }
        XCTAssertTrue(server.baseURL.hasPrefix("https://"))
        let (_, url) = gateway.register(GatewayItem(url: server.url("/hls/vod/master.m3u8"),
                                                    headers: [try HeaderField(name: "X-Reel-Key", value: Self.secret)]))
        XCTAssertTrue(url.absoluteString.hasPrefix("http://127.0.0.1:"), "the player talks plain HTTP to the loopback gateway")
        let fetched = try await GatewayTestClient.crawl(url)
        XCTAssertEqual(fetched.map(\.1), Array(repeating: 200, count: 9), "master + 2 variants + 6 segments, over TLS upstream")
        XCTAssertEqual(server.requests.count, 9)
        for r in server.requests { XCTAssertEqual(r.header("X-Reel-Key"), Self.secret, "\(r)") }
        // The bytes arrive unchanged through TLS and the gateway (the crawl follows the master's
        // order: the hi variant's segments come first).
        let segmentURL = try XCTUnwrap(fetched.first { $0.0.lastPathComponent == "segment00001.ts" }?.0)
        let segment = try await GatewayTestClient.fetch(segmentURL)
        XCTAssertEqual(segment.body, try Data(contentsOf: TestMedia.directory.appendingPathComponent("hls/vod/hi/segment00001.ts")))
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.errors)")
        await gateway.shutdown()
    }

    func testAnUntrustedCertificateIsAClearNetworkErrorAndNothingIsSent() async throws {
        let (server, gateway, recorder) = try await start(trusting: false)
        defer { server.shutdown() }
        let (_, url) = gateway.register(GatewayItem(url: server.url("/hls/vod/master.m3u8?sig=topsecret99"),
                                                    headers: [try HeaderField(name: "X-Reel-Key", value: Self.secret)]))
        let response = try await GatewayTestClient.fetch(url)
        XCTAssertEqual(response.status, 502, "the gateway answers Bad Gateway")
        XCTAssertTrue(server.requests.isEmpty, "no request (and no header) crossed an untrusted connection")
        let error = try XCTUnwrap(recorder.errors.first)
        XCTAssertEqual(error.kind, .network)
        XCTAssertTrue(error.message.contains("secure connection to 127.0.0.1") && error.message.contains("not trusted")
                      && error.message.contains("--ca-file"), error.message)
        XCTAssertFalse(error.message.contains("topsecret99"), "the URL is redacted: \(error.message)")
        await gateway.shutdown()
    }
}
