import CarouselServer
import Foundation
import HummingbirdTesting
import StoreCatalog
import TestSupport
import Testing

/// `GET /stores/near` from the in-memory snapshot: the same bytes as through
/// SQLite, never stale, and SQLite for a catalog over the size allowed.
@Suite struct NearestAnswersTests {
    /// The fixture's `seoul` list and a second list `more` of 60 stores
    /// around it, 20 of them on one spot (ties) and 10 shared with `seoul`'s
    /// coordinates but not its ids.
    static func fixture(nearestInMemoryEntries: Int = CarouselServer.standardNearestInMemoryEntries) throws -> ServerFixture {
        let fixture = try ServerFixture(nearestInMemoryEntries: nearestInMemoryEntries)
        var random = SplitMix64(seed: 91)
        var csv = "id,name,latitude,longitude,category\n"
        for index in 0..<60 {
            let (latitude, longitude) =
                index < 20
                ? (37.5, 127.03)
                : (37.45 + .random(in: 0...0.15, using: &random), 126.95 + .random(in: 0...0.15, using: &random))
            csv += "m-\(index),More \(index),\(latitude),\(longitude),\(index.isMultiple(of: 3) ? "bakery" : "")\n"
        }
        let file = fixture.directory.path("more.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        try fixture.catalog.importList(named: "more", from: makeStoreRowReader(for: file, format: .csv))
        return fixture
    }

    /// Good and bad queries alike: both paths must answer each the same.
    static func queries() -> [String] {
        var random = SplitMix64(seed: 92)
        var queries: [String] = []
        for _ in 0..<20 {
            let lat = 37.4 + .random(in: 0...0.3, using: &random)
            let lng = 126.9 + .random(in: 0...0.3, using: &random)
            for suffix in [
                "", "&limit=1", "&limit=25&list=more", "&limit=1000", "&withinKm=1.5", "&withinKm=0&list=seoul",
                "&list=seoul&limit=3&withinKm=4",
            ] {
                queries.append("lat=\(lat)&lng=\(lng)\(suffix)")
            }
        }
        queries += [
            "lat=37.5&lng=127.03&limit=21", "lat=37.5&lng=127.03&limit=19&list=more", "lat=-37.5&lng=-52.97&limit=3",
            "lat=90&lng=0", "lat=-90&lng=180&limit=2", "lat=-33.8&lng=151.2&withinKm=1e308&limit=3", "lat=1&lng=1&list=nowhere", "lat=1&lng=1&limit=0",
            "lat=91&lng=0", "lat=1&lng=1&withinKm=-1",
        ]
        return queries
    }

    @Test func answersFromMemoryAreSQLitesByteForByte() async throws {
        let fixture = try Self.fixture()
        let throughSQLite = try CarouselServer(engine: fixture.catalog, nearestInMemoryEntries: 0)
        #expect(try await !throughSQLite.prepareNearestAnswers())
        #expect(try await fixture.server.prepareNearestAnswers())
        #expect(try await fixture.server.nearestAnswersAreInMemory())
        let expected = try await throughSQLite.application(host: "127.0.0.1", port: 0).test(.router) { client in
            var expected: [String: CheckedResponse] = [:]
            for query in Self.queries() {
                expected[query] = try await client.checked(.get, "/stores/near?\(query)", template: "/stores/near")
            }
            return expected
        }
        try await fixture.application.test(.router) { client in
            for query in Self.queries() {
                let response = try await client.checked(.get, "/stores/near?\(query)", template: "/stores/near")
                #expect(response.status == expected[query]?.status, "\(query)")
                #expect(response.text == expected[query]?.text, "\(query)")
            }
        }
        #expect(try await fixture.server.nearestAnswersAreInMemory())
        #expect(expected.values.contains { $0.array.count == 21 })
        #expect(expected["lat=-33.8&lng=151.2&withinKm=1e308&limit=3"]?.array.count == 3)
    }

    @Test func aCommitIsSeenByTheNextRequestAndTheSnapshotIsBuiltAgain() async throws {
        let fixture = try Self.fixture()
        #expect(try await fixture.server.prepareNearestAnswers())
        // A commit through another connection, as another process's import would be.
        let other = try Catalog(path: fixture.catalog.path)
        let file = fixture.directory.path("new.csv")
        try "id,name,latitude,longitude\nnew-1,New,10,10\n".write(to: file, atomically: true, encoding: .utf8)
        try other.importList(named: "new", from: makeStoreRowReader(for: file, format: .csv))
        #expect(try await !fixture.server.nearestAnswersAreInMemory())
        try await fixture.application.test(.router) { client in
            let first = try await client.checked(.get, "/stores/near?lat=10&lng=10&limit=1", template: "/stores/near")
            #expect(first.array.first?["id"] as? String == "new-1")
            // That request started a build in the background.
            try await eventually { try await fixture.server.nearestAnswersAreInMemory() }
            #expect(try await fixture.server.nearestAnswersAreInMemory())
            let again = try await client.checked(.get, "/stores/near?lat=10&lng=10&limit=1&list=new", template: "/stores/near")
            #expect(again.text == first.text)
            // The server's own import is a commit the snapshot sees too.
            let replaced = try await client.checked(
                .post, "/lists/new/import?format=csv&replace=true", template: "/lists/{name}/import", headers: fixture.writeHeaders(),
                body: "id,name,latitude,longitude\nnew-2,Newer,10,10.001\n")
            #expect(replaced.status == 200)
            #expect(try await !fixture.server.nearestAnswersAreInMemory())
            let afterImport = try await client.checked(.get, "/stores/near?lat=10&lng=10&limit=1&list=new", template: "/stores/near")
            #expect(afterImport.array.first?["id"] as? String == "new-2")
        }
    }

    @Test func noSnapshotIsHeldUntilTheFirstNearestRequest() async throws {
        let fixture = try Self.fixture()
        // A server that answers no nearest request never holds the stores
        // (`carousel serve` starts no build).
        #expect(try await !fixture.server.nearestAnswersAreInMemory())
        try await fixture.application.test(.router) { client in
            let first = try await client.checked(.get, "/stores/near?lat=37.5&lng=127.03&limit=3", template: "/stores/near")
            #expect(first.array.count == 3)
            // The first request was answered by SQLite and started the build.
            await fixture.server.nearestAnswersBackgroundBuildEnded()
            #expect(try await fixture.server.nearestAnswersAreInMemory())
            let again = try await client.checked(.get, "/stores/near?lat=37.5&lng=127.03&limit=3", template: "/stores/near")
            #expect(again.text == first.text)
        }
    }

    @Test func aSnapshotStartedInTheBackgroundIsHeldWithoutARequest() async throws {
        let fixture = try Self.fixture()
        #expect(try await !fixture.server.nearestAnswersAreInMemory())
        try await fixture.server.prepareNearestAnswersInBackground()
        // Waits for the build itself, however long a loaded machine takes.
        await fixture.server.nearestAnswersBackgroundBuildEnded()
        #expect(try await fixture.server.nearestAnswersAreInMemory())
    }

    @Test func aCatalogOverTheSizeAllowedIsAnsweredThroughSQLite() async throws {
        // 104 stores and 104 list items: over 200.
        let fixture = try Self.fixture(nearestInMemoryEntries: 200)
        #expect(try await !fixture.server.prepareNearestAnswers())
        try await fixture.server.prepareNearestAnswersInBackground()  // found too large already: nothing to start
        let expected = try fixture.catalog.nearest(to: Coordinate(latitude: 37.5, longitude: 127.03), limit: 22).map(\.store.id)
        try await fixture.application.test(.router) { client in
            let response = try await client.checked(.get, "/stores/near?lat=37.5&lng=127.03&limit=22", template: "/stores/near")
            #expect(response.array.compactMap { $0["id"] as? String } == expected)
        }
        #expect(try await !fixture.server.nearestAnswersAreInMemory())
    }
}
