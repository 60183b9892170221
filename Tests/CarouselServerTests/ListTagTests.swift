import CarouselServer
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import StoreCatalog
import Testing

/// Entity tags per list against a running server: an answer about one
/// list is tagged with that list's version, so an import into another list
/// keeps its tag (and its 304), while its own import, a rename onto its
/// name, or its deletion and re-creation change it.
@Suite struct ListTagTests {
    static let csv = "id,name,latitude,longitude\nb1,North,37.6,127.0\n"

    /// The routes whose answer depends on list `seoul` alone.
    static let seoulPaths = [
        "/lists/seoul/stores?limit=3", "/stores/seoul/hc-001", "/stores/near?lat=37.5&lng=127&list=seoul",
        "/stores/bbox?south=37&west=126&north=38&east=128&list=seoul", "/stores/search?list=seoul&q=coffee",
        "/lists/seoul/clusters?zoom=10&south=37&west=126&north=38&east=128",
    ]

    func tag(_ client: some TestClientProtocol, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let response = try await client.execute(uri: path, method: .get)
        #expect(response.status == .ok, "\(path)", sourceLocation: sourceLocation)
        return try #require(response.headers[.eTag], "\(path)", sourceLocation: sourceLocation)
    }

    func importB(_ client: some TestClientProtocol, _ fixture: ServerFixture) async throws {
        let response = try await client.execute(
            uri: "/lists/b/import?format=csv&replace=true", method: .post, headers: fixture.writeHeaders(), body: ByteBuffer(string: Self.csv))
        #expect(response.status == .ok)
    }

    @Test func anImportIntoAnotherListKeepsAListsTagAndItsOwnChangesIt() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            try await importB(client, fixture)
            var seoul: [String: String] = [:]
            for path in Self.seoulPaths { seoul[path] = try await tag(client, path) }
            let b = try await tag(client, "/lists/b/stores")
            let catalog = try await tag(client, "/lists")
            let everyList = try await tag(client, "/stores/near?lat=37.5&lng=127")
            #expect(seoul["/lists/seoul/stores?limit=3"] != b)

            try await importB(client, fixture)
            for path in Self.seoulPaths {
                #expect(try await tag(client, path) == seoul[path], "\(path)")
                let again = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: seoul[path]!])
                #expect(again.status == .notModified, "\(path)")
                #expect(again.body.readableBytes == 0)
            }
            let newB = try await tag(client, "/lists/b/stores")
            #expect(newB != b)
            let stale = try await client.execute(uri: "/lists/b/stores", method: .get, headers: [.ifNoneMatch: b])
            #expect(stale.status == .ok)
            // Answers about the whole catalog follow any commit.
            #expect(try await tag(client, "/lists") != catalog)
            #expect(try await tag(client, "/stores/near?lat=37.5&lng=127") != everyList)

            // A rename onto a name changes that name's tag; deleting and
            // making a list again never brings an old tag back.
            try await fixture.catalog.renameList("b", to: "c")
            let c = try await tag(client, "/lists/c/stores")
            #expect(c != newB)
            try await fixture.catalog.deleteList("c")
            try await importB(client, fixture)
            let remade = try await tag(client, "/lists/b/stores")
            #expect(![b, newB, c].contains(remade))
            #expect(try await tag(client, "/lists/seoul/stores?limit=3") == seoul["/lists/seoul/stores?limit=3"])

            // An unknown list is a 404 without a tag.
            let missing = try await client.execute(uri: "/lists/nope/stores", method: .get)
            #expect(missing.status == .notFound)
            #expect(missing.headers[.eTag] == nil)
        }
    }
}
