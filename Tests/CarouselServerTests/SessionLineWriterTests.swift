import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import CarouselServer

/// A session's lines on its connection: text frames, one flush per turn
/// of the loop, the newest kept while the client does not read.
@Suite struct SessionLineWriterTests {
    /// A writer at the end of an embedded channel's pipeline.
    func makeWriter() throws -> (EmbeddedChannel, SessionLineWriter) {
        let channel = EmbeddedChannel()
        let writer = SessionLineWriter(channel: channel)
        try channel.pipeline.syncOperations.addHandler(writer)
        return (channel, writer)
    }

    /// The text of the frames flushed so far.
    func flushedTexts(_ channel: EmbeddedChannel) throws -> [String] {
        var texts: [String] = []
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) {
            #expect(frame.opcode == .text && frame.fin && frame.maskKey == nil)
            texts.append(String(buffer: frame.unmaskedData))
        }
        return texts
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
}
