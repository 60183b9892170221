import Foundation
import HTTPTypes
import HummingbirdTesting
import TestSupport
import Testing

@testable import CarouselServer

/// The protocol corners an outside probe found, against a running server
/// over raw TCP (what an HTTP client library will not send): HEAD, the
/// `Host` rule, content codings, broken chunk framing and a declared body
/// over the limit.
@Suite struct HTTPConformanceTests {
    /// `{"list": "seoul", "script": …}` with the demo script.
    static var simulateBody: String {
        let script = (try? String(contentsOf: Paths.sampleData.appendingPathComponent("scripts/demo.json"), encoding: .utf8)) ?? "{}"
        return #"{"list":"seoul","script":\#(script)}"#
    }

    @Test func headIsAnsweredAsGetWithoutTheBody() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            for path in ["/healthz", "/", "/lists", "/openapi.json", "/metrics", "/lists/seoul/stores"] {
                let get = try await RawHTTP.exchange(port: port, RawHTTP.get(path, headers: [("Host", "127.0.0.1:\(port)")]))
                let head = try await RawHTTP.exchange(
                    port: port, RawHTTP.get(path, headers: [("Host", "127.0.0.1:\(port)")]).replacingOccurrences(of: "GET ", with: "HEAD "))
                #expect(get.status == 200, "GET \(path): \(get.status)")
                #expect(head.status == 200, "HEAD \(path): \(head.status) \(head.body)")
                // RFC 9110 §9.3.2: the GET's head, Content-Length too, no body.
                #expect(head.rawBody.isEmpty, "HEAD \(path) sent \(head.rawBody.count) bytes of body")
                #expect(head.headers["content-type"] == get.headers["content-type"])
                if path != "/metrics" && path != "/healthz" {
                    #expect(head.headers["content-length"] == get.headers["content-length"], "\(path)")
                }
            }
            // An error's answer to a HEAD has no body either.
            let missing = try await RawHTTP.exchange(
                port: port, RawHTTP.get("/nowhere", headers: [("Host", "127.0.0.1:\(port)")]).replacingOccurrences(of: "GET ", with: "HEAD "))
            #expect(missing.status == 404)
            #expect(missing.rawBody.isEmpty)
        }
    }

    @Test func anHTTP11RequestWithoutOneHostIs400() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let none = try await RawHTTP.exchange(port: port, RawHTTP.get("/lists", headers: []))
            Self.expectError(none, status: 400, code: "bad_request", containing: "Host")
            let two = try await RawHTTP.exchange(
                port: port, RawHTTP.get("/lists", headers: [("Host", "127.0.0.1:\(port)"), ("Host", "evil.example")]))
            Self.expectError(two, status: 400, code: "bad_request", containing: "more than one Host")
            // A client cannot mark its own request refused, nor does the
            // mark make an upgrade with two Hosts a session.
            let marked = try await RawHTTP.exchange(
                port: port, RawHTTP.get("/lists", headers: [("Host", "127.0.0.1:\(port)"), ("X-Carousel-Refused-Request", "x")]))
            #expect(marked.status == 200)
            let upgrade = try await RawHTTP.exchange(
                port: port, RawHTTP.upgrade("/lists/seoul/session", port: port, extra: [("Host", "evil.example")]))
            #expect(upgrade.status == 400, "\(upgrade.status) \(upgrade.body)")
            // HTTP/1.0 needs no Host (RFC 9112 §3.2 binds HTTP/1.1).
            let old = try await RawHTTP.exchange(port: port, "GET /lists HTTP/1.0\r\n\r\n")
            #expect(old.status == 200)
        }
    }

    @Test func aBodyInAContentCodingIs415() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            for coding in ["gzip", "br", "identity, gzip"] {
                let reply = try await RawHTTP.exchange(
                    port: port,
                    RawHTTP.post(
                        "/simulate", headers: [("Host", "127.0.0.1:\(port)"), ("Content-Type", "application/json"), ("Content-Encoding", coding)],
                        body: Self.simulateBody))
                Self.expectError(reply, status: 415, code: "unsupported_content_encoding", containing: "uncompressed")
                #expect(reply.headers["accept-encoding"] == "identity")
            }
            let plain = try await RawHTTP.exchange(
                port: port,
                RawHTTP.post(
                    "/simulate", headers: [("Host", "127.0.0.1:\(port)"), ("Content-Type", "application/json"), ("Content-Encoding", "identity")],
                    body: Self.simulateBody))
            #expect(plain.status == 200, "\(plain.body)")
        }
    }

    @Test func brokenChunkFramingIs400NotA500() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let head =
                "POST /simulate HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            let bodies = [
                "10000000000000028\r\n" + String(repeating: "x", count: 40) + "\r\n0\r\n\r\n",
                "-28\r\n" + String(repeating: "x", count: 40) + "\r\n0\r\n\r\n",
                "\(String(Self.simulateBody.utf8.count, radix: 16))\n\(Self.simulateBody)\n0\n\n",
            ]
            for body in bodies {
                let reply = try await RawHTTP.exchange(port: port, head + body)
                Self.expectError(reply, status: 400, code: "bad_request", containing: "HTTP/1.1")
            }
        }
    }

    @Test func aDeclaredBodyOverTheLimitIs413AtOnce() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            // The head alone: a server that waited for the body would not
            // answer before the read times out.
            let simulate = try await RawHTTP.exchange(
                port: port,
                "POST /simulate HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: 600000000\r\n\r\n",
                readTimeout: 5)
            Self.expectError(simulate, status: 413, code: "too_large", containing: "shorten the script")
            let importing = try await RawHTTP.exchange(
                port: port,
                "POST /lists/big/import HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(fixture.writeToken ?? "")\r\n"
                    + "Content-Type: text/csv\r\nContent-Length: 600000000\r\n\r\n",
                readTimeout: 5)
            Self.expectError(importing, status: 413, code: "too_large", containing: "split the import")
        }
    }

    static func expectError(
        _ reply: RawHTTP.Reply, status: Int, code: String, containing words: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reply.status == status, "\(reply.status) \(reply.body)", sourceLocation: sourceLocation)
        let object = try? JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        #expect(error?["code"] as? String == code, "\(reply.body)", sourceLocation: sourceLocation)
        #expect((error?["message"] as? String)?.contains(words) == true, "\(reply.body)", sourceLocation: sourceLocation)
    }
}
