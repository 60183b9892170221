import Foundation
import Logging
import PostgresNIO
import StoreCatalog
import TestSupport
import Testing

@testable import PostgresCatalog

/// The change log on PostgreSQL (issue 45): the same pages as SQLite's,
/// and no change skipped when transactions commit out of the order they
/// began in (airbyte #9668).
@Suite("Change log on PostgreSQL", .serialized)
struct ChangeLogOnPostgresTests {
    static func store(_ id: String, _ name: String? = nil) -> Store {
        Store(
            id: id, name: name ?? id.uppercased(), latitude: 37.5, longitude: 127, phone: "02",
            attributes: ["seats": .number(AttributeValue.Number("12")!), "note": .string("a b")])
    }

    struct Rows: StoreRowReader {
        var stores: [Store]
        var index = 0
        init(_ stores: [Store]) { self.stores = stores }
        mutating func next() throws(ImportFileError) -> ImportRow? {
            guard index < stores.count else { return nil }
            defer { index += 1 }
            return .valid(stores[index], line: index + 2)
        }
    }

    /// What a page says apart from its cursor's MAC (each catalog draws its own keys).
    static func shape(_ page: ChangePage) -> String {
        let changes = page.changes.map { change in
            "\(change.sequence) \(change.id) \(change.rank.map(String.init) ?? "-") \(change.store.map { "\($0)" } ?? "deleted")"
        }
        return "\(changes) next \(page.next.split(separator: "-").prefix(2)) \(page.upToDate) \(page.checksum ?? "nil") \(page.exists)"
    }

    @Test func theSameWritesGiveTheSamePagesAsOnSQLite() async throws {
        guard let cluster = try PostgresCluster.startIfAvailable() else { return }
        defer { cluster.stop() }
        try cluster.createDatabase("changes")
        let postgres = try await PostgresCatalog(url: PostgresURL(cluster.url("changes")))
        let directory = try TemporaryDirectory()
        let sqlite = try Catalog(path: directory.path("catalog.sqlite").path)
        var stores = (0..<40).map { Self.store("s\($0)") }
        var cursors: (sqlite: String?, postgres: String?) = (nil, nil)

        func compare(_ list: String, limit: Int = 7) async throws {
            var a = cursors.sqlite, b = cursors.postgres
            while true {
                let pageA = try await sqlite.changes(list: list, since: a, limit: limit)
                let pageB = try await postgres.changes(list: list, since: b, limit: limit)
                #expect(Self.shape(pageA) == Self.shape(pageB))
                a = pageA.next
                b = pageB.next
                if pageA.upToDate || pageB.upToDate { break }
            }
            cursors = (a, b)
        }

        for catalog in [sqlite as any CatalogEngine, postgres] {
            _ = try await catalog.importList(named: "a", from: Rows(stores), options: ImportOptions())
        }
        try await compare("a")
        stores[3].name = "changed"
        stores.remove(at: 9)
        stores.insert(Self.store("new"), at: 0)
        stores.swapAt(20, 30)
        for catalog in [sqlite as any CatalogEngine, postgres] {
            _ = try await catalog.importList(named: "a", from: Rows(stores), options: ImportOptions(replace: true))
        }
        try await compare("a")
        for catalog in [sqlite as any CatalogEngine, postgres] { try await catalog.renameList("a", to: "b") }
        try await compare("a")
        cursors = (nil, nil)
        try await compare("b", limit: 1_000)
        for catalog in [sqlite as any CatalogEngine, postgres] { _ = try await catalog.deleteList("b") }
        try await compare("b")
        // Errors alike: a cursor of the other list, a list never seen.
        let other = try await postgres.changes(list: "a", since: nil, limit: 1).next
        await #expect(throws: ChangeCursorError.self) { try await postgres.changes(list: "b", since: other, limit: 1) }
        await #expect(throws: CatalogError.listNotFound("never")) { try await postgres.changes(list: "never", since: nil, limit: 1) }
    }

    @Test func aTransactionHeldOpenAcrossASyncLosesNoChange() async throws {
        guard let cluster = try PostgresCluster.startIfAvailable() else { return }
        defer { cluster.stop() }
        try cluster.createDatabase("held")
        let postgres = try await PostgresCatalog(url: PostgresURL(cluster.url("held")))
        let stores = (0..<5).map { Self.store("s\($0)") }
        try await postgres.importList(named: "a", from: Rows(stores))
        var replica: [String: (rank: Int64, store: StoreRecord)] = [:]
        func apply(_ page: ChangePage) {
            for change in page.changes { replica[change.id] = change.rank.map { ($0, change.store!) } }
        }
        let first = try await postgres.changes(list: "a", since: nil, limit: 100)
        apply(first)
        let cursor = first.next

        // A writer that began first: it changes s1 and records the change
        // (taking the next sequence number), then stays open.
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        let logger = Logger(label: "test")
        let held = Task {
            try await postgres.withConnection { connection in
                try await connection.query("BEGIN", logger: logger)
                let key = try await postgres.listKey("a", connection)
                try await connection.query("UPDATE stores SET name = 'held' WHERE list = \(key) AND id = 's1'", logger: logger)
                try await PostgresChangeLog.record(name: "a", list: key, connection, options: ChangeLogOptions(), logger: logger)
                startedContinuation.yield()
                for await _ in release { break }
                try await connection.query("COMMIT", logger: logger)
            }
        }
        for await _ in started { break }
        // A writer that began later: a replace of the same list, which
        // waits for the first's locks (it cannot take a number before it).
        var replaced = stores
        replaced[3].name = "later"
        replaced.append(Self.store("s5"))
        let later = Task { try await postgres.importList(named: "a", from: Rows(replaced), options: ImportOptions(replace: true)) }

        // A sync while both are open sees neither, and its cursor does not
        // move past the first's number.
        let during = try await postgres.changes(list: "a", since: cursor, limit: 100)
        #expect(during.changes.isEmpty && during.upToDate)
        apply(during)

        releaseContinuation.yield()
        try await held.value
        _ = try await later.value
        var since = during.next
        var sequences: [Int64] = []
        while true {
            let page = try await postgres.changes(list: "a", since: since, limit: 2)
            apply(page)
            sequences += page.changes.map(\.sequence)
            since = page.next
            if page.upToDate { break }
        }
        #expect(sequences == sequences.sorted() && !sequences.isEmpty)
        let now = try await postgres.stores(list: "a")
        #expect(replica.sorted { $0.value.rank < $1.value.rank }.map(\.value.store.name) == now.map(\.name))
        #expect(now.map(\.name).contains("later"))
    }
}
