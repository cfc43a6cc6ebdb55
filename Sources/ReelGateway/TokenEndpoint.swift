import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import Synchronization
import ReelCore

/// `--token-url`: a `TokenProvider` whose tokens come from an HTTP(S) endpoint answering the
/// `TokenDocument` JSON. Fetched on first use and again on every refresh.
public enum TokenEndpoint {
    /// - Parameter trustedCertificatesPath: `--ca-file`: the token endpoint is trusted the way the
    ///   streams are (it used to be fetched with the system's roots only, so a private CA's token
    ///   server failed while its streams played).
    public static func provider(url: URL, bucket: String?, headers: [HeaderField] = [], timeout: Double = 10,
                                trustedCertificatesPath: String? = nil) -> TokenProvider {
        TokenProvider(bucket: bucket, source: url.absoluteString) {
            let client = trustedCertificatesPath.map(client(trusting:)) ?? HTTPClient.shared
            var request = HTTPClientRequest(url: url.absoluteString)
            request.headers.add(name: "Accept", value: "application/json")
            for header in headers { request.headers.replaceOrAdd(name: header.name, value: header.value) }
            let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            let body = try await response.body.collect(upTo: 1 << 20)
            guard response.status.code == 200 else {
                throw TokenError.unreadable(source: url.absoluteString, reason: "HTTP \(response.status.code)")
            }
            return Data(body.readableBytesView)
        }
    }

    /// One client per CA file, for the life of the process (token refreshes reuse it).
    private static let clients = Mutex<[String: HTTPClient]>([:])

    static func client(trusting path: String) -> HTTPClient {
        clients.withLock { c in
            if let client = c[path] { return client }
            var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.file(path)]
            configuration.tlsConfiguration = tls
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            c[path] = client
            return client
        }
    }
}
