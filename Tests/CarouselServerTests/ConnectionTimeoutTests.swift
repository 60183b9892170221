import CarouselServer
import Foundation
import HummingbirdTesting
import StoreCatalog
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The request timeout after the first head: a kept-alive connection that
/// sends no next request is closed, and so is an upload whose body stops
/// coming, which then writes nothing and leaves no temporary file.
///
/// Real sockets on 127.0.0.1 with a 1 s timeout; each wait allows 20 s, and
/// the checks are on what happened (closed, nothing written), never on how
/// long it took.
@Suite struct ConnectionTimeoutTests {
    static func fixture() throws -> ServerFixture {
        var options = ServerOptions()
        options.requestTimeout = .seconds(1)
        return try ServerFixture(options: options)
    }

    @Test func aKeptAliveConnectionWithNoNextRequestIsClosed() async throws {
        let fixture = try Self.fixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let fd = try RawHTTP.connect(port: port)
            defer { close(fd) }
            // Keep-alive (HTTP/1.1's default): the answer leaves the connection open.
            RawHTTP.send(fd, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let end = await RawHTTP.readAll(fd, seconds: 20)
            let reply = try #require(RawHTTP.parse(end.bytes))
            #expect(reply.status == 200)
            #expect(reply.headers["connection"]?.lowercased() != "close")
            #expect(end.closed, "the idle connection stayed open")
        }
    }

    @Test(arguments: [false, true])
    func aStalledUploadIsAbortedWritesNothingAndRemovesItsFile(chunked: Bool) async throws {
        let fixture = try Self.fixture()
        let before = Self.uploadFolders()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let fd = try RawHTTP.connect(port: port)
            defer { close(fd) }
            // Whole rows, so that a body cut here would import as a list:
            // the server must not take the cut for the body's end.
            let part = "id,name,latitude,longitude\nn1,North,37.6,127.0\nn2,South,37.4,127.0\n"
            let framing =
                chunked
                ? "Transfer-Encoding: chunked\r\n\r\n" + String(part.utf8.count, radix: 16) + "\r\n" + part + "\r\n"
                : "Content-Length: 100000\r\n\r\n" + part
            RawHTTP.send(
                fd,
                "POST /lists/stalled/import?format=csv HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer \(fixture.writeToken ?? "")\r\n" + framing)
            // The upload's folder appears while the body is awaited.
            let appeared = try await Self.waitForUploadFolder(besides: before)
            let end = await RawHTTP.readAll(fd, seconds: 20)
            #expect(end.closed, "the stalled upload's connection stayed open")
            #expect(RawHTTP.parse(end.bytes).map { $0.status == 200 } != true, "a cut body was imported")

            // The folder goes (bounded wait: the handler ends after the close).
            try await eventually { Self.uploadFolders().isDisjoint(with: appeared) }
            #expect(Self.uploadFolders().isDisjoint(with: appeared), "the stalled upload's folder was left")
            #expect(throws: CatalogError.listNotFound("stalled")) { try fixture.catalog.count(list: "stalled") }

            // Its import slot is free again: the same import, whole, succeeds.
            // (On a new connection: the test client's own idled past the timeout.)
            let whole = try await RawHTTP.exchange(
                port: port,
                RawHTTP.post(
                    "/lists/stalled/import?format=csv",
                    headers: [("Host", "127.0.0.1"), ("Authorization", "Bearer \(fixture.writeToken ?? "")")], body: part))
            #expect(whole.status == 200, "\(whole.body)")
            await #expect(try fixture.catalog.count(list: "stalled") == 2)
        }
    }

    @Test func aBodyCutShortIsNotImported() async throws {
        let fixture = try Self.fixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let fd = try RawHTTP.connect(port: port)
            defer { close(fd) }
            let part = "id,name,latitude,longitude\nn1,North,37.6,127.0\n"
            RawHTTP.send(
                fd,
                "POST /lists/cut/import?format=csv HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer \(fixture.writeToken ?? "")\r\nContent-Length: 5000\r\n\r\n" + part)
            // The client stops sending: the body ends short of its length.
            shutdown(fd, Int32(SHUT_WR))
            let end = await RawHTTP.readAll(fd, seconds: 20)
            #expect(end.closed)
            // Refused (400 incomplete_body) or dropped, never imported.
            if let reply = RawHTTP.parse(end.bytes) {
                #expect(reply.status == 400, "\(reply.status) \(reply.body)")
            }
            #expect(throws: CatalogError.listNotFound("cut")) { try fixture.catalog.count(list: "cut") }
        }
    }

    /// The upload folders in the temporary folder now.
    static func uploadFolders() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
        return Set(names.filter { $0.hasPrefix("carousel-import-\(getpid())-") })
    }

    /// The upload folders made since `before` (waits up to 20 s for one).
    static func waitForUploadFolder(besides before: Set<String>) async throws -> Set<String> {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let new = uploadFolders().subtracting(before)
            if !new.isEmpty { return new }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("no upload folder appeared")
        return []
    }
}
