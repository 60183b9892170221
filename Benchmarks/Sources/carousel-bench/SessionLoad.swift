import Foundation
import NIOCore
import NIOPosix

/// Live sessions at 60 frames a second each, for the sessions ramp, from a
/// client that costs the machine little: every session on one NIO event
/// loop, its frames encoded and masked once, a line's type found by its
/// bytes. The same protocol and measure as `Benchmarks/scripts/sessions.py`
/// (which the ramp runs too): each session sends a layout with
/// `debounceMs` 0, then a frame every 1/60 s alternating between cards 1
/// and 0, so that every frame is answered at once by a camera and a
/// marker; the latency is from sending a frame to reading its camera.
///
/// The ramp's main client is C's (``SessionLoadProgram``): against a
/// server that does nothing else (``SessionFloor``) this one held 640
/// sessions, the C client 1,408–1,536 (2026-11-29), so past about 600 it measures
/// itself. It stays beside the C client as the client a Swift team would
/// write; Python's asyncio (`sessions.py`) spends about 47 µs of CPU a
/// frame.
final class SessionLoad {
    static let layout = #"{"layout":{"viewport":390,"itemLength":300,"spacing":12,"behavior":"groupPagingCentered","debounceMs":0}}"#
    /// Card 0's offset, then card 1's: the first frame sent is the second.
    static let frames = [#"{"offset":0}"#, #"{"offset":312}"#]
    static let frameInterval = TimeAmount.nanoseconds(1_000_000_000 / 60)

    let host: String
    let port: Int
    let path: String
    let serverPid: Int32?
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    init(host: String = "127.0.0.1", port: Int, path: String, serverPid: Int32? = nil) {
        self.host = host
        self.port = port
        self.path = path
        self.serverPid = serverPid
    }

    deinit {
        try? group.syncShutdownGracefully()
    }

    /// `sessions` sessions, connected and loaded, then `seconds` of frames.
    func step(sessions: Int, seconds: Double) throws -> SessionRamp.Step {
        let loop = group.next()
        let clients = (0..<sessions).map { _ in SessionClient(host: host, port: port, path: path, loop: loop) }
        defer {
            for client in clients { client.close() }
        }
        // In batches, as a crowd arrives: never a backlog's worth at once.
        for batch in stride(from: 0, to: clients.count, by: 64) {
            let ready = clients[batch..<Swift.min(batch + 64, clients.count)].map { client in
                ClientBootstrap(group: loop)
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .connect(host: host, port: port)
                    .flatMap { channel in client.start(on: channel) }
            }
            try EventLoopFuture.andAllSucceed(ready, on: loop).wait()
        }
        let cpuBefore = serverPid.map(SessionRamp.cpuSeconds)
        let start = NIODeadline.now()
        let end = start + .nanoseconds(Int64(seconds * 1e9))
        // One timer for every session's frame of a tick: a timer a session
        // cost the client more than the frames' writes.
        try loop.submit { Self.tick(clients, at: start, until: end, on: loop) }.wait()
        // Until every frame's last answer could have come.
        Thread.sleep(until: Date(timeIntervalSinceNow: seconds + 0.2))
        let cpuAfter = serverPid.map(SessionRamp.cpuSeconds)
        let (latencies, frames) = try loop.submit {
            clients.reduce(into: ([Double](), 0)) { total, client in
                total.0 += client.latencies
                total.0 += Array(repeating: .infinity, count: client.unanswered)
                total.1 += client.sent
            }
        }.wait()
        let sorted = latencies.sorted()
        let p99 = sorted.isEmpty ? .infinity : sorted[Swift.min(sorted.count - 1, Int(0.99 * Double(sorted.count)))] * 1000
        let cpu = SessionRamp.microsecondsPerFrame(before: cpuBefore ?? nil, after: cpuAfter ?? nil, frames: frames)
        return SessionRamp.Step(sessions: sessions, frames: frames, p99Milliseconds: p99, serverMicrosecondsPerFrame: cpu)
    }

    /// Each client sends its frame at `deadline`, and again every 1/60 s
    /// until `end`, on schedule (a late tick does not push the next ones
    /// back).
    private static func tick(_ clients: [SessionClient], at deadline: NIODeadline, until end: NIODeadline, on loop: any EventLoop) {
        guard deadline < end else { return }
        loop.scheduleTask(deadline: deadline) {
            for client in clients { client.sendFrame() }
            tick(clients, at: deadline + frameInterval, until: end, on: loop)
        }
    }

}

/// One live session's client: the handshake, the layout, then frames.
/// Touched only on its loop.
final class SessionClient: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    let host: String
    let port: Int
    let path: String
    let loop: any EventLoop
    private var channel: (any Channel)?
    private var received = ByteBuffer()
    private var switched = false
    /// The load's camera and marker: the session is ready when both came.
    private var linesBeforeReady = 2
    private var ready: EventLoopPromise<Void>?
    private var swiping = false
    private var sentAt: CircularBuffer<NIODeadline> = []
    private var frame = 0
    private(set) var latencies: [Double] = []
    private(set) var sent = 0
    var unanswered: Int { sentAt.count }

    /// The camera line's type, as the server writes it (compact JSON).
    private static let camera = Array(#""type":"camera""#.utf8)

    init(host: String, port: Int, path: String, loop: any EventLoop) {
        self.host = host
        self.port = port
        self.path = path
        self.loop = loop
    }

    /// Upgrades `channel` and sends the layout; succeeds once its camera
    /// and marker came.
    func start(on channel: any Channel) -> EventLoopFuture<Void> {
        self.channel = channel
        let ready = loop.makePromise(of: Void.self)
        self.ready = ready
        do {
            try channel.pipeline.syncOperations.addHandler(self)
        } catch {
            ready.fail(error)
            return ready.futureResult
        }
        let request =
            "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        var bytes = channel.allocator.buffer(string: request)
        bytes.writeImmutableBuffer(Self.maskedFrame(SessionLoad.layout))
        channel.writeAndFlush(bytes, promise: nil)
        return ready.futureResult
    }

    /// Sends the next frame (from card 0 to 1, then back), timed from now.
    func sendFrame() {
        guard let channel else { return }
        swiping = true
        frame += 1
        sent += 1
        sentAt.append(.now())
        channel.writeAndFlush(Self.encoded[frame % 2], promise: nil)
    }

    func close() {
        loop.execute {
            self.channel?.close(promise: nil)
            self.ready?.fail(ChannelError.ioOnClosedChannel)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        if !switched {
            guard let end = received.readableBytesView.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            let head = received.readString(length: end.upperBound - received.readerIndex) ?? ""
            guard head.hasPrefix("HTTP/1.1 101") else {
                ready?.fail(SessionLoadError("the server did not switch: \(head.prefix(40))"))
                ready = nil
                context.close(promise: nil)
                return
            }
            switched = true
        }
        while let payload = nextFramePayload() {
            if linesBeforeReady > 0 {
                linesBeforeReady -= 1
                if linesBeforeReady == 0 {
                    ready?.succeed()
                    ready = nil
                }
            } else if swiping, payload.firstRange(of: Self.camera) != nil, let sent = sentAt.popFirst() {
                latencies.append(Double((NIODeadline.now() - sent).nanoseconds) / 1e9)
            }
        }
        received.discardReadBytes()
    }

    func channelInactive(context: ChannelHandlerContext) {
        ready?.fail(SessionLoadError("the server closed the session"))
        ready = nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        ready?.fail(error)
        ready = nil
        context.close(promise: nil)
    }

    /// The payload of the next whole server frame in `received` (RFC 6455
    /// §5.2; a server's frames are not masked), consumed; nil until one is
    /// whole.
    private func nextFramePayload() -> ByteBufferView? {
        let start = received.readerIndex
        guard let second = received.getInteger(at: start + 1, as: UInt8.self) else { return nil }
        var header = 2
        var length = Int(second & 0x7F)
        if length == 126 {
            guard let extended = received.getInteger(at: start + 2, as: UInt16.self) else { return nil }
            length = Int(extended)
            header += 2
        } else if length == 127 {
            guard let extended = received.getInteger(at: start + 2, as: UInt64.self), extended < 1 << 24 else { return nil }
            length = Int(extended)
            header += 8
        }
        guard received.readableBytes >= header + length else { return nil }
        let payload = received.viewBytes(at: start + header, length: length)
        received.moveReaderIndex(forwardBy: header + length)
        return payload
    }

    /// The two offset frames, encoded and masked once.
    private static let encoded = SessionLoad.frames.map(maskedFrame)

    /// A final text frame of `text`, masked as a client's must be (RFC
    /// 6455 §5.3), with a fixed key: the server only checks that it is.
    static func maskedFrame(_ text: String) -> ByteBuffer {
        let payload = Array(text.utf8)
        precondition(payload.count < 126, "short frames only")
        let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        var frame = ByteBuffer()
        frame.writeBytes([0x81, 0x80 | UInt8(payload.count)] + key)
        frame.writeBytes(payload.enumerated().map { $0.element ^ key[$0.offset % 4] })
        return frame
    }
}

struct SessionLoadError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
