import Clustering
import Foundation
import GRDB
import Testing

@testable import StoreCatalog

/// The stored cluster index: the same answers as clustering in memory, and
/// dropped by any change to its list, whoever makes it.
@Suite struct ClusterIndexStorageTests {
    static func stores() throws -> [Store] { try GeoNames.korea() }

    static func importKorea(_ catalog: Catalog, as list: String = "kr", replace: Bool = false) throws {
        _ = try catalog.importList(
            named: list, from: ArrayRowReader(stores: try stores()), options: ImportOptions(replace: replace))
    }

    static func storedIndexes(_ catalog: Catalog) throws -> Int {
        try catalog.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM cluster_indexes")! }
    }

    static func storedParts(_ catalog: Catalog) throws -> Int {
        try catalog.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM cluster_parts")! }
    }

    @Test(arguments: Storage.allCases)
    func storedAnswersEqualTheInMemoryIndex(_ storage: Storage) throws {
        let test = try TestCatalog(storage)
        try Self.importKorea(test.catalog)
        let stores = try Self.stores()
        let index = try ClusterIndex(points: stores.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) })
        let box = try BoundingBox(south: 33, west: 124, north: 39, east: 131)
        for zoom in [0.0, 4, 6.5, 9, 12, 17, 20] {
            for selected in [nil, 0, 150] as [Int?] {
                let expected = try index.markers(in: box, zoom: zoom, selected: selected)
                let stored = try test.catalog.clusters(list: "kr", zoom: zoom, box: box, selected: selected)
                #expect(stored.count == expected.count, "zoom \(zoom)")
                for (mine, theirs) in zip(stored, expected) {
                    switch (mine, theirs) {
                    case let (.cluster(a), .cluster(b)): #expect(a == b)
                    case let (.store(position, store), .point(i)):
                        #expect(position == i)
                        #expect(store.id == stores[i].id)
                    default: Issue.record("zoom \(zoom): \(mine) vs \(theirs)")
                    }
                }
            }
        }
        let top = try #require(try index.clusters(in: .world, zoom: 3).compactMap(\.cluster).first)
        let leaves = try test.catalog.clusterLeaves(list: "kr", cluster: top.id, limit: 5, offset: 2)
        #expect(leaves.map { if case let .store(i, _) = $0 { i } else { -1 } } == (try index.leaves(of: top.id, limit: 5, offset: 2)))
        #expect(try test.catalog.unclusterZoom(list: "kr", position: 7) == (try index.unclusterZoom(ofPoint: 7)))
        #expect(throws: ClusterError.unknownCluster(1)) { try test.catalog.clusterLeaves(list: "kr", cluster: 1) }
        #expect(try Self.storedIndexes(test.catalog) == 1)
    }

    @Test func anyChangeToTheListDropsItsIndex() throws {
        let test = try TestCatalog(.file)
        let catalog = test.catalog
        let box = BoundingBox.world
        try Self.importKorea(catalog)
        try Self.importKorea(catalog, as: "other")
        func build() throws {
            _ = try catalog.clusters(list: "kr", zoom: 5, box: box)
            _ = try catalog.clusters(list: "other", zoom: 5, box: box)
            #expect(try Self.storedIndexes(catalog) == 2)
        }
        try build()
        // A replace makes a new list: the old one's index goes with it.
        try Self.importKorea(catalog, replace: true)
        #expect(try Self.storedIndexes(catalog) == 1)
        try build()
        // Changes by any code, straight in SQL: rename, an item moved, a
        // store moved, an item deleted, the list deleted.
        let changes = [
            "UPDATE lists SET name = 'renamed' WHERE name = 'kr'",
            "UPDATE list_items SET position = position + 1000 WHERE position = 0 AND list = (SELECT key FROM lists WHERE name = 'kr')",
            """
            UPDATE spatial_index SET latitude = latitude + 0.001
            WHERE store = (SELECT min(store) FROM spatial_index WHERE list = (SELECT key FROM lists WHERE name = 'kr'))
              AND list = (SELECT key FROM lists WHERE name = 'kr')
            """,
            "DELETE FROM list_items WHERE position = 5 AND list = (SELECT key FROM lists WHERE name = 'kr')",
            "DELETE FROM lists WHERE name = 'kr'",
        ]
        for sql in changes {
            try catalog.write { db in try db.execute(sql: sql) }
            #expect(try Self.storedIndexes(catalog) == 1, "\(sql)")
            try catalog.write { db in
                try db.execute(sql: "UPDATE lists SET name = 'kr' WHERE name = 'renamed'")
            }
            if try catalog.lists().contains(where: { $0.name == "kr" }) {
                _ = try catalog.clusters(list: "kr", zoom: 5, box: box)
                #expect(try Self.storedIndexes(catalog) == 2)
            }
        }
        #expect(
            try catalog.read { db in
                try Int.fetchOne(db, sql: "SELECT count(DISTINCT list) FROM cluster_parts")!
            } == 1)
    }

    /// No trigger watches inserts (they would cost every imported row): an
    /// added item changes the count, and the index is rebuilt.
    @Test func anAddedItemMakesTheNextQueryRebuild() throws {
        let test = try TestCatalog(.file)
        try Self.importKorea(test.catalog)
        let before = try test.catalog.clusters(list: "kr", zoom: 17, box: .world)
        #expect(before.count == 311)
        try test.catalog.write { db in
            try db.execute(
                sql: """
                    INSERT INTO list_items (list, position, store)
                    SELECT list, 311, store FROM list_items WHERE position = 0
                    """)
        }
        let after = try test.catalog.clusters(list: "kr", zoom: 17, box: .world)
        #expect(after.count == 312)
    }
}
