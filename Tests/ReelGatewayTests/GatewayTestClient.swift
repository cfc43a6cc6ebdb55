import AsyncHTTPClient
import Foundation
import NIOCore
import ReelCore

/// A plain HTTP client for the tests (what playbin3 does, reduced): fetch, and crawl an HLS
/// tree through the gateway, fetching every playlist, key, map and segment it names.
enum GatewayTestClient {
    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    static func fetch(_ url: URL, headers: [(String, String)] = []) async throws -> Response {
        var request = HTTPClientRequest(url: url.absoluteString)
        for (n, v) in headers { request.headers.add(name: n, value: v) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
        let body = try await response.body.collect(upTo: 256 << 20)
        return Response(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: Data(body.readableBytesView))
    }

    /// Fetches a playlist and everything under it. Returns every (url, status) fetched.
    @discardableResult
    static func crawl(_ url: URL) async throws -> [(URL, Int)] {
        var fetched: [(URL, Int)] = []
        let response = try await fetch(url)
        fetched.append((url, response.status))
        guard response.status == 200, HLSPlaylist.looksLikePlaylist(Substring(response.text)) else { return fetched }
        let references = HLSPlaylistRewriter(baseURL: url).rewrite(response.text).references
        for ref in references {
            guard let absolute = ref.absoluteURL, URIReference.isFetchable(ref.original) else { continue }
            if ref.kind.isPlaylist {
                fetched += try await crawl(absolute)
            } else {
                let r = try await fetch(absolute)
                fetched.append((absolute, r.status))
            }
        }
        return fetched
    }
}
