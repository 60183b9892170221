import Foundation
import HTTPTypes
import HummingbirdTesting
import StoreCatalog
import Testing

@testable import CarouselServer

/// Host and Origin checks and CORS against a running server: the DNS
/// rebinding and cross-site writes of the issue's probe are refused.
@Suite struct SiteTests {
    static let csv = "id,name,latitude,longitude\nn1,North,37.6,127.0\n"

    @Test func aForeignHostIs421UnlessItIsAPublicHost() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let evil = try await RawHTTP.exchange(port: port, RawHTTP.get("/lists", headers: [("Host", "evil.example:\(port)")]))
            #expect(evil.status == 421)
            #expect(evil.body.contains("host_not_allowed"))
            for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)", "10.1.2.3"] {
                let fine = try await RawHTTP.exchange(port: port, RawHTTP.get("/lists", headers: [("Host", host)]))
                #expect(fine.status == 200, "\(host)")
            }
            let malformed = try await RawHTTP.exchange(port: port, RawHTTP.get("/lists", headers: [("Host", "a:b:c")]))
            #expect(malformed.status == 421)
        }
        var options = ServerOptions()
        options.publicHosts = ["carousel.example"]
        let publicServer = try ServerFixture(options: options)
        try await publicServer.application.test(.live) { client in
            let port = try #require(client.port)
            let named = try await RawHTTP.exchange(port: port, RawHTTP.get("/lists", headers: [("Host", "Carousel.example")]))
            #expect(named.status == 200)
            let other = try await RawHTTP.exchange(port: port, RawHTTP.get("/lists", headers: [("Host", "evil.example")]))
            #expect(other.status == 421)
        }
    }

    @Test func aWriteFromAForeignOriginIs403EvenWithAToken() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            var headers = fixture.writeHeaders(contentType: "text/plain")
            headers[.origin] = "http://evil.example"
            let foreign = try await client.checked(
                .post, "/lists/seoul/import?format=csv&replace=true", template: "/lists/{name}/import", headers: headers, body: Self.csv)
            #expect(foreign.status == 403)
            #expect(foreign.errorCode == "origin_not_allowed")
            await #expect(try fixture.catalog.count(list: "seoul") == 44)
            // The page's own origin (the Host it was loaded from) may write.
            let own = try await RawHTTP.exchange(
                port: port,
                RawHTTP.post(
                    "/lists/seoul/import?format=csv&replace=true",
                    headers: [
                        ("Host", "127.0.0.1:\(port)"), ("Origin", "http://127.0.0.1:\(port)"),
                        ("Authorization", "Bearer \(fixture.writeToken ?? "")"),
                    ],
                    body: Self.csv))
            #expect(own.status == 200, "\(own.body)")
            await #expect(try fixture.catalog.count(list: "seoul") == 1)
            // A session from a foreign origin is not upgraded.
            let session = try await RawHTTP.exchange(
                port: port, RawHTTP.upgrade("/lists/seoul/session", port: port, extra: [("Origin", "http://evil.example")]))
            #expect(session.status == 403)
            let ownSession = try await RawHTTP.exchange(
                port: port, RawHTTP.upgrade("/lists/seoul/session", port: port, extra: [("Origin", "http://127.0.0.1:\(port)")]), readTimeout: 10,
                stopAtSwitch: true)
            #expect(ownSession.status == 101)
        }
    }

    @Test func theOwnOriginIsTheServersSchemeToo() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            // The plain-HTTP server's own origin is http://, not https://
            // with the same host and port (RFC 6454 §4).
            let https = try await RawHTTP.exchange(
                port: port,
                RawHTTP.post(
                    "/lists/seoul/import?format=csv&replace=true",
                    headers: [
                        ("Host", "127.0.0.1:\(port)"), ("Origin", "https://127.0.0.1:\(port)"),
                        ("Authorization", "Bearer \(fixture.writeToken ?? "")"),
                    ],
                    body: Self.csv))
            #expect(https.status == 403, "\(https.body)")
            await #expect(try fixture.catalog.count(list: "seoul") == 44)
            let wss = try await RawHTTP.exchange(
                port: port, RawHTTP.upgrade("/lists/seoul/session", port: port, extra: [("Origin", "wss://127.0.0.1:\(port)")]))
            #expect(wss.status == 403)
        }
        // And the TLS server's is https:// (and wss://), never http://.
        let secure = SitePolicy(options: ServerOptions(), secure: true)
        #expect(secure.isOwn(origin: "https://127.0.0.1:8443", authority: "127.0.0.1:8443"))
        #expect(secure.isOwn(origin: "wss://127.0.0.1", authority: "127.0.0.1:8443"))
        #expect(!secure.isOwn(origin: "http://127.0.0.1:8443", authority: "127.0.0.1:8443"))
        #expect(!secure.isOwn(origin: "ws://127.0.0.1:8443", authority: "127.0.0.1:8443"))
        let plain = SitePolicy(options: ServerOptions(), secure: false)
        #expect(plain.isOwn(origin: "http://127.0.0.1:8080", authority: "127.0.0.1:8080"))
        #expect(!plain.isOwn(origin: "https://127.0.0.1:8080", authority: "127.0.0.1:8080"))
    }

    @Test func corsOriginsAreMatchedExactlyAndPreflightsAnswered() async throws {
        var options = ServerOptions()
        options.corsOrigins = ["https://app.example"]
        let fixture = try ServerFixture(options: options)
        try await fixture.application.test(.live) { client in
            let allowed = try await client.execute(uri: "/lists", method: .get, headers: [.origin: "https://app.example"])
            #expect(allowed.headers[.accessControlAllowOrigin] == "https://app.example")
            #expect(allowed.headers[.vary] == "Origin")
            let other = try await client.execute(uri: "/lists", method: .get, headers: [.origin: "https://app.example.evil"])
            #expect(other.status == .ok)
            #expect(other.headers[.accessControlAllowOrigin] == nil)

            let preflight = try await client.execute(
                uri: "/lists/x/import", method: .options,
                headers: [.origin: "https://app.example", .accessControlRequestMethod: "POST", .accessControlRequestHeaders: "authorization"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == "https://app.example")
            #expect(preflight.headers[.accessControlAllowHeaders]?.contains("Authorization") == true)
            let refused = try await client.execute(
                uri: "/lists/x/import", method: .options, headers: [.origin: "https://unknown.example", .accessControlRequestMethod: "POST"])
            #expect(refused.status == .forbidden)
            #expect(String(buffer: refused.body).contains(#""code":"origin_not_allowed""#))
            #expect(refused.headers[.accessControlAllowOrigin] == nil)

            var headers = fixture.writeHeaders()
            headers[.origin] = "https://app.example"
            let write = try await client.checked(
                .post, "/lists/two/import?format=csv", template: "/lists/{name}/import", headers: headers, body: Self.csv)
            #expect(write.status == 200)
        }
    }

    @Test func aStarOriginReadsButNeverWrites() async throws {
        var options = ServerOptions()
        options.corsOrigins = ["*"]
        let fixture = try ServerFixture(options: options)
        try await fixture.application.test(.live) { client in
            let read = try await client.execute(uri: "/lists", method: .get, headers: [.origin: "https://anyone.example"])
            #expect(read.headers[.accessControlAllowOrigin] == "*")
            var headers = fixture.writeHeaders()
            headers[.origin] = "https://anyone.example"
            let write = try await client.checked(
                .post, "/lists/two/import?format=csv", template: "/lists/{name}/import", headers: headers, body: Self.csv)
            #expect(write.status == 403)
            let preflight = try await client.execute(
                uri: "/lists/two/import", method: .options, headers: [.origin: "https://anyone.example", .accessControlRequestMethod: "POST"])
            #expect(preflight.status == .forbidden)
        }
    }
}
