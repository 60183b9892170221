import NIOCore

/// Reads the frame headers of a session's WebSocket connection as its
/// bytes come, ahead of the frame decoder, for what the WebSocket library
/// does not do:
/// - a client frame without a mask closes the connection with 1002
///   (RFC 6455 §5.1: "a server MUST close the connection upon receiving a
///   frame that is not masked"); the library took them;
/// - every frame is traffic for `--session-idle-timeout`, pings and pongs
///   included (the library answers pings itself, so the session never saw
///   them, and a client that pinged every 2 s was closed as idle).
///
/// It sits before the HTTP decoder and passes bytes through untouched
/// until ``MalformedRequestHandler`` sees the 101 go out
/// (``switchedToWebSocket()``); then the HTTP handlers leave and what
/// passes are frames. What a client sent after its upgrade request before
/// that (its first frames, in the handshake's packet) passed as HTTP; the
/// handler hands those bytes here (``framesBeforeSwitch(_:)``). Only
/// headers are read: a payload is skipped by its length, never copied.
final class SessionFrameGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// A session with no frame from its client for this long is closed
    /// (1000, "idle"); nil: never.
    let idleTimeout: TimeAmount?

    private var context: ChannelHandlerContext?
    private var framing = false
    private var closing = false
    /// The bytes of a frame header read so far.
    private var header: [UInt8] = []
    /// Payload bytes of the current frame still to come.
    private var payloadLeft: UInt64 = 0
    private var lastTraffic = NIODeadline.now()
    private var idleCheck: Scheduled<Void>?

    init(idleTimeout: TimeAmount?) {
        self.idleTimeout = idleTimeout
        header.reserveCapacity(14)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        context.fireChannelInactive()
    }

    /// The 101 went out: from now on, bytes are frames.
    func switchedToWebSocket() {
        guard !framing, let context else { return }
        framing = true
        lastTraffic = .now()
        if let idleTimeout { scheduleIdleCheck(at: lastTraffic + idleTimeout, context: context) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard framing else {
            context.fireChannelRead(data)
            return
        }
        guard !closing else { return }
        if let broken = scan(unwrapInboundIn(data)) {
            close(context: context, code: broken.code, reason: broken.reason)
            return
        }
        context.fireChannelRead(data)
    }

    /// Bytes the client sent after its upgrade request and before the 101
    /// went out (its first frames, in the handshake's packet): they passed
    /// here as HTTP and reach the upgrade from the HTTP decoder as it leaves,
    /// through ``MalformedRequestHandler``, which hands them here. Their
    /// frames are held to the same rules; false when one broke them: the
    /// connection is closed, without a close frame (the HTTP encoder is
    /// still in place, and no 101 has gone out), and they go no further.
    func framesBeforeSwitch(_ bytes: ByteBuffer) -> Bool {
        guard let context, !closing else { return false }
        guard scan(bytes) == nil else {
            closing = true
            context.close(promise: nil)
            return false
        }
        return true
    }

    /// Reads the frame headers in `bytes`, carrying a header or payload
    /// cut between reads over to the next; the close code and reason when
    /// a frame broke a rule.
    private func scan(_ bytes: ByteBuffer) -> (code: UInt16, reason: String)? {
        var index = bytes.readerIndex
        let end = bytes.writerIndex
        while index < end {
            if payloadLeft > 0 {
                let skipped = min(payloadLeft, UInt64(end - index))
                index += Int(skipped)
                payloadLeft -= skipped
                continue
            }
            header.append(bytes.getInteger(at: index, as: UInt8.self)!)
            index += 1
            guard let length = Self.headerLength(header), header.count == length else { continue }
            // RFC 6455 §5.2: the MASK bit is the top bit of the second byte.
            guard header[1] & 0x80 != 0 else { return (1002, "client frames must be masked") }
            payloadLeft = Self.payloadLength(header)
            header.removeAll(keepingCapacity: true)
            lastTraffic = .now()
        }
        return nil
    }

    /// The whole header's length once its first two bytes are known:
    /// 2, then 2 or 8 bytes of extended length (a 7-bit length of 126 or
    /// 127), then the 4-byte mask key when the frame is masked.
    static func headerLength(_ header: [UInt8]) -> Int? {
        guard header.count >= 2 else { return nil }
        let extended =
            switch header[1] & 0x7F {
            case 126: 2
            case 127: 8
            default: 0
            }
        return 2 + extended + (header[1] & 0x80 != 0 ? 4 : 0)
    }

    static func payloadLength(_ header: [UInt8]) -> UInt64 {
        switch header[1] & 0x7F {
        case 126: return UInt64(header[2]) << 8 | UInt64(header[3])
        case 127: return header[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
        case let short: return UInt64(short)
        }
    }

    private func scheduleIdleCheck(at deadline: NIODeadline, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        idleCheck = context.eventLoop.scheduleTask(deadline: deadline) {
            loopBound.value.checkIdle()
        }
    }

    private func checkIdle() {
        guard let context, let idleTimeout, !closing else { return }
        let due = lastTraffic + idleTimeout
        if due <= .now() {
            close(context: context, code: 1000, reason: "idle")
        } else {
            scheduleIdleCheck(at: due, context: context)
        }
    }

    /// Sends a close frame with `code` and `reason` (RFC 6455 §5.5.1; a
    /// server's frames are not masked) and closes the connection.
    private func close(context: ChannelHandlerContext, code: UInt16, reason: String) {
        closing = true
        idleCheck?.cancel()
        let reasonBytes = Array(reason.utf8.prefix(123))
        var frame = context.channel.allocator.buffer(capacity: 4 + reasonBytes.count)
        frame.writeInteger(UInt8(0x88))
        frame.writeInteger(UInt8(2 + reasonBytes.count))
        frame.writeInteger(code)
        frame.writeBytes(reasonBytes)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(frame)).whenComplete { _ in loopBound.value.close(promise: nil) }
    }
}
