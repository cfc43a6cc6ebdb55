import AsyncHTTPClient
import NIOCore

/// Where the gateway's upstream requests go: the network, the network with every answer
/// recorded (`reel --record DIR`), or a recording answering as the origin did (`--replay DIR`).
/// The gateway's repairs, credentials and relays are the same for all three.
public protocol GatewayUpstream: Sendable {
    func execute(_ request: HTTPClientRequest, deadline: NIODeadline) async throws -> HTTPClientResponse
}

struct NetworkUpstream: GatewayUpstream {
    let client: HTTPClient
    func execute(_ request: HTTPClientRequest, deadline: NIODeadline) async throws -> HTTPClientResponse {
        try await client.execute(request, deadline: deadline)
    }
}

/// How the gateway reaches upstream (`Gateway.Configuration.upstream`).
public enum UpstreamMode: Sendable {
    case network
    case record(SessionRecorder)
    case replay(ReplayOrigin)
}
