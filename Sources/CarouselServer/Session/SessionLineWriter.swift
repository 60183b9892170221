import NIOCore
import NIOWebSocket

/// Writes a live session's lines to its connection as text frames, and
/// flushes once the loop has run what is queued on it: the lines one
/// message makes (a frame's `camera` and `marker`) leave in one `writev`.
///
/// Why not the WebSocket library's writer: it writes and flushes each
/// message, and through its actor, so every line was a hop into and out
/// of the actor and a `writev` of its own — a flush held to the loop's
/// next task still ran between the two lines (strace: 30,912 `writev` for
/// 15,360 frames). Profiled with 160 sessions swiping at 60 frames a
/// second, the kernel's send path was a fifth of the server's CPU; written
/// here, a frame costs the server 43–47 µs of CPU against 56–60 µs through
/// the library (`serve` of each build side by side, three runs each,
/// alternating). The library still reads the frames and does the
/// handshakes (ping, pong, close).
///
/// Back-pressure as before: while the connection cannot take more (NIO's
/// high-water mark), lines wait here, the newest ``bufferedLines`` of them;
/// a client that does not read loses the oldest, as a map that only needs
/// the latest camera would. Once closed, lines are dropped.
///
/// Everything it holds is touched on the channel's loop: a line sent from
/// elsewhere is handed to the loop first.
///
/// It sits before the WebSocket frame encoder, nearer the socket
/// (``install(in:)``), and writes each line as a frame it encodes itself:
/// one buffer a line, header and text, written from its own place in the
/// pipeline and flushed from there. Through the encoder, a line was a
/// `WebSocketFrame` boxed into the pipeline's `NIOAny`, passed through
/// every outbound handler after it, cast back by the encoder, and given a
/// header buffer of its own: two iovecs of the `writev` a line, the header
/// buffer copied on write while the last one was still queued. What the
/// library writes (pongs, its close frame) comes through the encoder and
/// passes here untouched, in the order it was written.
final class SessionLineWriter: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = ByteBuffer

    /// As many lines as the session's stream kept before.
    static let bufferedLines = 1024

    private let channel: any Channel
    /// Its place in the pipeline, once added.
    private var context: ChannelHandlerContext?
    private var waiting = CircularBuffer<String>()
    private var flushQueued = false
    private var closed = false
    /// Lines lost to a client that did not read.
    private(set) var dropped = 0

    init(channel: any Channel) {
        self.channel = channel
    }

    /// Adds the writer to `pipeline` just before the WebSocket frame
    /// encoder (on the channel's loop).
    func install(in pipeline: ChannelPipeline.SynchronousOperations) throws {
        let encoder = try pipeline.context(handlerType: WebSocketFrameEncoder.self)
        try pipeline.addHandler(self, position: .before(encoder.handler))
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        writeWaiting()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Writes `line` as a text frame (after those sent before it).
    func send(_ line: String) {
        guard channel.eventLoop.inEventLoop else {
            channel.eventLoop.execute { self.send(line) }
            return
        }
        guard !closed else { return }
        guard waiting.isEmpty, let context, channel.isWritable else {
            if waiting.count == Self.bufferedLines {
                _ = waiting.removeFirst()
                dropped += 1
            }
            waiting.append(line)
            return
        }
        write(line, on: context)
    }

    /// Drops what waits and whatever comes next.
    func close() {
        guard channel.eventLoop.inEventLoop else {
            channel.eventLoop.execute { self.close() }
            return
        }
        closed = true
        waiting.removeAll()
    }

    private func write(_ line: String, on context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(Self.textFrame(line, allocator: context.channel.allocator)), promise: nil)
        guard !flushQueued else { return }
        flushQueued = true
        context.eventLoop.execute {
            self.flushQueued = false
            self.context?.flush()
        }
    }

    private func writeWaiting() {
        while !closed, let context, channel.isWritable, let line = waiting.popFirst() {
            write(line, on: context)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        writeWaiting()
        context.fireChannelWritabilityChanged()
    }

    /// `line` as one final text frame, unmasked as a server's are (RFC
    /// 6455 §5.1), its length in the fewest bytes §5.2 allows: 7 bits, or
    /// 126 then 16, or 127 then 64.
    static func textFrame(_ line: String, allocator: ByteBufferAllocator) -> ByteBuffer {
        let length = line.utf8.count
        var frame = allocator.buffer(capacity: 10 + length)
        frame.writeInteger(UInt8(0x81))  // FIN, text
        switch length {
        case ..<126:
            frame.writeInteger(UInt8(length))
        case ...0xFFFF:
            frame.writeInteger(UInt8(126))
            frame.writeInteger(UInt16(length))
        default:
            frame.writeInteger(UInt8(127))
            frame.writeInteger(UInt64(length))
        }
        frame.writeString(line)
        return frame
    }
}
