import NIOCore
import NIOHTTP1

/// Answers each request of one connection from the fixture's routes.
final class HTTPFixtureHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: HTTPFixtureServerBox
    private var head: HTTPRequestHead?
    /// A `.stream` body in progress: bytes still to write, next offset, keep-alive after it.
    private var streaming: (remaining: Int, offset: Int, keepAlive: Bool)?
    private var pumping = false

    init(server: HTTPFixtureServerBox) { self.server = server }

    /// 64 KiB + 251 bytes of i % 251: any 64 KiB window of the stream is a slice of it.
    static let pattern: [UInt8] = (0..<((64 << 10) + 251)).map { UInt8($0 % 251) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h): head = h
        case .body: break
        case .end:
            guard let head, let server = server.server.withLock({ $0 }) else { return }
            self.head = nil
            var answer = server.answer(head)
            if let delay = answer.delay {
                answer.delay = nil
                let late = answer
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: .milliseconds(Int64(delay * 1000))) {
                    let (handler, context) = bound.value
                    handler.send(late, for: head, context: context)
                }
                return
            }
            send(answer, for: head, context: context)
        }
    }

    private func send(_ original: HTTPFixtureServer.Answer, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard let server = server.server.withLock({ $0 }) else { return }
        var answer = original
        if let size = answer.streamSize, head.method == .GET {
            answer.headers.replaceOrAdd(name: "Content-Length", value: String(size))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: answer.status, headers: answer.headers))), promise: nil)
            streaming = (size, 0, head.isKeepAlive)
            pump(context: context, server: server)
            return
        }
        answer.headers.replaceOrAdd(name: "Content-Length", value: String(answer.body?.readableBytes ?? 0))
        if let rate = answer.pace, let body = answer.body, head.method == .GET {
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: answer.status, headers: answer.headers))), promise: nil)
            context.flush()
            pace(body, bytesPerTenth: max(1, rate / 10), keepAlive: head.isKeepAlive, context: context)
            return
        }
        if let cut = answer.cutAfter, var body = answer.body, head.method == .GET {
            // Lost mid-download: part of the declared body, then the connection closes.
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: answer.status, headers: answer.headers))), promise: nil)
            let part = body.readSlice(length: cut) ?? body
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(part)))).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        if !head.isKeepAlive { answer.headers.replaceOrAdd(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: answer.status, headers: answer.headers))), promise: nil)
        if let body = answer.body, head.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        let keepAlive = head.isKeepAlive
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }

    /// Writes `rest` a slice every 100 ms until it is all sent (or the connection is gone).
    private func pace(_ rest: ByteBuffer, bytesPerTenth: Int, keepAlive: Bool, context: ChannelHandlerContext) {
        var rest = rest
        guard context.channel.isActive else { return }
        if let slice = rest.readSlice(length: min(bytesPerTenth, rest.readableBytes)), slice.readableBytes > 0 {
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(slice))), promise: nil)
        }
        guard rest.readableBytes == 0 else {
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let remaining = rest
            context.eventLoop.scheduleTask(in: .milliseconds(100)) {
                let (handler, context) = bound.value
                handler.pace(remaining, bytesPerTenth: bytesPerTenth, keepAlive: keepAlive, context: context)
            }
            return
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if streaming != nil, let server = server.server.withLock({ $0 }) { pump(context: context, server: server) }
        context.fireChannelWritabilityChanged()
    }

    /// Writes the streamed body while the channel is writable; resumes on writability. Not
    /// re-entrant: a flush may report writability changes synchronously.
    private func pump(context: ChannelHandlerContext, server: HTTPFixtureServer) {
        guard !pumping else { return }
        pumping = true
        defer { pumping = false }
        while let s = streaming, s.remaining > 0, context.channel.isWritable {
            let n = min(64 << 10, s.remaining)
            var buffer = context.channel.allocator.buffer(capacity: n)
            let start = s.offset % 251
            buffer.writeBytes(HTTPFixtureHandler.pattern[start..<start + n])
            streaming = (s.remaining - n, s.offset + n, s.keepAlive)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer)))).whenSuccess { server.addStreamed(n) }
            context.flush()
        }
        if let s = streaming, s.remaining == 0 {
            streaming = nil
            let channel = context.channel, keepAlive = s.keepAlive
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                if !keepAlive { channel.close(promise: nil) }
            }
        }
    }
}
