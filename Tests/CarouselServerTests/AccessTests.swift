import CarouselServer
import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import NIOCore
import StoreCatalog
import Synchronization
import Testing

/// Tokens against a running server: writes need a write token, none at
/// all disables them, reads are open unless required, and bad credentials
/// are 401 with a Bearer challenge, never a 500.
@Suite struct AccessTests {
    static let csv = "id,name,latitude,longitude\nn1,North,37.6,127.0\n"
    static let importPath = "/lists/seoul/import?format=csv&replace=true"

    @Test func withNoWriteTokenEveryWriteIs403WritesDisabled() async throws {
        let fixture = try ServerFixture(withWriteToken: false)
        try await fixture.application.test(.live) { client in
            for headers: HTTPFields in [[:], [.authorization: "Bearer \(fixture.readToken)"], [.authorization: "Bearer crsl_x"]] {
                let response = try await client.checked(.post, Self.importPath, template: "/lists/{name}/import", headers: headers, body: Self.csv)
                #expect(response.status == 403)
                #expect(response.errorCode == "writes_disabled")
            }
            await #expect(try fixture.catalog.count(list: "seoul") == 44)
        }
    }

    @Test func aWriteNeedsAWriteTokenAsBearer() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let missing = try await client.execute(uri: Self.importPath, method: .post, body: ByteBuffer(string: Self.csv))
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            let anonymous = try await client.checked(.post, Self.importPath, template: "/lists/{name}/import", body: Self.csv)
            #expect(anonymous.errorCode == "token_required")

            for bad in ["Basic dXNlcjpwYXNz", "Bearer", "Bearer a b", "Bearer tök€n", "bearer " + String(repeating: "x", count: 300), "Bearer =abc"] {
                let response = try await client.checked(
                    .post, Self.importPath, template: "/lists/{name}/import", headers: [.authorization: bad], body: Self.csv)
                #expect(response.status == 401, "\(bad)")
                #expect(response.errorCode == "invalid_token", "\(bad)")
            }
            let unknown = try await client.checked(
                .post, Self.importPath, template: "/lists/{name}/import", headers: [.authorization: "Bearer crsl_unknown"], body: Self.csv)
            #expect(unknown.status == 401)

            // A read token on a write: 403 with the JSON error and the challenge.
            let readOnly = try await client.execute(
                uri: Self.importPath, method: .post, headers: [.authorization: "Bearer \(fixture.readToken)"], body: ByteBuffer(string: Self.csv))
            #expect(readOnly.status == .forbidden)
            #expect(readOnly.headers[.wwwAuthenticate]?.contains(#"error="insufficient_scope""#) == true)
            #expect(readOnly.headers[.contentType] == "application/json; charset=utf-8")
            let wrongScope = try await client.checked(
                .post, Self.importPath, template: "/lists/{name}/import", headers: [.authorization: "Bearer \(fixture.readToken)"], body: Self.csv)
            #expect(wrongScope.status == 403)
            #expect(wrongScope.errorCode == "insufficient_scope")
            #expect(wrongScope.text.contains("test-reader"))
            await #expect(try fixture.catalog.count(list: "seoul") == 44)

            let written = try await client.checked(
                .post, Self.importPath, template: "/lists/{name}/import", headers: fixture.writeHeaders(), body: Self.csv)
            #expect(written.status == 200)
            await #expect(try fixture.catalog.count(list: "seoul") == 1)

            // Revoked: refused from the next request on.
            try await fixture.catalog.revokeToken(named: "test-writer")
            let revoked = try await client.checked(
                .post, Self.importPath, template: "/lists/{name}/import", headers: fixture.writeHeaders(), body: Self.csv)
            #expect(revoked.status == 403)
            #expect(revoked.errorCode == "writes_disabled")
        }
    }

    @Test func readsAreOpenUnlessRequiredAndThePageAlwaysIs() async throws {
        let open = try ServerFixture()
        try await open.application.test(.live) { client in
            let lists = try await client.checked(.get, "/lists", template: "/lists")
            #expect(lists.status == 200)
            let page = try await client.checked(.get, "/", template: "/")
            #expect(page.status == 200)
        }
        var options = ServerOptions()
        options.requireTokenForReads = true
        let fixture = try ServerFixture(options: options)
        try await fixture.application.test(.live) { client in
            let anonymous = try await client.checked(.get, "/lists", template: "/lists")
            #expect(anonymous.status == 401)
            #expect(anonymous.errorCode == "token_required")
            let read = try await client.checked(.get, "/lists", template: "/lists", headers: [.authorization: "Bearer \(fixture.readToken)"])
            #expect(read.status == 200)
            let write = try await client.checked(.get, "/lists", template: "/lists", headers: fixture.writeHeaders())
            #expect(write.status == 200)
            for path in ["/", "/app.js", "/openapi.json", "/healthz", "/readyz"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok, "\(path)")
            }
            // The token query item is for sessions only.
            let query = try await client.checked(.get, "/lists?token=\(fixture.readToken)", template: "/lists")
            #expect(query.status == 401)
        }
        // A used token shows when. Each token's use is recorded by its own
        // background write, so both are waited for (a CI run once saw the
        // writer's land after the reader's had been checked).
        func unused() async throws -> [String] {
            try await fixture.catalog.tokens().filter { ["test-reader", "test-writer"].contains($0.name) && $0.lastUsed == nil }.map(\.name)
        }
        try await eventually { try await unused().isEmpty }
        await #expect(try unused() == [])
    }

    @Test func aSessionFollowsTheReadRuleWithTheTokenInTheQuery() async throws {
        var options = ServerOptions()
        options.requireTokenForReads = true
        let fixture = try ServerFixture(options: options)
        let lines = LogLines()
        try await fixture.server.application(host: "127.0.0.1", port: 0, logger: lines.logger).test(.live) { client in
            let port = try #require(client.port)
            let refused = try await RawHTTP.exchange(port: port, RawHTTP.upgrade("/lists/seoul/session", port: port))
            #expect(refused.status == 401)
            let admitted = try await RawHTTP.exchange(
                port: port, RawHTTP.upgrade("/lists/seoul/session?token=\(fixture.readToken)", port: port), readTimeout: 10, stopAtSwitch: true)
            #expect(admitted.status == 101)
            let byHeader = try await RawHTTP.exchange(
                port: port, RawHTTP.upgrade("/lists/seoul/session", port: port, extra: [("Authorization", "Bearer \(fixture.readToken)")]),
                readTimeout: 10, stopAtSwitch: true)
            #expect(byHeader.status == 101)
        }
        #expect(!lines.all.isEmpty)
        #expect(!lines.all.contains { $0.contains(fixture.readToken) }, "a token reached the log")
    }
}

/// Log entries, recorded.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    /// A logger whose entries, metadata included, land here as JSON lines.
    var logger: Logger {
        Logger(label: "test") { label in JSONLogHandler(label: label, write: { self.append($0) }) }
    }
}
