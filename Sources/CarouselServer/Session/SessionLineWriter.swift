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
/// elsewhere is handed to the loop first. It is the pipeline's last
/// handler, to hear when the connection can take more.
final class SessionLineWriter: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny

    /// As many lines as the session's stream kept before.
    static let bufferedLines = 1024

    private let channel: any Channel
    private var waiting = CircularBuffer<String>()
    private var flushQueued = false
    private var closed = false
    /// Lines lost to a client that did not read.
    private(set) var dropped = 0

    init(channel: any Channel) {
        self.channel = channel
    }

    /// Writes `line` as a text frame (after those sent before it).
    func send(_ line: String) {
        guard channel.eventLoop.inEventLoop else {
            channel.eventLoop.execute { self.send(line) }
            return
        }
        guard !closed else { return }
        guard waiting.isEmpty, channel.isWritable else {
            if waiting.count == Self.bufferedLines {
                _ = waiting.removeFirst()
                dropped += 1
            }
            waiting.append(line)
            return
        }
        write(line)
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

    private func write(_ line: String) {
        // RFC 6455 §5.1: a server's frames are not masked.
        let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: line))
        channel.write(frame, promise: nil)
        guard !flushQueued else { return }
        flushQueued = true
        channel.eventLoop.execute {
            self.flushQueued = false
            self.channel.flush()
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        while !closed, context.channel.isWritable, let line = waiting.popFirst() {
            write(line)
        }
        context.fireChannelWritabilityChanged()
    }
}
