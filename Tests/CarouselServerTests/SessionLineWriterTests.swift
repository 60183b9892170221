import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import CarouselServer

/// A session's lines on its connection: text frames it encodes itself,
/// one flush per turn of the loop, the newest kept while the client does
/// not read.
@Suite struct SessionLineWriterTests {
    /// A writer before the frame encoder of an embedded channel's
    /// pipeline, as a session's connection has it.
    func makeWriter() throws -> (EmbeddedChannel, SessionLineWriter) {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
        let writer = SessionLineWriter(channel: channel)
        try writer.install(in: channel.pipeline.syncOperations)
        return (channel, writer)
    }

    /// The frames flushed so far, whole and in order, decoded from the
    /// bytes by RFC 6455 §5.2 (a server's frames: unmasked).
    func flushedFrames(_ channel: EmbeddedChannel) throws -> [(opcode: UInt8, text: String)] {
        var bytes = ByteBuffer()
        while var part = try channel.readOutbound(as: ByteBuffer.self) { bytes.writeBuffer(&part) }
        var frames: [(opcode: UInt8, text: String)] = []
        while bytes.readableBytes > 0 {
            let first: UInt8 = try Self.read(&bytes), second: UInt8 = try Self.read(&bytes)
            #expect(first & 0x80 != 0, "final")
            #expect(second & 0x80 == 0, "unmasked")
            var length = Int(second & 0x7F)
            if length == 126 {
                length = Int(try Self.read(&bytes, as: UInt16.self))
                #expect(length >= 126, "the fewest bytes")
            } else if length == 127 {
                length = Int(try Self.read(&bytes, as: UInt64.self))
                #expect(length > 0xFFFF, "the fewest bytes")
            }
            let text = bytes.readString(length: length)
            frames.append((first & 0x0F, try #require(text)))
        }
        return frames
    }

    /// The next integer of `bytes`; fails the test when they end first.
    static func read<T: FixedWidthInteger>(_ bytes: inout ByteBuffer, as: T.Type = T.self) throws -> T {
        let value = bytes.readInteger(as: T.self)
        return try #require(value, "a frame cut short")
    }

    /// The text of the text frames flushed so far.
    func flushedTexts(_ channel: EmbeddedChannel) throws -> [String] {
        try flushedFrames(channel).map { frame in
            #expect(frame.opcode == 0x1)
            return frame.text
        }
    }

    /// Sends `line`, lets the loop turn, and returns what was flushed.
    func flushed(after line: String, by writer: SessionLineWriter, on channel: EmbeddedChannel) throws -> [String] {
        writer.send(line)
        channel.embeddedEventLoop.run()
        return try flushedTexts(channel)
    }

    @Test func theLinesOfOneTurnLeaveInOneFlush() throws {
        let (channel, writer) = try makeWriter()
        writer.send(#"{"type":"camera"}"#)
        writer.send(#"{"type":"marker"}"#)
        // Written, not yet flushed: the flush waits for the loop's turn.
        #expect(try flushedTexts(channel) == [])
        channel.embeddedEventLoop.run()
        #expect(try flushedTexts(channel) == [#"{"type":"camera"}"#, #"{"type":"marker"}"#])
        #expect(try flushed(after: "next", by: writer, on: channel) == ["next"])
    }

    @Test func whileTheClientDoesNotReadTheNewestLinesWaitAndGoOutInOrder() throws {
        let (channel, writer) = try makeWriter()
        channel.isWritable = false
        for line in 0..<(SessionLineWriter.bufferedLines + 5) { writer.send("\(line)") }
        channel.embeddedEventLoop.run()
        #expect(try flushedTexts(channel) == [])
        #expect(writer.dropped == 5, "the oldest go")
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        channel.embeddedEventLoop.run()
        let texts = try flushedTexts(channel)
        #expect(texts.count == SessionLineWriter.bufferedLines)
        #expect(texts.first == "5" && texts.last == "\(SessionLineWriter.bufferedLines + 4)")
        // Writable again, and nothing waiting: straight out.
        #expect(try flushed(after: "after", by: writer, on: channel) == ["after"])
    }

    @Test func aLineSentWhileOthersWaitQueuesBehindThem() throws {
        let (channel, writer) = try makeWriter()
        channel.isWritable = false
        writer.send("first")
        // The channel says writable, but nobody has heard yet: "second"
        // must not overtake "first".
        channel.isWritable = true
        writer.send("second")
        channel.pipeline.fireChannelWritabilityChanged()
        channel.embeddedEventLoop.run()
        #expect(try flushedTexts(channel) == ["first", "second"])
    }

    @Test func aClosedWriterDropsWhatWaitsAndWhatComes() throws {
        let (channel, writer) = try makeWriter()
        channel.isWritable = false
        writer.send("waiting")
        writer.close()
        writer.send("later")
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        channel.embeddedEventLoop.run()
        #expect(try flushedTexts(channel) == [])
    }

    @Test(arguments: [0, 125, 126, 65_535, 65_536])
    func aLineOfAnyLengthIsOneFrameWithItsLengthInTheFewestBytes(length: Int) throws {
        let (channel, writer) = try makeWriter()
        let line = String(repeating: "é", count: length / 2) + String(repeating: "a", count: length % 2)
        #expect(line.utf8.count == length)
        #expect(try flushed(after: line, by: writer, on: channel) == [line])
    }

    @Test func whatTheLibraryWritesPassesThroughTheEncoderInOrder() throws {
        let (channel, writer) = try makeWriter()
        writer.send("camera")
        // A pong, as the WebSocket library writes it: from the tail,
        // through the encoder, then past the writer untouched.
        channel.write(WebSocketFrame(fin: true, opcode: .pong, data: ByteBuffer(string: "p")), promise: nil)
        writer.send("marker")
        channel.embeddedEventLoop.run()
        let frames = try flushedFrames(channel)
        #expect(frames.map(\.opcode) == [0x1, 0xA, 0x1])
        #expect(frames.map(\.text) == ["camera", "p", "marker"])
    }
}
