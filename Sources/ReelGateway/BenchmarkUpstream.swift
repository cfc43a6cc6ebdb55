import NIOCore
import NIOHTTP1
import NIOPosix

/// The upstream of `GatewayBenchmark`: a minimal HTTP/1.1 server on 127.0.0.1 answering
/// `/small` (1 KiB) and `/large` (a configurable size) from memory, with keep-alive.
final class BenchmarkUpstream: Sendable {
    let port: Int
    private let channel: any Channel

    init(group: any EventLoopGroup, largeBytes: Int) async throws {
        let small = ByteBuffer(repeating: 0x61, count: 1024)
        let large = ByteBuffer(repeating: 0x62, count: largeBytes)
        channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(BenchmarkUpstreamHandler(small: small, large: large))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    func close() async { try? await channel.close() }
}
