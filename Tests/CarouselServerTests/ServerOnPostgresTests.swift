import CarouselServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PostgresCatalog
import StoreCatalog
import TestSupport
import Testing

/// Several servers on one PostgreSQL catalog, as a deployment runs them:
/// three nodes (each its own `PostgresCatalog`, pool and change watch, as
/// three processes would have) answer as a server on SQLite answers, a
/// commit made through any node shows on the others, a session on one
/// node follows a list replaced through another, and a node that loses the
/// database says so on its readiness check and recovers with it.
///
/// Waits allow 10 s and check content: how fast a change spreads is
/// measured by `scripts/benchmarks/postgres-nodes.sh`, not asserted here.
@Suite(.serialized) struct ServerOnPostgresTests {
    static let seoul = Paths.sampleData.appendingPathComponent("seoul-coffee.csv")

    /// A node: a server over a catalog of its own on the shared database.
    struct Node {
        let catalog: PostgresCatalog
        let server: CarouselServer

        init(url: String) async throws {
            catalog = try await PostgresCatalog(url: PostgresURL(url), maxConnections: 4)
            server = try CarouselServer(engine: catalog)
        }
    }

    /// Runs `body` with a live client of each server, in order.
    static func live(
        _ servers: [CarouselServer], _ clients: [any TestClientProtocol] = [],
        _ body: @escaping @Sendable ([any TestClientProtocol]) async throws -> Void
    ) async throws {
        guard let first = servers.first else { return try await body(clients) }
        try await first.application(host: "127.0.0.1", port: 0).test(.live) { client in
            try await live(Array(servers.dropFirst()), clients + [client], body)
        }
    }

    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

    @Test func threeNodesAnswerAsSQLiteDoesAndFollowEachOthersCommits() async throws {
        try await PostgresCluster.with { cluster in
            try cluster.createDatabase("catalog")
            let url = cluster.url("catalog")
            let nodes = [try await Node(url: url), try await Node(url: url), try await Node(url: url)]
            let token = try await nodes[0].catalog.createToken(named: "writer", scope: .write)
            // The reference: the same list in a SQLite catalog, served.
            let directory = try TemporaryDirectory("carousel-pg-server")
            let sqlite = try Catalog(path: directory.path("catalog.sqlite").path)
            try sqlite.importList(named: "seoul", from: makeStoreRowReader(for: Self.seoul, format: .csv))
            let reference = try CarouselServer(engine: sqlite)
            let csv = try String(contentsOf: Self.seoul, encoding: .utf8)

            try await Self.live(nodes.map(\.server) + [reference]) { clients in
                let (a, b, c, sqliteClient) = (clients[0], clients[1], clients[2], clients[3])
                // Before: no list anywhere.
                for client in [b, c] {
                    #expect(try await client.checked(.get, "/lists", template: "/lists").array.isEmpty)
                }
                let imported = try await a.checked(
                    .post, "/lists/seoul/import?format=csv", template: "/lists/{name}/import", headers: Self.bearer(token), body: csv)
                #expect(imported.status == 200, "\(imported.text)")
                #expect(imported.object["imported"] as? Int == 44)

                // Every node sees it, and answers as SQLite does, byte for byte.
                let queries = [
                    "/lists", "/lists/seoul/stores?limit=7", "/lists/seoul/stores?limit=100",
                    "/stores/near?lat=37.5&lng=127.03&limit=5", "/stores/near?lat=-33.86&lng=151.2&limit=3&list=seoul",
                    "/stores/near?lat=37.55&lng=126.97&limit=10&withinKm=2", "/stores/bbox?south=37.4&west=126.8&north=37.7&east=127.2",
                    "/lists/seoul/clusters?zoom=11&south=37.3&west=126.7&north=37.8&east=127.3",
                    "/stores/search?list=seoul&q=coffee&lat=37.5&lng=127.0&limit=5",
                ]
                for query in queries {
                    let template = String(query.prefix { $0 != "?" }).replacingOccurrences(of: "/lists/seoul/", with: "/lists/{name}/")
                    let expected = try await sqliteClient.checked(.get, query, template: template)
                    #expect(expected.status == 200, "\(query): \(expected.text)")
                    for (name, client) in [("a", a), ("b", b), ("c", c)] {
                        let answer = try await client.checked(.get, query, template: template)
                        #expect(answer.text == expected.text, "node \(name), \(query)")
                    }
                }
                // Each node's nearest snapshot follows the catalog.
                for node in nodes {
                    #expect(try await eventually { try await node.server.nearestAnswersAreInMemory() })
                }

                // A replace through node b: node c's entity tag and answer move.
                let before = try await c.execute(uri: "/lists/seoul/stores", method: .get) { $0.headers[.eTag] }
                #expect(before != nil)
                let replacement = "id,name,latitude,longitude\nn1,New One,37.50,127.00\nn2,New Two,37.51,127.01\n"
                let replaced = try await b.checked(
                    .post, "/lists/seoul/import?format=csv&replace=true", template: "/lists/{name}/import",
                    headers: Self.bearer(token), body: replacement)
                #expect(replaced.object["imported"] as? Int == 2)
                #expect(
                    try await eventually {
                        try await c.execute(uri: "/lists/seoul/stores", method: .get) { $0.headers[.eTag] } != before
                    })
                let now = try await c.checked(.get, "/lists/seoul/stores", template: "/lists/{name}/stores")
                #expect((now.object["stores"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["n1", "n2"])
                // Node a's snapshot moves on to the new list too.
                #expect(
                    try await eventually {
                        let near = try await a.checked(.get, "/stores/near?lat=37.5&lng=127.0&limit=1", template: "/stores/near")
                        return near.array.first?["id"] as? String == "n1"
                    })
                #expect(try await eventually { try await nodes[0].server.nearestAnswersAreInMemory() })
            }
        }
    }

    /// Issue 42: a NUL (`%00`) in a list name, a store id, `list=` or a
    /// search gets on PostgreSQL the answer SQLite gives (status and error
    /// code), never a 500 from PostgreSQL's "invalid byte sequence"; an
    /// upload with a NUL in a field is refused on both with the row's line.
    @Test func tilesAreSQLitesTilesByteForByte() async throws {
        try await PostgresCluster.with { cluster in
            try cluster.createDatabase("catalog")
            let node = try await Node(url: cluster.url("catalog"))
            try await node.catalog.importList(named: "seoul", from: makeStoreRowReader(for: Self.seoul, format: .csv))
            let reference = try ServerFixture()
            try await Self.live([node.server, reference.server]) { clients in
                var compared = 0
                // With the filters too: the index of the matching stores is
                // built from each catalog's search snapshot.
                for (z, x, y, query) in [
                    (0, 0, 0, ""), (8, 218, 99, ""), (12, 3493, 1587, ""), (12, 3493, 1587, "?selected=7"), (15, 27948, 12701, "?selected=3"),
                    (0, 0, 0, "?category=Roastery"), (8, 218, 99, "?q=coffee&where=seats=33&selected=0"),
                    (12, 3493, 1587, "?category=coffee%20shop&properties=seats,phone,address"),
                ] as [(Int, Int, Int, String)] {
                    let uri = "/lists/seoul/tiles/\(z)/\(x)/\(y).mvt" + query
                    let onPostgres = try await clients[0].execute(uri: uri, method: .get)
                    let onSQLite = try await clients[1].execute(uri: uri, method: .get)
                    #expect(onPostgres.status == onSQLite.status, "\(uri)")
                    #expect(onPostgres.body == onSQLite.body, "\(uri)")
                    compared += onSQLite.body.readableBytes
                }
                #expect(compared > 0)
            }
        }
    }

    @Test func aNULAnswersAsOnSQLite() async throws {
        try await PostgresCluster.with { cluster in
            try cluster.createDatabase("catalog")
            let node = try await Node(url: cluster.url("catalog"))
            let token = try await node.catalog.createToken(named: "writer", scope: .write)
            try await node.catalog.importList(named: "seoul", from: makeStoreRowReader(for: Self.seoul, format: .csv))
            let reference = try ServerFixture()
            try await Self.live([node.server, reference.server]) { clients in
                let (postgres, sqlite) = (clients[0], clients[1])
                let box = "south=37.4&west=126.8&north=37.7&east=127.2"
                for (uri, template) in [
                    ("/lists/se%00oul/stores", "/lists/{name}/stores"),
                    ("/lists/seoul%00/stores", "/lists/{name}/stores"),
                    ("/lists/seoul%00/clusters?zoom=10&\(box)", "/lists/{name}/clusters"),
                    ("/stores/seoul/hc-001%00", "/stores/{list}/{id}"),
                    ("/stores/seoul/hc%00-001", "/stores/{list}/{id}"),
                    ("/stores/seoul%00/hc-001", "/stores/{list}/{id}"),
                    ("/stores/near?lat=37.5&lng=127.0&list=seoul%00", "/stores/near"),
                    ("/stores/bbox?\(box)&list=seoul%00", "/stores/bbox"),
                    ("/stores/search?q=coffee&list=seoul%00", "/stores/search"),
                    ("/stores/search?q=cof%00fee&list=seoul", "/stores/search"),
                ] {
                    let onPostgres = try await postgres.checked(.get, uri, template: template)
                    let onSQLite = try await sqlite.checked(.get, uri, template: template)
                    #expect(onPostgres.status == onSQLite.status, "\(uri): \(onPostgres.text) / SQLite: \(onSQLite.text)")
                    #expect(onPostgres.errorCode == onSQLite.errorCode, "\(uri): \(onPostgres.text) / SQLite: \(onSQLite.text)")
                    #expect(onPostgres.status == 400, "\(uri): \(onPostgres.text)")
                }
                let rows = "id,name,latitude,longitude\na,A,37.5,127\nb,B\u{0}x,37.5,127\n"
                for (client, headers) in [(postgres, Self.bearer(token)), (sqlite, reference.writeHeaders())] {
                    let refused = try await client.checked(
                        .post, "/lists/nul/import?format=csv", template: "/lists/{name}/import", headers: headers, body: rows)
                    #expect(refused.status == 422, "\(refused.text)")
                    #expect(refused.errorCode == "rows_rejected")
                    let report = (refused.object["error"] as? [String: Any])?["report"] as? [String: Any]
                    let errors = report?["errors"] as? [[String: Any]]
                    #expect(errors?.map { $0["line"] as? Int } == [3], "\(refused.text)")
                    let named = try await client.checked(
                        .post, "/lists/n%00ul/import?format=csv", template: "/lists/{name}/import", headers: headers, body: rows)
                    #expect(named.status == 400, "\(named.text)")
                }
                #expect(try await node.catalog.lists().map(\.name) == ["seoul"])
            }
        }
    }

    /// The PostgreSQL catalog's last defence: text with a NUL that reaches
    /// a statement's binds is a bad argument (400), sent to no server.
    @Test func textWithANULNeverReachesPostgreSQL() async throws {
        try await PostgresCluster.with { cluster in
            try cluster.createDatabase("catalog")
            let catalog = try await PostgresCatalog(url: PostgresURL(cluster.url("catalog")), maxConnections: 2)
            await #expect(throws: CatalogError.invalidArgument("text cannot hold U+0000 (NUL)")) {
                try await catalog.createToken(named: "a\u{0}b", scope: .read)
            }
            await #expect(throws: CatalogError.invalidArgument("text cannot hold U+0000 (NUL)")) {
                try await catalog.revokeToken(named: "a\u{0}b")
            }
            await #expect(throws: CatalogError.listNotFound("a\u{0}b")) { try await catalog.stores(list: "a\u{0}b") }
            #expect(try await catalog.listVersion(named: "a\u{0}b") == nil)
            #expect(try await catalog.tokens().isEmpty)
        }
    }

    @Test func aSessionOnOneNodeFollowsAListReplacedThroughAnother() async throws {
        try await PostgresCluster.with { cluster in
            try cluster.createDatabase("catalog")
            let url = cluster.url("catalog")
            let nodes = [try await Node(url: url), try await Node(url: url)]
            try await nodes[0].catalog.importList(named: "seoul", from: makeStoreRowReader(for: Self.seoul, format: .csv))
            try await Self.live(nodes.map(\.server)) { clients in
                let port = try #require(clients[1].port)
                try await SessionTests.session(port: port) { outbound, received in
                    try await outbound.write(.text(SessionListChangeTests.layout))
                    try await received.wait(for: "marker", timeout: .seconds(10))
                    try await outbound.write(.text(#"{"tapMarker":5}"#))
                    try await received.wait(for: "marker", count: 2, timeout: .seconds(10))
                    let focused = try #require(received.of("marker").last?.line["storeId"] as? String)
                    // Replaced through the other node, keeping the focused store.
                    let csv = "id,name,latitude,longitude\nnew-1,New One,37.50,127.00\n\(focused),Kept,37.51,127.01\n"
                    let file = FileManager.default.temporaryDirectory.appendingPathComponent("pg-replace-\(UUID().uuidString).csv")
                    try Data(csv.utf8).write(to: file)
                    defer { try? FileManager.default.removeItem(at: file) }
                    _ = try await nodes[0].catalog.importList(
                        named: "seoul", from: makeStoreRowReader(for: file, format: .csv), options: ImportOptions(replace: true))
                    try await received.wait(for: "list", timeout: .seconds(10))
                    #expect(received.of("list").map { $0.line["count"] as? Int } == [2])
                    try await received.wait(for: "scroll", count: 2, timeout: .seconds(10))
                    let marker = try #require(received.of("marker").last?.line)
                    #expect(marker["storeId"] as? String == focused)
                    #expect(marker["index"] as? Int == 1)
                    #expect(received.of("error").isEmpty)
                }
            }
        }
    }

    /// Issue 45: `GET /lists/{name}/changes` on PostgreSQL answers as on
    /// SQLite after the same writes: the same changes page by page, the same
    /// `upToDate` and checksum, the same delta after a replace, the same
    /// errors. Only `next` differs: each catalog signs its cursors with its
    /// own feed's random key.
    @Test func changesAnswerAsOnSQLite() async throws {
        try await PostgresCluster.with { cluster in
            try cluster.createDatabase("catalog")
            let node = try await Node(url: cluster.url("catalog"))
            try await node.catalog.importList(named: "seoul", from: makeStoreRowReader(for: Self.seoul, format: .csv))
            let reference = try ServerFixture()
            let template = ChangesRouteTests.template
            try await Self.live([node.server, reference.server]) { clients in
                /// Every page from `cursors` (nil: from scratch) to up to
                /// date, on each server: their bodies without `next`.
                func walk(_ cursors: [String?]) async throws -> (pages: [[String]], next: [String?]) {
                    var pages: [[String]] = [[], []]
                    var next = cursors
                    for (side, client) in clients.enumerated() {
                        for _ in 0..<20 {
                            let uri = "/lists/seoul/changes?limit=9" + (next[side].map { "&since=\($0)" } ?? "")
                            let page = try await client.checked(.get, uri, template: template)
                            #expect(page.status == 200, "\(uri): \(page.text)")
                            next[side] = page.object["next"] as? String
                            var object = page.object
                            object["next"] = nil
                            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                            pages[side].append(String(decoding: data, as: UTF8.self))
                            if page.object["upToDate"] as? Bool == true { break }
                        }
                    }
                    return (pages, next)
                }
                let first = try await walk([nil, nil])
                #expect(first.pages[0].count == 5, "44 stores in pages of 9")
                #expect(first.pages[0] == first.pages[1])

                // The same replace on both: a store renamed, one gone, one new.
                let csv = try String(contentsOf: Self.seoul, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                var rows = csv.map(String.init)
                rows[3] = rows[3].replacingOccurrences(of: "Haneul Coffee", with: "Haneul Roasters")
                rows.remove(at: 9)
                rows.insert("new-1,New One,37.5,127.0,,,,", at: 20)
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("pg-changes-\(UUID().uuidString).csv")
                try Data(rows.joined(separator: "\n").utf8).write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                for catalog in [node.catalog as any CatalogEngine, reference.catalog] {
                    try await catalog.importList(
                        named: "seoul", from: makeStoreRowReader(for: file, format: .csv), options: ImportOptions(replace: true))
                }
                let delta = try await walk(first.next)
                #expect(delta.pages[0].count == 1)
                #expect(delta.pages[0] == delta.pages[1])
                #expect(delta.pages[0].first?.contains("Haneul Roasters") == true)
                #expect(delta.pages[0].first?.contains("new-1") == true)

                for bad in ["garbage", "1-0-0000000000000000"] {
                    var answers: [CheckedResponse] = []
                    for client in clients {
                        answers.append(try await client.checked(.get, "/lists/seoul/changes?since=\(bad)", template: template))
                    }
                    #expect(answers.map(\.status) == [400, 400] && answers.map(\.errorCode) == ["bad_cursor", "bad_cursor"], "\(bad)")
                }
                // A cursor of one catalog is a forgery to the other.
                let foreign = try await clients[0].checked(.get, "/lists/seoul/changes?since=\(delta.next[1]!)", template: template)
                #expect(foreign.status == 400 && foreign.errorCode == "bad_cursor")
            }
        }
    }

    @Test func aNodeThatLosesTheDatabaseIsNotReadyUntilItReturns() async throws {
        try await PostgresCluster.with { cluster in
            try cluster.createDatabase("catalog")
            let node = try await Node(url: cluster.url("catalog"))
            try await node.catalog.importList(named: "seoul", from: makeStoreRowReader(for: Self.seoul, format: .csv))
            try await node.server.application(host: "127.0.0.1", port: 0).test(.live) { client in
                let ready = try await client.checked(.get, "/readyz", template: "/readyz")
                #expect(ready.status == 200)
                #expect(ready.object["schemaVersion"] as? Int == PostgresCatalog.latestSchemaVersion)

                try cluster.stopServer()
                for path in ["/readyz", "/lists", "/stores/near?lat=37.5&lng=127&limit=1"] {
                    let down = try await client.execute(uri: path, method: .get) { response in
                        (response.status.code, response.headers[.retryAfter], String(buffer: response.body))
                    }
                    #expect(down.0 == 503, "\(path): \(down.2)")
                    #expect(down.1 == "5", "\(path)")
                    #expect(!down.2.contains("internal"), "\(path): \(down.2)")
                }

                try cluster.startServer()
                #expect(
                    try await eventually {
                        try await client.execute(uri: "/readyz", method: .get) { $0.status.code } == 200
                    })
                let back = try await client.checked(.get, "/lists", template: "/lists")
                #expect(back.array.first?["name"] as? String == "seoul")
            }
        }
    }
}
