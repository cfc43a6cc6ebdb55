import AsyncHTTPClient
import Foundation
import NIOCore
import ReelCore

/// `--token-url`: a `TokenProvider` whose tokens come from an HTTP(S) endpoint answering the
/// `TokenDocument` JSON. Fetched on first use and again on every refresh.
public enum TokenEndpoint {
    public static func provider(url: URL, bucket: String?, headers: [HeaderField] = [], timeout: Double = 10) -> TokenProvider {
        TokenProvider(bucket: bucket, source: url.absoluteString) {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.headers.add(name: "Accept", value: "application/json")
            for header in headers { request.headers.replaceOrAdd(name: header.name, value: header.value) }
            let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            let body = try await response.body.collect(upTo: 1 << 20)
            guard response.status.code == 200 else {
                throw TokenError.unreadable(source: url.absoluteString, reason: "HTTP \(response.status.code)")
            }
            return Data(body.readableBytesView)
        }
    }
}
