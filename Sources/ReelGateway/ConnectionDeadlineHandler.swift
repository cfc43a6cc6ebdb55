import NIOCore
import NIOHTTP1

/// Closes a gateway connection that does not send a complete request head within
/// `headerTimeout` of connecting, or that stays idle (keep-alive, no new request) for
/// `idleTimeout` after a response ended. Partial headers do not reset the clock (slowloris).
/// While a request is being answered (a long media body) no deadline runs. Sits after NIO's
/// HTTP codec; tells the `ConnectionBook` when the connection turns idle or busy.
final class ConnectionDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let headerTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private let book: ConnectionBook
    private var deadline: Scheduled<Void>?

    init(headerTimeout: TimeAmount, idleTimeout: TimeAmount, book: ConnectionBook) {
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.book = book
    }

    func handlerAdded(context: ChannelHandlerContext) { arm(headerTimeout, context: context) }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            disarm()
            book.setIdle(context.channel, false)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            book.setIdle(context.channel, true)
            arm(idleTimeout, context: context)
        }
        context.write(data, promise: promise)
    }

    private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext) {
        disarm()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}
