import NIOCore
import NIOHTTP1

/// Tells how a connection's start went: its first request's head came,
/// or the connection closed before one — quietly (a port check, the
/// header deadline) or after an error (a refused TLS handshake).
///
/// hummingbird-websocket's channel logs an `error` line with no client
/// for every connection that ends before its first request (302 of them
/// from one cipher scan). `GuardedUpgradeChannel` waits for this outcome
/// instead, and hands the connection on only when a request came; a
/// refused handshake becomes one attributable line (``RefusalLog``). The
/// watch leaves the pipeline at the first head.
final class FirstRequestWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    enum Outcome: Sendable {
        case request
        /// Closed before a head; the first error seen, if any, and the
        /// client's address (taken while the connection was open: a
        /// closed channel has none).
        case closed(firstError: (any Error)?, client: SocketAddress?)
    }

    private let promise: EventLoopPromise<Outcome>
    private var firstError: (any Error)?
    private var client: SocketAddress?
    private var done = false

    init(promise: EventLoopPromise<Outcome>) {
        self.promise = promise
    }

    var outcome: EventLoopFuture<Outcome> { promise.futureResult }

    func handlerAdded(context: ChannelHandlerContext) {
        client = context.channel.remoteAddress
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let first = !done && { if case .head = unwrapInboundIn(data) { true } else { false } }()
        context.fireChannelRead(data)
        guard first else { return }
        finish(.request)
        // After passing the head on: a handler that leaves first drops it.
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if firstError == nil { firstError = error }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.closed(firstError: firstError, client: client))
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // Removed with its pipeline: the connection is gone.
        finish(.closed(firstError: firstError, client: client))
    }

    private func finish(_ outcome: Outcome) {
        guard !done else { return }
        done = true
        promise.succeed(outcome)
    }
}
