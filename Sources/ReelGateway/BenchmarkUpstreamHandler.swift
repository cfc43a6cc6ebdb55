import NIOCore
import NIOHTTP1

/// Answers `BenchmarkUpstream`'s requests.
final class BenchmarkUpstreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let small: ByteBuffer
    private let large: ByteBuffer
    private var head: HTTPRequestHead?

    init(small: ByteBuffer, large: ByteBuffer) {
        self.small = small
        self.large = large
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h): head = h
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            let body: ByteBuffer? = head.uri.hasPrefix("/small") ? small : head.uri.hasPrefix("/large") ? large : nil
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/octet-stream")
            headers.add(name: "Content-Length", value: String(body?.readableBytes ?? 0))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: body == nil ? .notFound : .ok, headers: headers))),
                          promise: nil)
            if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
