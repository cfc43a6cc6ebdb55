import NIOCore
import NIOHTTP1

/// Answers each request of one connection from the fixture's routes.
final class HTTPFixtureHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: HTTPFixtureServerBox
    private var head: HTTPRequestHead?

    init(server: HTTPFixtureServerBox) { self.server = server }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h): head = h
        case .body: break
        case .end:
            guard let head, let server = server.server.withLock({ $0 }) else { return }
            self.head = nil
            var answer = server.answer(head)
            answer.headers.replaceOrAdd(name: "Content-Length", value: String(answer.body?.readableBytes ?? 0))
            if !head.isKeepAlive { answer.headers.replaceOrAdd(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: answer.status, headers: answer.headers))), promise: nil)
            if let body = answer.body, head.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            let keepAlive = head.isKeepAlive
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                if !keepAlive { channel.close(promise: nil) }
            }
        }
    }
}
