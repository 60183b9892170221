import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import StoreCatalog
import TestSupport
import Testing

@testable import CarouselServer

/// What keeps the server serving: imports and simulations bounded in number
/// and size, names with invisible characters refused, and no upload folder
/// left behind.
@Suite struct BoundedWorkTests {
    @Test func aNameWithANulOrABidiOverrideIs400AndCreatesNothing() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            for name in ["a%00b", "a%E2%80%AEb", "a%E2%80%8Bb"] {
                let response = try await client.checked(
                    .post, "/lists/\(name)/import?format=csv", template: "/lists/{name}/import",
                    headers: fixture.writeHeaders(), body: WriteEndpointTests.csv)
                #expect(response.status == 400, "\(name): \(response.text)")
                #expect(response.text.contains("cannot hold U+"), "\(response.text)")
            }
            await #expect(try fixture.catalog.lists().map(\.name) == ["seoul"])
        }
    }

    @Test func aBodyOfGarbageAnswersABoundedReport() async throws {
        let fixture = try ServerFixture()
        let body = (0..<5_000).map { "garbage \($0) {" }.joined(separator: "\n")
        try await fixture.application.test(.router) { client in
            let response = try await client.checked(
                .post, "/lists/bad/import?format=jsonl&skipInvalid=true", template: "/lists/{name}/import",
                headers: fixture.writeHeaders(), body: body)
            #expect(response.status == 422)
            let report = try #require((response.object["error"] as? [String: Any])?["report"] as? [String: Any])
            #expect((report["errors"] as? [Any])?.count == ImportOptions.defaultIssueLimit)
            #expect(report["stoppedEarly"] as? Bool == true)
            #expect(report["rejected"] as? Int == ImportOptions.defaultIssueLimit + 1)
            #expect(response.body.count < 64 << 10)
        }
    }

    static func request(contentLength: String?) -> Request {
        var fields = HTTPFields()
        if let contentLength { fields[.contentLength] = contentLength }
        return Request(head: HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/", headerFields: fields), body: RequestBody(buffer: ByteBuffer()))
    }

    @Test func aDeclaredOversizedBodyIs413BeforeItIsRead() throws {
        // (The test client sets Content-Length from the body it sends:
        // scripts/probe sends the header itself, with curl.)
        let refused = #expect(throws: APIError.self) {
            try Self.request(contentLength: "600000000").refuseDeclaredBody(over: 512 << 20, advice: "split")
        }
        #expect(refused?.status.code == 413)
        #expect(throws: Never.self) { try Self.request(contentLength: "1000").refuseDeclaredBody(over: 512 << 20, advice: "split") }
        #expect(throws: Never.self) { try Self.request(contentLength: nil).refuseDeclaredBody(over: 512 << 20, advice: "split") }
    }

    @Test func aTimelinePastTheLimitIs422NotBuilt() async throws {
        var limits = ServerLimits()
        limits.maxTimelineBytes = 2_000
        let fixture = try ServerFixture(limits: limits)
        let script = try String(contentsOf: Paths.sampleData.appendingPathComponent("scripts/demo.json"), encoding: .utf8)
        try await fixture.application.test(.router) { client in
            let traced = try await client.checked(
                .post, "/simulate", template: "/simulate", body: #"{"list":"seoul","script":\#(script),"trace":true}"#)
            #expect(traced.status == 422)
            #expect(traced.errorCode == "timeline_too_long")
        }
    }

    @Test func aScriptPastTheServersVirtualTimeIs422InTheSimulationsWords() async throws {
        var limits = ServerLimits()
        limits.simulation.maxVirtualMs = 1_000
        let fixture = try ServerFixture(limits: limits)
        try await fixture.application.test(.router) { client in
            // An event past the limit is refused before anything runs.
            let late = try await client.checked(
                .post, "/simulate", template: "/simulate",
                body: #"{"list":"seoul","script":{"events":[{"at":0,"offset":10},{"at":1001,"offset":20}]}}"#)
            #expect(late.status == 422)
            #expect(late.errorCode == "bad_script")
            #expect(late.text.contains("event 2 is at 1001"), "\(late.text)")
            #expect(late.text.contains("past the limit of 1000 ms of virtual time"), "\(late.text)")
            // A drag that only ends past it stops the run when it gets there.
            let long = try await client.checked(
                .post, "/simulate", template: "/simulate",
                body: #"{"list":"seoul","script":{"events":[{"at":500,"drag":{"by":-300,"durationMs":800}}]}}"#)
            #expect(long.status == 422)
            #expect(long.errorCode == "bad_script")
            #expect(long.text.contains("ends past the limit of 1000 ms"), "\(long.text)")
            // Within it, the same kind of script runs.
            let fine = try await client.checked(
                .post, "/simulate", template: "/simulate",
                body: #"{"list":"seoul","script":{"events":[{"at":0,"drag":{"by":-300,"durationMs":300}}]}}"#)
            #expect(fine.status == 200)
        }
    }

    @Test func workPastTheGateIs503WithRetryAfterAndThePlaceIsFreedAfter() async throws {
        let gate = WorkGate("imports", limit: 1)
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseContinuation) = AsyncStream.makeStream(of: Void.self)
        // The first holds the only place until released.
        let first = Task {
            try await gate.run {
                startedContinuation.yield()
                for await _ in release { break }
                return 1
            }
        }
        for await _ in started { break }
        #expect(gate.count == 1)

        let refused = await #expect(throws: APIError.self) { try await gate.run { 2 } }
        #expect(refused?.status.code == 503)
        #expect(refused?.retryAfterSeconds == 1)
        let response = APIMiddleware<CarouselRequestContext>.response(
            for: refused!,
            request: Request(
                head: .init(method: .post, scheme: "http", authority: "x", path: "/lists/a/import"),
                body: .init(buffer: ByteBuffer())),
            logger: Logger(label: "test"))
        #expect(response.status.code == 503)
        #expect(response.headers[.retryAfter] == "1")

        releaseContinuation.yield()
        #expect(try await first.value == 1)
        #expect(gate.count == 0)
        #expect(try await gate.run { 3 } == 3)
    }

    @Test func uploadFoldersOfKilledServersAreRemovedOthersKept() throws {
        let directory = try TemporaryDirectory()
        let manager = FileManager.default
        // A process that is gone (a pid past the kernel's maximum), this one, an old-style folder.
        let dead = directory.path("carousel-import-4194999-A")
        let alive = directory.path("carousel-import-\(getpid())-B")
        let legacy = directory.path("carousel-import-0F2B1C4E-LEGACY")
        let fresh = directory.path("carousel-import-FRESH-LEGACY")
        for folder in [dead, alive, legacy, fresh] { try manager.createDirectory(at: folder, withIntermediateDirectories: true) }
        try manager.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: legacy.path)

        #expect(CarouselServer.removeImportLeftovers(in: directory.path("")) == 2)

        #expect(!manager.fileExists(atPath: dead.path))
        #expect(!manager.fileExists(atPath: legacy.path))
        #expect(manager.fileExists(atPath: alive.path))
        #expect(manager.fileExists(atPath: fresh.path))
    }

    /// Issue 42: an upload is spooled in a folder of the server's user
    /// alone (0700) to a file of its own (0600), whatever the umask leaves
    /// (here the usual 022, set for the test and put back: it is the
    /// process's), and goes with its folder.
    @Test func anUploadIsSpooledOwnerOnly() async throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let directory = try TemporaryDirectory()
        let folder = try ImportRoute.makeSpoolFolder(in: directory.url)
        #expect(folder.lastPathComponent.hasPrefix("carousel-import-\(getpid())-"))
        let file = folder.appendingPathComponent("body.csv")
        try await ImportRoute.stream(RequestBody(buffer: ByteBuffer(string: WriteEndpointTests.csv)), to: file, limit: 1 << 20)
        var status = stat()
        #expect(stat(folder.path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700, "\(String(status.st_mode & 0o777, radix: 8))")
        #expect(stat(file.path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600, "\(String(status.st_mode & 0o777, radix: 8))")
        #expect(try String(contentsOf: file, encoding: .utf8) == WriteEndpointTests.csv)
    }
}
