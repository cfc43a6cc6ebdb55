import Foundation
import ReelCore
import ReelGateway
import ReelTestSupport
import XCTest

/// `--token-url`: tokens from an HTTP endpoint (a real server on 127.0.0.1).
final class GatewayTokenEndpointTests: XCTestCase {
    func testTokensFromAnEndpointAndARefreshAfterRotation() async throws {
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        func publish(_ token: String) {
            server.serve("/tokens", .data(Data(#"{"tokens":[{"bucket":"sports","token":"\#(token)"}]}"#.utf8), contentType: "application/json"))
        }
        publish("endpoint-token-1111")
        server.exemptFromAuth("/tokens")
        server.serve("/clip.mp4", .file(TestMedia.url("clip2s.mp4"), contentType: "video/mp4"))
        server.requireHeader("Authorization", "endpoint-token-1111")
        let provider = TokenEndpoint.provider(url: server.url("/tokens"), bucket: "sports")
        let gateway = try await Gateway.start()
        let (_, url) = gateway.register(GatewayItem(url: server.url("/clip.mp4"), tokenProvider: provider))
        let first = try await GatewayTestClient.fetch(url)
        XCTAssertEqual(first.status, 200)
        // The server rotates; the endpoint publishes the new token; one refresh.
        server.requireHeader("Authorization", "endpoint-token-2222")
        publish("endpoint-token-2222")
        let second = try await GatewayTestClient.fetch(url)
        XCTAssertEqual(second.status, 200)
        XCTAssertEqual(provider.loadCount, 2)
        XCTAssertEqual(server.requests.filter { $0.path == "/tokens" }.count, 2)
        XCTAssertEqual(server.requests.filter { $0.path == "/clip.mp4" }.map(\.status), [200, 401, 200])
        await gateway.shutdown()
    }

    /// Issue 28, item 16: a token endpoint behind a private CA is trusted through `--ca-file`,
    /// as the streams are; without it the handshake fails and says so.
    func testAnHTTPSEndpointIsTrustedThroughTheCAFile() async throws {
        let tls = try XCTUnwrap(TLSFixture.shared, "openssl made no certificate")
        let server = try HTTPFixtureServer(host: "127.0.0.1", tls: tls)
        defer { server.shutdown() }
        server.serve("/tokens", .data(Data(#"{"tokens":[{"bucket":"sports","token":"tls-token-7777"}]}"#.utf8), contentType: "application/json"))
        let trusted = TokenEndpoint.provider(url: server.url("/tokens"), bucket: "sports", trustedCertificatesPath: tls.certificatePath)
        let token = try await trusted.token()
        XCTAssertEqual(token, "tls-token-7777")
        let untrusted = TokenEndpoint.provider(url: server.url("/tokens"), bucket: "sports")
        do {
            _ = try await untrusted.token()
            XCTFail("a private CA's endpoint is not trusted without --ca-file")
        } catch {}
    }

    func testAnEndpointFailureIsAClearError() async {
        let server = try! HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/tokens", .status(500))
        let provider = TokenEndpoint.provider(url: server.url("/tokens?key=endpoint-secret-9"), bucket: "sports")
        do {
            _ = try await provider.token()
            XCTFail("no error")
        } catch {
            XCTAssertEqual("\(error)", "The tokens could not be read from \(server.baseURL)/tokens?key=***: HTTP 500.")
        }
    }
}
