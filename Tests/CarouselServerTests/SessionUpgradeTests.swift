import Foundation
import HummingbirdTesting
import StoreCatalog
import Testing

@testable import CarouselServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Session upgrades the server refuses get a real HTTP answer with the
/// JSON error body (never hummingbird-websocket's bare 400), and the
/// session cap holds exactly under a burst; against a running server.
@Suite struct SessionUpgradeTests {
    static func expectJSONError(_ reply: RawHTTP.Reply, status: Int, code: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.status == status, "\(reply.status) \(reply.body)", sourceLocation: sourceLocation)
        let object = try? JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any]
        #expect((object?["error"] as? [String: Any])?["code"] as? String == code, "\(reply.body)", sourceLocation: sourceLocation)
        let problems = OpenAPIValidator.shared.problems(
            method: "GET", path: "/lists/{name}/session", status: reply.status, contentType: reply.headers["content-type"],
            body: Data(reply.body.utf8))
        #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
    }

    @Test func anUpgradeForAnUnknownListIs404ListNotFound() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            for path in ["/lists/nope/session", "/lists/no%20pe/session", "/lists/nope/session?token=x"] {
                let reply = try await RawHTTP.exchange(port: port, RawHTTP.upgrade(path, port: port))
                Self.expectJSONError(reply, status: 404, code: "list_not_found")
            }
            // The filter's own mark, sent by a client, admits nothing.
            let forged = try await RawHTTP.exchange(
                port: port, RawHTTP.upgrade("/lists/nope/session", port: port, extra: [(UpgradeFilter.admittedUpgradeHeader, "1")]))
            Self.expectJSONError(forged, status: 404, code: "list_not_found")
            // A list that exists still upgrades.
            let admitted = try await RawHTTP.exchange(port: port, RawHTTP.upgrade("/lists/seoul/session", port: port), readTimeout: 10, stopAtSwitch: true)
            #expect(admitted.status == 101)
        }
    }

    @Test func whenReadsNeedATokenAnUnknownOrRevokedOneIs401WithAChallenge() async throws {
        var options = ServerOptions()
        options.requireTokenForReads = true
        let fixture = try ServerFixture(options: options)
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let missing = try await RawHTTP.exchange(port: port, RawHTTP.upgrade("/lists/seoul/session", port: port))
            Self.expectJSONError(missing, status: 401, code: "token_required")
            #expect(missing.headers["www-authenticate"]?.hasPrefix("Bearer") == true)

            let unknownQuery = try await RawHTTP.exchange(port: port, RawHTTP.upgrade("/lists/seoul/session?token=crsl_unknown", port: port))
            Self.expectJSONError(unknownQuery, status: 401, code: "invalid_token")
            #expect(unknownQuery.headers["www-authenticate"]?.contains(#"error="invalid_token""#) == true)
            let unknownHeader = try await RawHTTP.exchange(
                port: port,
                RawHTTP.upgrade(
                    "/lists/seoul/session", port: port,
                    extra: [("Authorization", "Bearer crsl_unknown"), (UpgradeFilter.admittedUpgradeHeader, "1")]))
            Self.expectJSONError(unknownHeader, status: 401, code: "invalid_token")
            let malformed = try await RawHTTP.exchange(
                port: port, RawHTTP.upgrade("/lists/seoul/session", port: port, extra: [("Authorization", "Basic dXNlcjpwYXNz")]))
            Self.expectJSONError(malformed, status: 401, code: "invalid_token")

            let admitted = try await RawHTTP.exchange(
                port: port, RawHTTP.upgrade("/lists/seoul/session?token=\(fixture.readToken)", port: port), readTimeout: 10, stopAtSwitch: true)
            #expect(admitted.status == 101)
            try await fixture.catalog.revokeToken(named: "test-reader")
            let revoked = try await RawHTTP.exchange(port: port, RawHTTP.upgrade("/lists/seoul/session?token=\(fixture.readToken)", port: port))
            Self.expectJSONError(revoked, status: 401, code: "invalid_token")
            // A valid token for an unknown list: the list's 404.
            let unknownList = try await RawHTTP.exchange(
                port: port, RawHTTP.upgrade("/lists/nope/session?token=\(fixture.writeToken ?? "")", port: port))
            Self.expectJSONError(unknownList, status: 404, code: "list_not_found")
        }
    }

    /// Opens a connection and sends a session upgrade; its socket (left
    /// open: the caller closes it) and the response head. On a thread of
    /// its own: a dozen blocking reads on Dispatch's pool would starve the
    /// server's own tasks, which share it.
    static func upgrade(port: Int) async throws -> (fd: Int32, reply: RawHTTP.Reply?) {
        try await RawHTTP.onThread {
            let fd = try RawHTTP.connect(port: port)
            RawHTTP.send(fd, RawHTTP.upgrade("/lists/seoul/session", port: port))
            return (fd, RawHTTP.readResponseNow(fd, seconds: 30))
        }
    }

    @Test func aBurstOfThreeTimesTheCapOpensExactlyTheCap() async throws {
        let cap = 4
        var options = ServerOptions()
        options.maxSessions = cap
        let fixture = try ServerFixture(options: options)
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let results = try await withThrowingTaskGroup(of: (fd: Int32, reply: RawHTTP.Reply?).self) { group in
                for _ in 0..<(3 * cap) { group.addTask { try await Self.upgrade(port: port) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            defer { for result in results { close(result.fd) } }
            let statuses = results.map { $0.reply?.status ?? 0 }
            #expect(statuses.filter { $0 == 101 }.count == cap, "\(statuses)")
            #expect(statuses.filter { $0 == 503 }.count == 2 * cap, "\(statuses)")
            for result in results where result.reply?.status == 503 {
                Self.expectJSONError(try #require(result.reply), status: 503, code: "too_many_sessions")
                #expect(result.reply?.headers["retry-after"] != nil)
            }
            try await eventually { fixture.server.sessions.openCount >= cap }
            #expect(fixture.server.sessions.openCount == cap)
            #expect(fixture.server.sessionSlots.held == cap)
        }
    }

    @Test func aSlotComesBackWhenItsConnectionCloses() async throws {
        var options = ServerOptions()
        options.maxSessions = 1
        let fixture = try ServerFixture(options: options)
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let first = try await Self.upgrade(port: port)
            #expect(first.reply?.status == 101)
            let refused = try await Self.upgrade(port: port)
            close(refused.fd)
            #expect(refused.reply?.status == 503)
            close(first.fd)
            // The server sees the close when it reads the socket: waited for, bounded.
            try await eventually { fixture.server.sessionSlots.held == 0 }
            #expect(fixture.server.sessionSlots.held == 0)
            let again = try await Self.upgrade(port: port)
            close(again.fd)
            #expect(again.reply?.status == 101)
        }
    }
}
