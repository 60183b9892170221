import HummingbirdCore
import Logging
import NIOCore

/// Closes a connection whose first request's headers are not complete
/// within the request timeout: a client that connects and then sends
/// nothing, or a byte at a time (slowloris), holds a socket for that long
/// at most, and never a worker, since reading is NIO's and never blocks.
///
/// Later requests on a kept-alive connection are the HTTP channel's idle
/// timeout's (set to the same time): its clock restarts only when a whole
/// request part arrives, so a dribbled head is closed there too. The
/// handler sits ahead of the HTTP decoder (behind TLS), looks for the
/// blank line that ends the head (RFC 9112 §2.1), then removes itself.
final class HeaderDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// How much of CR LF CR LF the last bytes matched.
    private var matched = 0

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) { loopBound.value.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if deadline != nil, headEnds(in: buffer) {
            deadline?.cancel()
            deadline = nil
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        context.fireChannelRead(data)
    }

    /// Whether the head's blank line ends in `buffer`, carrying a partial
    /// match over from the previous read.
    private func headEnds(in buffer: ByteBuffer) -> Bool {
        let pattern: [UInt8] = [13, 10, 13, 10]
        for byte in buffer.readableBytesView {
            if byte == pattern[matched] {
                matched += 1
                if matched == 4 { return true }
            } else {
                matched = byte == 13 ? 1 : 0
            }
        }
        return false
    }
}

/// A child channel that puts a ``HeaderDeadlineHandler`` ahead of its base's handlers.
struct HeaderDeadlineChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let timeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(HeaderDeadlineHandler(timeout: timeout))
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
