import CarouselServer
import Foundation
import HummingbirdTesting
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
            let slowEnd = RawHTTP.readAll(slow, seconds: 5)
            #expect(slowEnd.closed && slowEnd.bytes.isEmpty)
            let idleEnd = RawHTTP.readAll(idle, seconds: 5)
            #expect(idleEnd.closed && idleEnd.bytes.isEmpty)
        }
    }

    @Test func onStopASessionIsClosedWith1001() async throws {
        let fixture = try ServerFixture()
        let socket = Mutex<Int32>(-1)
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let fd = try RawHTTP.connect(port: port)
            socket.withLock { $0 = fd }
            RawHTTP.send(fd, RawHTTP.upgrade("/lists/seoul/session", port: port))
            let deadline = ContinuousClock.now + .seconds(5)
            while fixture.server.sessions.openCount < 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(fixture.server.sessions.openCount == 1)
        }
        // The test's end stopped the server gracefully.
        let fd = socket.withLock { $0 }
        defer { close(fd) }
        let (bytes, _) = RawHTTP.readAll(fd, seconds: 5)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 101"))
        let head = try #require(text.range(of: "\r\n\r\n")).upperBound
        let frames = Array(bytes[text[..<head].utf8.count...])
        let close = try #require(frames.firstIndex(of: 0x88), "no close frame: \(frames)")
        #expect(frames.count >= close + 4)
        // The status code, big-endian, after the frame's two header bytes (RFC 6455 §5.5.1).
        #expect(Int(frames[close + 2]) << 8 | Int(frames[close + 3]) == 1001)
    }
}
