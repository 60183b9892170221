import Foundation
import TestSupport
import Testing

@testable import StoreCatalog

/// The change log of issue 45: what each write records, the pages read
/// from it, cursors, compaction, and a replica that follows it.
@Suite("Change log")
struct ChangeLogTests {
    static func store(_ id: String, _ name: String? = nil, latitude: Double = 37.5) -> Store {
        Store(id: id, name: name ?? id.uppercased(), latitude: latitude, longitude: 127, attributes: ["n": .string("1")])
    }

    static func importList(_ catalog: Catalog, _ name: String, _ stores: [Store], replace: Bool = true) throws {
        try catalog.importList(named: name, from: ArrayRowReader(stores: stores), options: ImportOptions(replace: replace))
    }

    /// Every page after `since` up to date.
    static func pages(_ catalog: Catalog, _ list: String, since: String?, limit: Int = 1000) throws -> (
        changes: [StoreChange], last: ChangePage
    ) {
        var cursor = since
        var changes: [StoreChange] = []
        while true {
            let page = try catalog.changes(list: list, since: cursor, limit: limit)
            changes += page.changes
            cursor = page.next
            if page.upToDate { return (changes, page) }
        }
    }

    @Test("an import is every store, in order; an unchanged replace is no change")
    func importAndUnchangedReplace() throws {
        let catalog = try Catalog.inMemory()
        let stores = (0..<10).map { Self.store("s\($0)") }
        try Self.importList(catalog, "a", stores, replace: false)
        let (changes, page) = try Self.pages(catalog, "a", since: nil, limit: 3)
        // Numbered in list order, ranked by place (the feed's base).
        #expect(changes.map(\.id) == stores.map(\.id))
        #expect(changes.map(\.sequence) == Array(1...10))
        #expect(changes.map(\.rank) == (1...10).map { Int64($0) * ChangeLog.spacing })
        #expect(changes.allSatisfy { !$0.isTombstone })
        var replica = ModelReplica()
        replica.apply(changes)
        #expect(replica.ids == stores.map(\.id))
        #expect(page.checksum != nil && page.exists)

        try Self.importList(catalog, "a", stores)
        let again = try catalog.changes(list: "a", since: page.next, limit: 100)
        #expect(again.changes.isEmpty && again.upToDate && again.checksum == page.checksum)
    }

    @Test(
        "a first import is the feed's base, no row; written out as rows, its pages, cursors and checksum are the same",
        arguments: [false, true])
    func baseAndItsRows(inPlaceUpdate: Bool) throws {
        let catalog = try Catalog.inMemory()
        // Ids out of list order, a deleted list's tombstones before the
        // base (one of an id the list holds again).
        try Self.importList(catalog, "a", [Self.store("old1"), Self.store("s3")], replace: false)
        try catalog.deleteList("a")
        let stores = (0..<23).map { Self.store("s\(($0 * 7) % 23)") }
        try Self.importList(catalog, "a", stores, replace: false)
        let (feedRows, hasBase) = try catalog.read { db in
            let feed = try #require(try ChangeLog.feed(named: "a", db))
            return (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM feed_entries WHERE feed = ?", arguments: [feed.key])!,
                try ChangeLog.base(of: feed.key, db) != nil
            )
        }
        #expect(hasBase && feedRows == 1)  // old1's tombstone; s3's went
        if inPlaceUpdate {
            // Upserts after the base hide their stores' base entries.
            try catalog.write { db in
                let first = try ChangeLog.storesInOrder(try catalog.listKey("a", db), db)
                _ = try first.step()
                var changed = ChangeLog.record(first)
                first.reset()
                changed.name = "In place"
                try ChangeLog.recordContentChanges(name: "a", [changed], db, options: catalog.changeLogOptions)
                try db.execute(sql: "UPDATE stores SET name = 'In place' WHERE id = ?", arguments: [changed.id])
            }
        }
        func everyPage() throws -> [[StoreChange]] {
            // From scratch, and from every cursor a page of 4 gives.
            var cursors: [String?] = [nil]
            var cursor: String?
            repeat {
                let page = try catalog.changes(list: "a", since: cursor, limit: 4)
                cursor = page.next
                cursors.append(cursor)
                if page.upToDate { break }
            } while true
            return try cursors.map { try Self.pages(catalog, "a", since: $0, limit: 3).changes }
        }
        let fromBase = try everyPage()
        let baseChecksum = try Self.pages(catalog, "a", since: nil).last.checksum
        try catalog.write { db in try ChangeLog.materializeBase(of: try #require(try ChangeLog.feed(named: "a", db)).key, db) }
        #expect(try everyPage() == fromBase)
        #expect(try Self.pages(catalog, "a", since: nil).last.checksum == baseChecksum)
        let rows = try Self.feedRows(catalog, "a")
        #expect(rows.rows.count == 24 && rows.live == 23)
        var replica = ModelReplica()
        replica.apply(fromBase[0])
        #expect(replica.ids == stores.map(\.id))
        #expect(fromBase[0].contains { $0.store?.name == "In place" } == inPlaceUpdate)
    }

    /// A feed's rows by id and its counters, to compare two feeds; its
    /// base, if any, written out as rows first.
    static func feedRows(_ catalog: Catalog, _ name: String) throws -> (rows: [String], checksum: Int64, live: Int64) {
        try catalog.write { db in
            let feed = try #require(try ChangeLog.feed(named: name, db))
            try ChangeLog.materializeBase(of: feed.key, db)
            let rows = try String.fetchAll(
                db,
                sql: "SELECT id || ' ' || coalesce(rank, '-') || ' ' || content FROM feed_entries WHERE feed = ? ORDER BY id",
                arguments: [feed.key])
            return (rows, feed.checksum, feed.live)
        }
    }

    @Test(
        "an import's log rows, gathered as it writes its stores, are the rows the log reads back and hashes",
        arguments: [
            ("file order", ImportOrder.file, false),
            ("name order", ImportOrder.name, false),
            ("distance order", ImportOrder.distance(from: Coordinate(latitude: 37, longitude: 127)), false),
            ("a column retyped after its stores were written", ImportOrder.file, true),
        ])
    func gatheredRowsAreTheReadBackRows(_ label: String, order: ImportOrder, retyped: Bool) throws {
        let catalog = try Catalog.inMemory()
        var stores: [Store] = (0..<300).map { (index: Int) -> Store in
            let id = "s\((index * 7919) % 300)"
            let longitude: Double = index % 2 == 0 ? 0 : 127.5
            let address: String? = index % 3 == 0 ? nil : "Road \(index)"
            let attributes: [String: AttributeValue] = ["n": .string("\(index)")]
            return Store(
                id: id, name: "Store \(299 - index)", latitude: Double(index % 90), longitude: longitude,
                address: address, attributes: attributes)
        }
        // Stores at −0: SQLite reads them back as +0.
        stores[5].latitude = -0.0
        stores[6].longitude = -0.0
        if retyped { stores[299].attributes = ["n": AttributeValue.string("many")] }
        // A repeated id, skipped: the gathering follows the stores written.
        stores.insert(stores[10], at: 20)
        let options = ImportOptions(skipInvalid: true, order: order)
        let whole = try catalog.write { db in
            var reader = ArrayRowReader(stores: stores)
            reader.cellsAreText = true  // "n" is typed as a CSV column: numbers, then text
            let importer = ListImporter(list: "a", reader: reader, options: options)
            let (report, imported) = try importer.run(db)
            #expect(report.imported == 300 && report.rejected == 1)
            try ChangeLog.record(
                name: "a", list: try catalog.listKey("a", db), db, options: catalog.changeLogOptions, imported: imported)
            return imported?.isWhole
        }
        // Gathered unless a store was rewritten after it was written.
        #expect(whole == !retyped, "\(label)")
        let gathered = try Self.feedRows(catalog, "a")
        // A rename records the list under the new name by reading it back.
        try catalog.renameList("a", to: "b")
        let readBack = try Self.feedRows(catalog, "b")
        #expect(gathered.rows.count == 300)
        #expect(gathered.rows == readBack.rows, "\(label)")
        #expect(gathered.checksum == readBack.checksum && gathered.live == readBack.live, "\(label)")
    }

    @Test(
        "a base is written out as the same rows by consecutive or spread store keys, or in list order; a replace diffs alike",
        arguments: ["consecutive keys", "spread keys", "list order"])
    func baseRowsHoweverWritten(_ way: String) throws {
        // Ids out of list order, and keys given in list order.
        var stores = (0..<300).map { index in
            Store(id: "s\((index * 7919) % 300)", name: "Store \(index)", latitude: Double(index % 90), longitude: 1)
        }
        func catalog(spread: Bool) throws -> Catalog {
            let catalog = try Catalog.inMemory()
            try catalog.importList(named: "a", from: ArrayRowReader(stores: stores))
            if spread {
                // Keys 5,000 apart: too spread for an array slot a key.
                try catalog.write { db in
                    try db.execute(sql: "UPDATE stores SET key = key * 5000 + 1")
                    try db.execute(sql: "UPDATE list_items SET store = store * 5000 + 1")
                }
            }
            return catalog
        }
        let reference = try catalog(spread: false)
        let expected = try Self.feedRows(reference, "a")
        let other = try catalog(spread: way == "spread keys")
        try other.write { db in
            let feed = try #require(try ChangeLog.feed(named: "a", db))
            try ChangeLog.materializeBase(of: feed.key, db, idOrderLimit: way == "list order" ? 0 : ChangeLog.idOrderLimit)
        }
        let written = try Self.feedRows(other, "a")
        #expect(written.rows.count == 300)
        #expect(written.rows == expected.rows)
        #expect(written.checksum == expected.checksum && written.live == expected.live)
        // A replace: the same changes from each, read side by side by id.
        let cursors = try [reference, other].map { try Self.pages($0, "a", since: nil).last.next }
        stores[7].name = "Renamed"
        stores.remove(at: 20)
        stores.insert(Store(id: "new", name: "New", latitude: 1, longitude: 1), at: 3)
        stores.swapAt(100, 200)
        for catalog in [reference, other] { try Self.importList(catalog, "a", stores) }
        let changes = try zip([reference, other], cursors).map { try Self.pages($0, "a", since: $1).changes }
        #expect(changes[0].count == 5 && changes[1] == changes[0])
        var replica = ModelReplica()
        replica.apply(try Self.pages(other, "a", since: nil).changes)
        #expect(replica.ids == stores.map(\.id))
    }

    @Test("a gathering stops past its limit (an order not the file's), or at a store out of key order, and frees what it held")
    func gatheringLimits() throws {
        let catalog = try Catalog.inMemory()
        try catalog.write { db throws in
            var batch = RowBatch()
            for index in 0..<3 { batch.append(.valid(Self.store("s\(index)"), line: index + 2)) }
            let rows = batch.rows.compactMap { row -> RowBatch.StoreRow? in
                if case let .store(store) = row { return store } else { return nil }
            }
            var limited = ChangeLog.ImportedStores(inFileOrder: false, limit: 2)
            var outOfOrder = ChangeLog.ImportedStores(inFileOrder: true)
            var fileOrder = ChangeLog.ImportedStores(inFileOrder: true, limit: 2)
            batch.withText { text in
                for (offset, row) in rows.enumerated() {
                    limited.append(row, of: batch, text: text, key: 10 + Int64(offset))
                    fileOrder.append(row, of: batch, text: text, key: 10 + Int64(offset))
                }
                outOfOrder.append(rows[0], of: batch, text: text, key: 10)
                outOfOrder.append(rows[1], of: batch, text: text, key: 12)
            }
            #expect(!limited.isWhole && limited.count == 0)
            #expect(!outOfOrder.isWhole && outOfOrder.count == 0)
            #expect(try limited.checksum(inOrderOf: 1, count: 0, db) == nil)
            // In file order only a sum is kept: no limit.
            #expect(fileOrder.isWhole && fileOrder.count == 3)
            #expect(try fileOrder.checksum(inOrderOf: 1, count: 2, db) == nil)  // not the list's items one for one
            fileOrder.abandon()
            #expect(!fileOrder.isWhole)
        }
    }

    @Test("a replace records the changed, inserted and deleted stores only")
    func replaceIsADiff() throws {
        let catalog = try Catalog.inMemory()
        var stores = (0..<50).map { Self.store("s\($0)") }
        try Self.importList(catalog, "a", stores)
        let start = try Self.pages(catalog, "a", since: nil).last.next
        stores[10].name = "Renamed"  // changed
        stores.insert(Self.store("new"), at: 0)  // inserted at the front
        stores.remove(at: 30)  // deleted: s29
        stores.swapAt(40, 41)  // one of the two moved
        try Self.importList(catalog, "a", stores)
        let changes = try Self.pages(catalog, "a", since: start).changes
        #expect(changes.count == 4)
        #expect(Set(changes.map(\.id)).isSuperset(of: ["s10", "new", "s29"]))
        #expect(changes.first { $0.id == "s29" }?.isTombstone == true)
        var replica = ModelReplica()
        replica.apply(try Self.pages(catalog, "a", since: nil).changes)
        #expect(replica.ids == stores.map(\.id))
    }

    @Test("a rename ends one name's feed in tombstones and starts the other's; a delete tombstones all")
    func renameAndDelete() throws {
        let catalog = try Catalog.inMemory()
        try Self.importList(catalog, "a", [Self.store("s1"), Self.store("s2")])
        let a = try Self.pages(catalog, "a", since: nil).last.next
        try catalog.renameList("a", to: "b")
        let gone = try Self.pages(catalog, "a", since: a)
        #expect(gone.changes.map(\.id).sorted() == ["s1", "s2"] && gone.changes.allSatisfy(\.isTombstone))
        #expect(!gone.last.exists)
        #expect(try Self.pages(catalog, "b", since: nil).changes.map(\.id) == ["s1", "s2"])
        let b = try Self.pages(catalog, "b", since: nil).last.next
        try catalog.deleteList("b")
        #expect(try Self.pages(catalog, "b", since: b).changes.filter(\.isTombstone).count == 2)
        #expect(throws: CatalogError.listNotFound("never")) { try catalog.changes(list: "never", since: nil, limit: 10) }
    }

    @Test("a list imported again after its delete: its ids' tombstones become upserts, the others stay")
    func importAfterDelete() throws {
        let catalog = try Catalog.inMemory()
        try Self.importList(catalog, "a", [Self.store("s1"), Self.store("s2"), Self.store("s3")])
        let before = try Self.pages(catalog, "a", since: nil).last.next
        try catalog.deleteList("a")
        let deleted = try Self.pages(catalog, "a", since: before).last.next
        try Self.importList(catalog, "a", [Self.store("s4"), Self.store("s2", "Again")], replace: false)

        // From the cursor before the delete: s1 and s3 gone, s4 and s2 as
        // imported again, each id once.
        let since = try Self.pages(catalog, "a", since: before).changes
        #expect(since.map(\.id).sorted() == ["s1", "s2", "s3", "s4"])
        #expect(since.filter(\.isTombstone).map(\.id).sorted() == ["s1", "s3"])
        #expect(since.first { $0.id == "s2" }?.store?.name == "Again")
        // From the cursor after it: the two upserts; from scratch: the list.
        #expect(try Self.pages(catalog, "a", since: deleted).changes.map(\.id).sorted() == ["s2", "s4"])
        let scratch = try Self.pages(catalog, "a", since: nil)
        #expect(scratch.changes.map(\.id) == ["s4", "s2"] && scratch.changes.allSatisfy { !$0.isTombstone })
        #expect(scratch.changes.sorted { $0.rank! < $1.rank! }.map(\.id) == ["s4", "s2"])
        // One log row an id: the tombstones of s2 became its upsert.
        #expect(try Self.feedRows(catalog, "a").rows.count == 4)
    }

    @Test("a malformed, altered, foreign or future cursor is refused, never skipped")
    func badCursors() throws {
        let catalog = try Catalog.inMemory()
        try Self.importList(catalog, "a", [Self.store("s1")])
        try Self.importList(catalog, "b", [Self.store("s1")])
        let next = try catalog.changes(list: "a", since: nil, limit: 10).next
        for bad in ["", "x", "1-0", "01-0-0000000000000000", "-1-0-0000000000000000", String(repeating: "9", count: 80)] {
            #expect(throws: ChangeCursorError.self) { try catalog.changes(list: "a", since: bad, limit: 10) }
        }
        let parts = next.split(separator: "-")
        let altered = "\(Int(parts[0])! + 1)-\(parts[1])-\(parts[2])"
        #expect(throws: ChangeCursorError.self) { try catalog.changes(list: "a", since: altered, limit: 10) }
        #expect(throws: ChangeCursorError.self) { try catalog.changes(list: "b", since: next, limit: 10) }
        #expect(throws: CatalogError.self) { try catalog.changes(list: "a", since: nil, limit: 0) }
    }

    @Test("tombstones past the retention are purged; a cursor that needed one must resync")
    func retention() throws {
        let catalog = try Catalog.inMemory()
        let clock = VirtualNow(Date(timeIntervalSince1970: 1_700_000_000))
        catalog.changeLogOptions = ChangeLogOptions(retention: .seconds(86_400), now: { clock.now })
        try Self.importList(catalog, "a", [Self.store("s1"), Self.store("s2")])
        let old = try catalog.changes(list: "a", since: nil, limit: 10).next
        try Self.importList(catalog, "a", [Self.store("s1")])  // s2 deleted
        let afterDelete = try catalog.changes(list: "a", since: old, limit: 10)
        #expect(afterDelete.changes.map(\.id) == ["s2"])
        clock.advance(by: 86_401)
        #expect(try catalog.compactChanges() == 1)
        #expect(throws: ChangeCursorError.resyncRequired(list: "a")) { try catalog.changes(list: "a", since: old, limit: 10) }
        // A cursor taken after the delete lost nothing; a download from scratch neither.
        #expect(try catalog.changes(list: "a", since: afterDelete.next, limit: 10).changes.isEmpty)
        #expect(try catalog.changes(list: "a", since: nil, limit: 10).changes.map(\.id) == ["s1"])
    }

    @Test("a download from scratch across writes between its pages ends at the list as it is")
    func downloadAcrossWrites() throws {
        let catalog = try Catalog.inMemory()
        var stores = (0..<30).map { Self.store("s\($0)") }
        try Self.importList(catalog, "a", stores)
        var replica = ModelReplica()
        var page = try catalog.changes(list: "a", since: nil, limit: 7)
        replica.apply(page.changes)
        stores.remove(at: 2)  // delivered already: its tombstone must come
        stores.remove(at: 20)  // not delivered yet
        stores[25].name = "changed"
        stores.append(Self.store("late"))
        try Self.importList(catalog, "a", stores)
        while !page.upToDate {
            page = try catalog.changes(list: "a", since: page.next, limit: 7)
            replica.apply(page.changes)
        }
        #expect(replica.ids == stores.map(\.id))
        #expect(replica.checksum == page.checksum)
    }

    @Test("random writes and syncs: the replica's list is the server's after every sync", arguments: [1, 2, 3])
    func randomRounds(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let server = try Catalog.inMemory()
        let device = try Catalog.inMemory()
        var lists: [String: [Store]] = [:]
        var serial = 0
        for _ in 0..<150 {
            let name = ["a", "b"].randomElement(using: &random)!
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                var stores = lists[name] ?? []
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    let edit = Int.random(in: 0..<4, using: &random)
                    if edit == 0 || stores.isEmpty {
                        serial += 1
                        stores.insert(Self.store("n\(serial)"), at: Int.random(in: 0...stores.count, using: &random))
                    } else if edit == 1 {
                        stores.remove(at: Int.random(in: 0..<stores.count, using: &random))
                    } else if edit == 2 {
                        stores[Int.random(in: 0..<stores.count, using: &random)].latitude = Double.random(in: -80...80, using: &random)
                    } else {
                        let moved = stores.remove(at: Int.random(in: 0..<stores.count, using: &random))
                        stores.insert(moved, at: Int.random(in: 0...stores.count, using: &random))
                    }
                }
                try Self.importList(server, name, stores)
                lists[name] = stores
            case 5:
                let other = name == "a" ? "b" : "a"
                if lists[name] != nil, lists[other] == nil {
                    try server.renameList(name, to: other)
                    lists[other] = lists.removeValue(forKey: name)
                }
            case 6:
                if lists[name] != nil {
                    try server.deleteList(name)
                    lists[name] = nil
                }
            default:
                // A sync, maybe cut after some pages (the cursor is kept).
                guard (try? server.changes(list: name, since: nil, limit: 1)) != nil else { continue }
                let cut = Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 0...2, using: &random) : Int.max
                var applied = 0
                while applied < cut {
                    let held = try device.replicaState(list: name)?.cursor
                    let page = try server.changes(list: name, since: held, limit: Int.random(in: 1...5, using: &random))
                    _ = try device.applyReplicaPage(list: name, source: "test", after: held, page: page)
                    applied += 1
                    if page.upToDate {
                        let held = try Self.stores(device, name)
                        #expect(held == lists[name], "seed \(seed): \(held.map { $0.map(\.id) } as Any) \(lists[name].map { $0.map(\.id) } as Any)")
                        break
                    }
                }
            }
        }
    }

    static func stores(_ catalog: Catalog, _ list: String) throws -> [Store]? {
        var stores: [Store] = []
        do {
            try catalog.forEachStore(list: list, offset: 0, limit: nil) { _, store in stores.append(store) }
        } catch CatalogError.listNotFound { return nil }
        return stores
    }

    @Test("a page that does not follow the held cursor, or whose checksum is wrong, changes nothing")
    func replicaRefusals() throws {
        let server = try Catalog.inMemory()
        let device = try Catalog.inMemory()
        try Self.importList(server, "a", [Self.store("s1"), Self.store("s2")])
        let page = try server.changes(list: "a", since: nil, limit: 10)
        #expect(throws: ReplicaPageError.self) {
            try device.applyReplicaPage(list: "a", source: "t", after: "elsewhere", page: page)
        }
        var wrong = page
        wrong.checksum = "0000000000000000"
        #expect(throws: ReplicaPageError.self) { try device.applyReplicaPage(list: "a", source: "t", after: nil, page: wrong) }
        #expect(try device.replicaState(list: "a") == nil)
        #expect(try Self.stores(device, "a") == nil)
        let outcome = try device.applyReplicaPage(list: "a", source: "t", after: nil, page: page)
        #expect(outcome.added == 2 && outcome.listWritten)
        #expect(try Self.stores(device, "a")?.map(\.id) == ["s1", "s2"])
        #expect(throws: ReplicaPageError.self) { try device.applyReplicaPage(list: "a", source: "t", after: nil, page: page) }
    }

    @Test("migration 0012 keeps a schema-11 catalog's feeds, rows as they are: the same pages, and the next write a diff")
    func migrationKeepsRowFeeds() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("v11.sqlite").path
        var stores = (0..<30).map { Self.store("s\($0)") }
        let before: [StoreChange]
        let next: String
        do {
            let catalog = try Catalog(path: path)
            try Self.importList(catalog, "a", stores)
            try catalog.deleteList("a")
            try Self.importList(catalog, "a", Array(stores.reversed()), replace: false)
            // Back to schema 11: every feed as rows, no base columns.
            _ = try Self.feedRows(catalog, "a")
            let all = try Self.pages(catalog, "a", since: nil, limit: 7)
            (before, next) = (all.changes, all.last.next)
            try catalog.execute(
                """
                ALTER TABLE change_feeds DROP COLUMN base_list; ALTER TABLE change_feeds DROP COLUMN base_start;
                ALTER TABLE change_feeds DROP COLUMN base_count; ALTER TABLE change_feeds DROP COLUMN base_at
                """)
            try catalog.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 11") }
        }
        let catalog = try Catalog(path: path)
        #expect(try Self.pages(catalog, "a", since: nil, limit: 7).changes == before)
        #expect(before.count == 30 && before.map(\.sequence) == Array(61...90))
        stores.reverse()
        stores[4].name = "changed"
        try Self.importList(catalog, "a", stores)
        #expect(try Self.pages(catalog, "a", since: next).changes.map(\.id) == [stores[4].id])
    }

    @Test("migration 0012 gives every existing list of a schema-10 catalog a feed: a download from scratch is the list, with its checksum")
    func migrationStartsFeeds() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("v10.sqlite").path
        let stores = (0..<30).map { Self.store("s\($0)") }
        do {
            let catalog = try Catalog(path: path)
            try Self.importList(catalog, "a", stores)
            try Self.importList(catalog, "b", Array(stores.prefix(3)))
            // Back to schema 10, the catalog before the change log.
            try catalog.execute(
                "DROP TABLE change_feeds; DROP TABLE feed_entries; DROP TABLE sync_replicas; DROP TABLE sync_entries; DROP TABLE sync_dirty")
            try catalog.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 10") }
        }
        let catalog = try Catalog(path: path)
        for (name, expected) in [("a", stores), ("b", Array(stores.prefix(3)))] {
            let (changes, last) = try Self.pages(catalog, name, since: nil, limit: 7)
            var replica = ModelReplica()
            replica.apply(changes)
            #expect(replica.ids == expected.map(\.id))
            #expect(replica.checksum == last.checksum)
        }
        // And the next write is a diff against it: one change.
        var changed = stores
        changed[4].name = "changed"
        let before = try Self.pages(catalog, "a", since: nil).last.next
        try Self.importList(catalog, "a", changed)
        #expect(try Self.pages(catalog, "a", since: before).changes.map(\.id) == ["s4"])
    }

    @Test("rank assignment keeps the longest run in order and ranks the rest between")
    func ranks() {
        let ranks = RankAssignment.ranks(keeping: [nil, 10, 30, 20, nil, 40], spacing: 8)
        #expect(ranks == ranks.sorted() && Set(ranks).count == 6)
        #expect(ranks[1] == 10 && ranks[5] == 40)
        #expect(RankAssignment.ranks(keeping: [1, nil, 2], spacing: 8) == [1, 2, 3].map { Int64($0) * 8 })
    }
}

/// What a replica holds: each store's rank and record; the list is them
/// in rank order.
struct ModelReplica {
    var entries: [String: (rank: Int64, store: StoreRecord)] = [:]

    mutating func apply(_ changes: [StoreChange]) {
        for change in changes {
            if let rank = change.rank, let store = change.store { entries[change.id] = (rank, store) } else { entries[change.id] = nil }
        }
    }

    var ids: [String] { entries.sorted { ($0.value.rank, $0.key) < ($1.value.rank, $1.key) }.map(\.key) }

    var checksum: String {
        ChangeHash.hex(entries.values.reduce(Int64(0)) { $0 &+ ChangeHash.item(content: ChangeHash.content($1.store), rank: $1.rank) })
    }
}

/// A clock the test moves.
final class VirtualNow: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date
    init(_ start: Date) { value = start }
    var now: Date { lock.withLock { value } }
    func advance(by seconds: TimeInterval) { lock.withLock { value += seconds } }
}
