import Foundation
import NIOCore
import NIOWebSocket

/// Reads a live session's messages off its connection and hands each to
/// the session on the connection's loop, as it is decoded: the inbound
/// twin of ``SessionLineWriter``.
///
/// Why not the WebSocket library's reader: a frame went through three
/// asynchronous sequences (NIO's async channel, the library's frame stream,
/// its message stream), each a buffer, a lock and a task resumed, before
/// the session saw it. Profiled with 160 sessions swiping at 60 frames a
/// second, that path was a quarter of the server's CPU; read here, a frame
/// costs the server 39.7–41.8 µs of CPU against 46.4–48.0 through the
/// library (`serve` of each build side by side, three runs each,
/// alternating; BENCHMARKS.md). The library still
/// does the handshakes: control frames (ping, pong, close) pass through to
/// it, and it sends the pongs and answers the close.
///
/// It does what the library did with a message (RFC 6455 §5.4–5.6,
/// §8.1): joins the fragments of a message up to `maxMessage` bytes,
/// checks a text message's UTF-8, and fails the connection — a close frame
/// with the code, then the connection closed — on a message too large
/// (1009), text that is not UTF-8 (1007), or frames out of order or with
/// reserved bits no extension asked for (1002).
///
/// Frames the library read before this handler was added (a client sends
/// its first message with the handshake) are the library's to deliver, and
/// come first: on being added, this handler sends the library a text frame
/// of its own, ``marker``, after them, and holds what it reads until the
/// library's reader hands the marker back (``libraryDrained()``). While it
/// holds, it stops reading once ``heldMessages`` wait.
///
/// Everything it holds is touched on the channel's loop.
final class SessionFrameReader: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    /// A client's message.
    enum Message: Equatable {
        case text(String)
        /// The session takes text only; the client is told so.
        case binary
    }

    /// How many messages wait for the library's reader before reading stops.
    static let heldMessages = 64

    /// The text the library hands back once it has delivered what it read
    /// before: random, so no client can send it.
    let marker = "session-frame-reader-" + UUID().uuidString

    private let maxMessage: Int
    private let deliver: (Message) -> Void
    private var context: ChannelHandlerContext?
    /// The messages read while the library's reader still had some;
    /// nil once it has none.
    private var held: [Message]? = []
    /// A read asked for while reading was stopped.
    private var readWaiting = false
    /// The first frame and the fragments so far of a message sent in
    /// fragments.
    private var fragments: (opcode: WebSocketOpcode, data: ByteBuffer)?
    private var failed = false

    /// Hands each message of up to `maxMessage` bytes to `deliver`, on the
    /// channel's loop, in the order the client sent them.
    init(maxMessage: Int, deliver: @escaping (Message) -> Void) {
        self.maxMessage = maxMessage
        self.deliver = deliver
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // RFC 6455 §5.1 asks a client's frames to be masked; the library
        // takes either.
        let frame = WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: marker))
        context.fireChannelRead(wrapInboundOut(frame))
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// The library's reader handed back the ``marker``: the messages held
    /// go to the session, and from now on each as it is read.
    func libraryDrained() {
        guard let context else { return }
        guard context.eventLoop.inEventLoop else {
            context.eventLoop.execute { self.libraryDrained() }
            return
        }
        guard let messages = held else { return }
        held = nil
        for message in messages where !failed { deliver(message) }
        if readWaiting {
            readWaiting = false
            context.read()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary, .continuation:
            guard !failed else { return }
            if frame.rsv1 || frame.rsv2 || frame.rsv3 { return fail(context, .protocolError) }
            read(frame, context: context)
        default:
            // Control frames, and the reserved opcodes the library refuses.
            context.fireChannelRead(data)
        }
    }

    private func read(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        var data = frame.unmaskedData
        if frame.opcode == .continuation {
            guard var message = fragments else { return fail(context, .protocolError) }
            // Let go of the stored copy first, so the append does not copy.
            fragments = nil
            guard data.readableBytes <= maxMessage - message.data.readableBytes else { return fail(context, .messageTooLarge) }
            message.data.writeBuffer(&data)
            if frame.fin {
                complete(message.opcode, message.data, context: context)
            } else {
                fragments = message
            }
        } else {
            guard fragments == nil else { return fail(context, .protocolError) }
            guard data.readableBytes <= maxMessage else { return fail(context, .messageTooLarge) }
            if frame.fin {
                complete(frame.opcode, data, context: context)
            } else {
                fragments = (frame.opcode, data)
            }
        }
    }

    private func complete(_ opcode: WebSocketOpcode, _ data: ByteBuffer, context: ChannelHandlerContext) {
        let message: Message
        if opcode == .text {
            guard let text = String(validatingUTF8Of: data) else {
                return fail(context, .dataInconsistentWithMessage)
            }
            message = .text(text)
        } else {
            message = .binary
        }
        guard held != nil else { return deliver(message) }
        held?.append(message)
    }

    /// RFC 6455 §7.1.7, failing the connection: a close frame with `code`,
    /// then the connection closed, without waiting for the client's close.
    private func fail(_ context: ChannelHandlerContext, _ code: WebSocketErrorCode) {
        failed = true
        fragments = nil
        // Nothing held goes to the session; the marker is still awaited.
        if held != nil { held = [] }
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        let channel = context.channel
        context.writeAndFlush(NIOAny(frame)).whenComplete { _ in channel.close(promise: nil) }
    }

    func read(context: ChannelHandlerContext) {
        if let held, held.count >= Self.heldMessages {
            readWaiting = true
            return
        }
        context.read()
    }
}

extension String {
    /// The text of `buffer`'s bytes when they are UTF-8, else nil.
    fileprivate init?(validatingUTF8Of buffer: ByteBuffer) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            guard let text = try? buffer.getUTF8ValidatedString(at: buffer.readerIndex, length: buffer.readableBytes) else { return nil }
            self = text
        } else {
            // Decoding repairs what is not UTF-8: a repaired text differs
            // from its bytes.
            let text = String(buffer: buffer)
            guard text.utf8.elementsEqual(buffer.readableBytesView) else { return nil }
            self = text
        }
    }
}
