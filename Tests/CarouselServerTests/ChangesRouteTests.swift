import CarouselServer
import Foundation
import HummingbirdTesting
import StoreCatalog
import TestSupport
import Testing

/// `GET /lists/{name}/changes` (issue 45): pages that follow the change
/// log, cursors checked, 410 past the retention, tags as the list's other
/// routes, every answer as the OpenAPI document says.
@Suite struct ChangesRouteTests {
    static let template = "/lists/{name}/changes"

    @Test func aDownloadFromScratchThenOnlyWhatChanged() async throws {
        let fixture = try ServerFixture()
        let expected = try fixture.catalog.stores(list: "seoul")
        try await fixture.application.test(.router) { client in
            var ranked: [(rank: Int, id: String)] = []
            var cursor: String?
            var last: CheckedResponse?
            for _ in 0..<10 {
                let uri = "/lists/seoul/changes?limit=10" + (cursor.map { "&since=\($0)" } ?? "")
                let page = try await client.checked(.get, uri, template: Self.template)
                #expect(page.status == 200)
                for change in page.object["changes"] as? [[String: Any]] ?? [] {
                    if let id = change["id"] as? String, let rank = change["rank"] as? Int { ranked.append((rank, id)) }
                }
                cursor = page.object["next"] as? String
                last = page
                if page.object["upToDate"] as? Bool == true { break }
            }
            #expect(ranked.sorted { $0.rank < $1.rank }.map(\.id) == expected.map(\.id))
            #expect((last?.object["checksum"] as? String)?.count == 16)

            var changed = expected
            changed[5].name = "Renamed"
            changed.remove(at: 7)
            try await fixture.catalog.importList(named: "seoul", from: StoreList(changed), options: ImportOptions(replace: true))
            let delta = try await client.checked(.get, "/lists/seoul/changes?since=\(cursor!)", template: Self.template)
            let changes = delta.object["changes"] as? [[String: Any]] ?? []
            #expect(changes.count == 2)
            #expect(changes.contains { $0["id"] as? String == expected[7].id && $0["deleted"] as? Bool == true })
            #expect(changes.contains { ($0["store"] as? [String: Any])?["name"] as? String == "Renamed" })
        }
    }

    @Test func badCursorsAre400AndOldOnes410() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let first = try await client.checked(.get, "/lists/seoul/changes?limit=5", template: Self.template)
            let next = try #require(first.object["next"] as? String)
            for bad in ["garbage", "1-0-0000000000000000", String(next.dropLast()) + (next.hasSuffix("0") ? "1" : "0")] {
                let response = try await client.checked(.get, "/lists/seoul/changes?since=\(bad)", template: Self.template)
                #expect(response.status == 400, "\(bad)")
                #expect(response.errorCode == "bad_cursor")
            }
            for query in ["limit=0", "limit=10001", "limit=x"] {
                let response = try await client.checked(.get, "/lists/seoul/changes?\(query)", template: Self.template)
                #expect(response.status == 400, "\(query)")
            }
            let unknown = try await client.checked(.get, "/lists/nowhere/changes", template: Self.template)
            #expect(unknown.status == 404)

            // A delete, then the retention passes: the old cursor must resync.
            let stores = try fixture.catalog.stores(list: "seoul")
            try await fixture.catalog.importList(named: "seoul", from: StoreList(Array(stores.dropLast())), options: ImportOptions(replace: true))
            let later = Date().addingTimeInterval(31 * 86_400)
            fixture.catalog.changeLogOptions = ChangeLogOptions(now: { later })
            try fixture.catalog.compactChanges()
            let gone = try await client.checked(.get, "/lists/seoul/changes?since=\(next)", template: Self.template)
            #expect(gone.status == 410)
            #expect(gone.errorCode == "resync_required")
        }
    }

    @Test func pagesCarryTheListsTagAndRevalidate() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let uri = "/lists/seoul/changes?limit=5"
            let (tag, cache) = try await client.execute(uri: uri, method: .get) { ($0.headers[.eTag], $0.headers[.cacheControl]) }
            let etag = try #require(tag)
            #expect(cache != nil)
            let again = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag]) { $0.status.code }
            #expect(again == 304)
            try await fixture.catalog.importList(named: "other", from: StoreList([Store(id: "x", name: "X", latitude: 1, longitude: 1)]))
            #expect(try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag]) { $0.status.code } == 304)
            try await fixture.catalog.renameList("seoul", to: "seoul2")
            try await fixture.catalog.renameList("seoul2", to: "seoul")
            #expect(try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag]) { $0.status.code } == 200)
        }
    }

    @Test func readsNeedATokenWhenTheServerSaysSo() async throws {
        var options = ServerOptions()
        options.requireTokenForReads = true
        let fixture = try ServerFixture(options: options)
        try await fixture.application.test(.router) { client in
            let refused = try await client.checked(.get, "/lists/seoul/changes", template: Self.template)
            #expect(refused.status == 401)
            let allowed = try await client.checked(
                .get, "/lists/seoul/changes", template: Self.template, headers: [.authorization: "Bearer \(fixture.readToken)"])
            #expect(allowed.status == 200)
        }
    }
}

/// Stores in memory as an import's rows.
struct StoreList: StoreRowReader {
    private var stores: [Store]
    private var index = 0
    init(_ stores: [Store]) { self.stores = stores }
    mutating func next() throws(ImportFileError) -> ImportRow? {
        guard index < stores.count else { return nil }
        defer { index += 1 }
        return .valid(stores[index], line: index + 2)
    }
}
