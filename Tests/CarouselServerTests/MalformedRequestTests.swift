import Foundation
import HummingbirdTesting
import Testing

@testable import CarouselServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the HTTP decoder cannot parse, against a running server: headers
/// over the limit get 431 with the JSON error body, garbage gets 400 with
/// it, and the connection then closes — on a first request, a later one
/// on a kept-alive connection, and a session upgrade alike.
@Suite struct MalformedRequestTests {
    /// Headers of about `bytes` bytes in all, in fields of 1 KiB.
    static func headers(bytes: Int) -> [(String, String)] {
        (0..<(bytes / 1024 + 1)).map { ("X-Padding-\($0)", String(repeating: "p", count: 1000)) }
    }

    static func expectJSONError(_ reply: RawHTTP.Reply, status: Int, code: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.status == status, "\(reply.status) \(reply.body)", sourceLocation: sourceLocation)
        #expect(reply.headers["content-type"] == "application/json; charset=utf-8", sourceLocation: sourceLocation)
        #expect(reply.headers["connection"] == "close", sourceLocation: sourceLocation)
        let object = try? JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any]
        #expect((object?["error"] as? [String: Any])?["code"] as? String == code, "\(reply.body)", sourceLocation: sourceLocation)
        // Every operation declares the 431 (garbage has no operation).
        if status == 431 {
            let problems = OpenAPIValidator.shared.problems(
                method: "GET", path: "/lists", status: reply.status, contentType: reply.headers["content-type"], body: Data(reply.body.utf8))
            #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
        }
    }

    @Test func headersOverTheLimitAre431WithTheJSONErrorThenTheConnectionCloses() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            // 100 KiB of headers, over the 80 KiB limit.
            let big = try await RawHTTP.exchange(
                port: port, RawHTTP.get("/lists", headers: [("Host", "127.0.0.1:\(port)")] + Self.headers(bytes: 100 * 1024)))
            Self.expectJSONError(big, status: 431, code: "headers_too_large")
            #expect(big.body.contains("80 KiB"))
            // One field over the limit, and too many small fields.
            let field = try await RawHTTP.exchange(
                port: port, RawHTTP.get("/lists", headers: [("Host", "127.0.0.1"), ("X-Big", String(repeating: "b", count: 90 * 1024))]))
            Self.expectJSONError(field, status: 431, code: "headers_too_large")
            let many = try await RawHTTP.exchange(
                port: port, RawHTTP.get("/lists", headers: [("Host", "127.0.0.1")] + (0..<1100).map { ("X-F\($0)", "1") }))
            Self.expectJSONError(many, status: 431, code: "headers_too_large")
            // A session upgrade with headers over the limit: the same.
            let upgrade = try await RawHTTP.exchange(
                port: port, RawHTTP.upgrade("/lists/seoul/session", port: port, extra: Self.headers(bytes: 100 * 1024)))
            Self.expectJSONError(upgrade, status: 431, code: "headers_too_large")
            // Headers under the limit are served.
            let fine = try await RawHTTP.exchange(
                port: port, RawHTTP.get("/lists", headers: [("Host", "127.0.0.1:\(port)")] + Self.headers(bytes: 40 * 1024)))
            #expect(fine.status == 200)
        }
    }

    @Test func garbageIs400WithTheJSONErrorThenTheConnectionCloses() async throws {
        // `exchange` returns once the body is whole; `Connection: close`
        // says the server closes, which the kept-alive test below sees.
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let garbage = [
                "\u{1}\u{2}\u{3} nonsense\r\n\r\n", "GET /lists HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n",
                "G@T /lists HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            ]
            for garbage in garbage {
                let reply = try await RawHTTP.exchange(port: port, garbage)
                Self.expectJSONError(reply, status: 400, code: "bad_request")
            }
        }
    }

    @Test func aLaterRequestOnAKeptAliveConnectionGetsItsOwnAnswer() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let fd = try RawHTTP.connect(port: port)
            defer { close(fd) }
            // A whole request and its whole answer first, then the bad one.
            RawHTTP.send(fd, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            let first = try #require(await RawHTTP.readResponse(fd, seconds: 10))
            #expect(first.status == 200)
            RawHTTP.send(
                fd,
                RawHTTP.get("/lists", headers: [("Host", "127.0.0.1:\(port)")] + Self.headers(bytes: 100 * 1024)))
            // Read until the server closes: it does after the 431.
            let (bytes, closed) = await RawHTTP.readAll(fd, seconds: 10)
            let second = try #require(RawHTTP.parse(bytes))
            Self.expectJSONError(second, status: 431, code: "headers_too_large")
            #expect(closed, "the connection stayed open")
        }
    }
}

extension RawHTTP {
    /// One response read from `fd`: its head and, when it says how long
    /// it is, its body; nil when the peer closes or `seconds` pass first.
    static func readResponse(_ fd: Int32, seconds: Int) async -> Reply? {
        await onThread { readResponseNow(fd, seconds: seconds) }
    }

    static func readResponseNow(_ fd: Int32, seconds: Int) -> Reply? {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var byte = [UInt8](repeating: 0, count: 1)
        // A byte at a time: nothing past this response is taken off the socket.
        while true {
            if let reply = parse(received) {
                let length = reply.headers["content-length"].flatMap(Int.init) ?? 0
                if reply.status == 101 || reply.rawBody.count >= length { return reply }
            }
            guard recv(fd, &byte, 1, 0) == 1 else { return nil }
            received.append(byte[0])
        }
    }
}
