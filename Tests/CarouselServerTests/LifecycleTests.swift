import CarouselServer
import Foundation
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// How connections end: a head not complete in time is closed, and a stop
/// closes sessions with 1001 ("going away").
@Suite struct LifecycleTests {
    @Test func aHeadNotCompleteWithinTheRequestTimeoutIsClosed() async throws {
        var options = ServerOptions()
        options.requestTimeout = .milliseconds(300)
        let fixture = try ServerFixture(options: options)
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            // Half a head, then nothing: closed without an answer.
            let slow = try RawHTTP.connect(port: port)
            defer { close(slow) }
            RawHTTP.send(slow, "GET /lists HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            let idle = try RawHTTP.connect(port: port)
            defer { close(idle) }
            // Meanwhile a whole request is answered.
            let fine = try await RawHTTP.exchange(port: port, RawHTTP.get("/healthz", headers: [("Host", "127.0.0.1")]))
            #expect(fine.status == 200)
            let slowEnd = await RawHTTP.readAll(slow, seconds: 5)
            #expect(slowEnd.closed && slowEnd.bytes.isEmpty)
            let idleEnd = await RawHTTP.readAll(idle, seconds: 5)
            #expect(idleEnd.closed && idleEnd.bytes.isEmpty)
        }
    }

    @Test func onStopASessionIsClosedWith1001() async throws {
        let fixture = try ServerFixture()
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let application = fixture.server.application(host: "127.0.0.1", port: 0) { portContinuation.yield($0) }
        let group = fixture.server.stoppingGroup(application, shutdownGrace: .seconds(10), logger: Logger(label: "test"), signals: [])
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let fd = try RawHTTP.connect(port: port)
        // Closed once, before the server is awaited. A second close, as a
        // `defer` here made, could close a socket that one of the servers
        // of the tests running beside this one had opened under the same
        // number since, and crashed it (NIO's precondition on EBADF).
        var open = true
        defer { if open { close(fd) } }
        RawHTTP.send(fd, RawHTTP.upgrade("/lists/seoul/session", port: port))
        try await eventually { fixture.server.sessions.openCount >= 1 }
        #expect(fixture.server.sessions.openCount == 1)

        // What SIGTERM does.
        await group.triggerGracefulShutdown()
        let bytes = await RawHTTP.readUntilCloseFrame(fd, seconds: 10)
        close(fd)
        open = false
        try await running.value
        let frame = try #require(RawHTTP.closeFrameOffset(bytes), "no close frame: \(bytes)")
        #expect(String(decoding: bytes.prefix(12), as: UTF8.self) == "HTTP/1.1 101")
        #expect(bytes.count >= frame + 4)
        // The status code, big-endian, after the frame's two header bytes (RFC 6455 §5.5.1).
        #expect(Int(bytes[frame + 2]) << 8 | Int(bytes[frame + 3]) == 1001)
    }
}
