import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import CarouselServer

/// A session's messages off its connection: after what the library read
/// first, joined from their fragments, the connection failed as RFC 6455
/// says on what is not a message.
@Suite struct SessionFrameReaderTests {
    /// What a reader handed over.
    final class Delivered: @unchecked Sendable {
        var messages: [SessionFrameReader.Message] = []
    }

    /// Counts the reads the pipeline asks of the connection.
    final class ReadCounter: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = NIOAny
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    /// A reader of messages up to `maxMessage` bytes on an embedded
    /// channel, behind a read counter, its marker already read by "the
    /// library" (the pipeline's end).
    func makeReader(maxMessage: Int = 64) throws -> (EmbeddedChannel, SessionFrameReader, Delivered, ReadCounter) {
        let channel = EmbeddedChannel()
        let delivered = Delivered()
        let counter = ReadCounter()
        let reader = SessionFrameReader(maxMessage: maxMessage) { delivered.messages.append($0) }
        try channel.pipeline.syncOperations.addHandler(counter)
        try channel.pipeline.syncOperations.addHandler(reader)
        let marker = try #require(try channel.readInbound(as: WebSocketFrame.self))
        #expect(marker.opcode == .text && marker.fin && String(buffer: marker.unmaskedData) == reader.marker)
        return (channel, reader, delivered, counter)
    }

    /// A frame as a client sends it: masked (RFC 6455 §5.3).
    func frame(_ opcode: WebSocketOpcode, _ bytes: [UInt8], fin: Bool = true, rsv1: Bool = false) -> WebSocketFrame {
        let key: WebSocketMaskingKey = [0x12, 0x34, 0x56, 0x78]
        var data = ByteBuffer(bytes: bytes)
        data.webSocketMask(key)
        return WebSocketFrame(fin: fin, rsv1: rsv1, opcode: opcode, maskKey: key, data: data)
    }

    func text(_ string: String, fin: Bool = true) -> WebSocketFrame {
        frame(.text, Array(string.utf8), fin: fin)
    }

    func continuation(_ string: String, fin: Bool = true) -> WebSocketFrame {
        frame(.continuation, Array(string.utf8), fin: fin)
    }

    /// The close code the reader sent, having closed the connection.
    func failure(of channel: EmbeddedChannel) throws -> WebSocketErrorCode? {
        channel.embeddedEventLoop.run()
        guard var close = try channel.readOutbound(as: WebSocketFrame.self), close.opcode == .connectionClose else { return nil }
        #expect(!channel.isActive, "the connection is closed")
        return close.data.readWebSocketErrorCode()
    }

    @Test func whatTheLibraryReadFirstGoesFirst() throws {
        let (channel, reader, delivered, _) = try makeReader()
        try channel.writeInbound(text("a"))
        // Held until the library has handed its own over, marker last.
        #expect(delivered.messages == [])
        reader.libraryDrained()
        #expect(delivered.messages == [.text("a")])
        try channel.writeInbound(text("b"))
        #expect(delivered.messages == [.text("a"), .text("b")])
        #expect(try channel.readInbound(as: WebSocketFrame.self) == nil, "messages do not reach the library")
    }

    @Test func whileHoldingItStopsReadingOnceTheHeldAreMany() throws {
        let (channel, reader, delivered, counter) = try makeReader()
        channel.read()
        #expect(counter.reads == 1)
        for index in 0..<SessionFrameReader.heldMessages { try channel.writeInbound(text("\(index)")) }
        channel.read()
        #expect(counter.reads == 1, "the read waits")
        reader.libraryDrained()
        #expect(counter.reads == 2, "and is asked once the held are delivered")
        #expect(delivered.messages.count == SessionFrameReader.heldMessages)
        #expect(delivered.messages.last == .text("\(SessionFrameReader.heldMessages - 1)"))
    }

    @Test func fragmentsMakeOneMessageAndBinaryIsTold() throws {
        let (channel, reader, delivered, _) = try makeReader()
        reader.libraryDrained()
        try channel.writeInbound(text("{\"off", fin: false))
        try channel.writeInbound(frame(.ping, [1, 2]))
        try channel.writeInbound(continuation("set\":", fin: false))
        try channel.writeInbound(continuation("312}"))
        try channel.writeInbound(frame(.binary, [0xFF]))
        #expect(delivered.messages == [.text(#"{"offset":312}"#), .binary])
        // A control frame between fragments is the library's to answer.
        let ping = try #require(try channel.readInbound(as: WebSocketFrame.self))
        #expect(ping.opcode == .ping && Array(buffer: ping.unmaskedData) == [1, 2])
    }

    @Test func handshakesPassToTheLibrary() throws {
        let (channel, reader, delivered, _) = try makeReader()
        reader.libraryDrained()
        for opcode in [WebSocketOpcode.ping, .pong, .connectionClose] {
            try channel.writeInbound(frame(opcode, []))
            #expect(try channel.readInbound(as: WebSocketFrame.self)?.opcode == opcode)
        }
        #expect(delivered.messages == [])
    }

    @Test(arguments: [
        // Over `maxMessage` (8 bytes) in one frame, and in fragments.
        ([Array("123456789".utf8)], WebSocketErrorCode.messageTooLarge),
        ([Array("12345".utf8), Array("6789".utf8)], .messageTooLarge),
        // Not UTF-8: a lone continuation byte.
        ([[0x61, 0x80]], .dataInconsistentWithMessage),
        ([[0x61, 0xE2, 0x82], [0xAC, 0xFF]], .dataInconsistentWithMessage),
    ])
    func aMessageThatIsNotOneFailsTheConnection(fragments: [[UInt8]], code: WebSocketErrorCode) throws {
        let (channel, reader, delivered, _) = try makeReader(maxMessage: 8)
        reader.libraryDrained()
        for (index, bytes) in fragments.enumerated() {
            let last = index == fragments.count - 1
            try channel.writeInbound(frame(index == 0 ? .text : .continuation, bytes, fin: last))
        }
        #expect(try failure(of: channel) == code)
        #expect(delivered.messages == [])
    }

    @Test func framesOutOfOrderOrWithReservedBitsFailTheConnection() throws {
        let cases: [[WebSocketFrame]] = [
            [continuation("lone")],
            [text("first", fin: false), text("second")],
            [frame(.text, Array("x".utf8), rsv1: true)],
        ]
        for frames in cases {
            let (channel, reader, delivered, _) = try makeReader()
            reader.libraryDrained()
            for frame in frames { try channel.writeInbound(frame) }
            #expect(try failure(of: channel) == .protocolError)
            // Nothing more is read as a message once failed.
            try? channel.writeInbound(text("after"))
            #expect(delivered.messages == [])
        }
    }

    @Test func aTextMessageIsCheckedAsAWhole() throws {
        // "€" split across two fragments is valid once joined.
        let (channel, reader, delivered, _) = try makeReader()
        reader.libraryDrained()
        try channel.writeInbound(frame(.text, [0xE2, 0x82], fin: false))
        try channel.writeInbound(frame(.continuation, [0xAC]))
        #expect(delivered.messages == [.text("€")])
    }
}
