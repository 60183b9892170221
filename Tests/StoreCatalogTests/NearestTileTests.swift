import Foundation
import GRDB
import TestSupport
import Testing

@testable import StoreCatalog

/// The best-first nearest search over the tile trees (migration 0010):
/// answers equal to the brute-force haversine reference from anywhere,
/// and tiles that follow every write.
@Suite("Nearest tiles")
struct NearestTileTests {
    /// 30,000 places worldwide (poles, antimeridian, dense cities), the 311
    /// Korean places as a small list, a list of one store, an empty list.
    static let fixture = Result {
        let world = try GeoNames.places()
        let korea = try GeoNames.korea()
        let koreaIDs = Set(korea.map(\.id))
        let stores = world.filter { !koreaIDs.contains($0.id) } + korea
        let koreaRange = (stores.count - korea.count)..<stores.count
        let fixture = try QueryTests.Fixture(
            stores: stores,
            lists: ["world": 0..<(stores.count - korea.count), "kr": koreaRange, "one": 123..<124])
        try fixture.catalog.importList(named: "empty", from: ArrayRowReader(stores: []))
        return fixture
    }

    static let everywhere = QueryTests.queryPoints(seed: 2_525, count: 150)

    @Test("nearest k from points uniform over the globe equals the reference, every list", arguments: ["world", "kr", "one", nil])
    func uniformPointsMatchReference(list: String?) throws {
        let fixture = try Self.fixture.get()
        for (index, origin) in Self.everywhere.enumerated() {
            let measured = fixture.measured(from: origin)
            for (limit, within) in [(1, nil), (10, nil), (64, nil), (10, 300_000.0), (200, 2_000_000.0)] as [(Int, Double?)] {
                let found = try fixture.catalog.nearest(to: origin, limit: limit, withinMeters: within, list: list)
                let expected = fixture.bruteNearest(measured, limit: limit, within: within, list: list)
                #expect(found == expected, "point \(index) \(origin), limit \(limit), within \(String(describing: within)), list \(list ?? "-")")
            }
        }
    }

    @Test("from far away, the small list's nearest are its own, read without the other list's tiles")
    func farFromSmallList() throws {
        let fixture = try Self.fixture.get()
        let far = [
            Coordinate(latitude: -33.86, longitude: 151.2), Coordinate(latitude: 40.7, longitude: -74),
            Coordinate(latitude: -37.5, longitude: -52.0), Coordinate(latitude: -90, longitude: 0),
        ]
        for origin in far {
            let found = try fixture.catalog.nearest(to: origin, limit: 10, list: "kr")
            #expect(found == fixture.bruteNearest(fixture.measured(from: origin), limit: 10, within: nil, list: "kr"), "\(origin)")
            #expect(found.count == 10)
        }
        // Each list has a tree of its own: a search of `kr` starts at kr's
        // root, and every tile under it holds kr's stores only.
        let (kr, members) = try fixture.catalog.read { db in
            let kr = try fixture.catalog.listKey("kr", db)
            var members: [(list: Int64, store: Int64)] = []
            try SpatialTiles.forEachTile(db) { list, _, bytes in
                SpatialTiles.forEachMember(bytes) { store, _, _ in members.append((list, store)) }
            }
            let krStores = Set(try Int64.fetchAll(db, sql: "SELECT store FROM spatial_index WHERE list = ?", arguments: [kr]))
            return (krStores, members.filter { $0.list == kr }.map(\.store))
        }
        #expect(members.count == 311 && Set(members) == kr)
    }

    @Test("withinMeters at 0 finds the stores at the very point; past the antipode bounds nothing; empty lists answer nothing")
    func edgesOfTheRadius() throws {
        let fixture = try Self.fixture.get()
        let store = fixture.stores[123]
        let atStore = try fixture.catalog.nearest(to: store.coordinate, limit: 5, withinMeters: 0, list: "one")
        #expect(atStore == [StoreDistance(store: store, distanceMeters: 0)])
        let all = try fixture.catalog.nearest(to: store.coordinate, limit: 5, withinMeters: 0)
        #expect(all == fixture.bruteNearest(fixture.measured(from: store.coordinate), limit: 5, within: 0, list: nil))
        #expect(all.contains(StoreDistance(store: store, distanceMeters: 0)))
        let antipode = Coordinate(latitude: -store.latitude, longitude: store.longitude > 0 ? store.longitude - 180 : store.longitude + 180)
        #expect(try fixture.catalog.nearest(to: antipode, limit: 1, withinMeters: 3e7, list: "one").map(\.store) == [store])
        #expect(try fixture.catalog.nearest(to: antipode, limit: 3, withinMeters: 1_000, list: "one").isEmpty)
        for origin in Self.everywhere.prefix(20) {
            #expect(try fixture.catalog.nearest(to: origin, limit: 10, list: "empty").isEmpty)
        }
    }

    @Test("the tiles follow imports, replacements, moved stores and deleted lists", arguments: Storage.allCases)
    func tilesFollowWrites(storage: Storage) throws {
        let test = try TestCatalog(storage)
        let catalog = test.catalog
        let places = try GeoNames.placesSample(count: 3_000, seed: 77)
        try catalog.importList(named: "a", from: ArrayRowReader(stores: Array(places[0..<2_000])))
        try catalog.importList(named: "b", from: ArrayRowReader(stores: Array(places[1_000..<3_000])))
        try expectTilesMatchIndex(catalog)

        // "b" again, its first 500 stores (whose ids "a" holds too) moved by
        // 7°: "b" gets new tiles, and "a", whose stores are its own (a store
        // belongs to one list), keeps its stores where they were.
        var moved = Array(places[1_000..<3_000])
        for index in 0..<500 {
            moved[index].latitude = max(-90, min(90, moved[index].latitude - 7))
            moved[index].longitude = moved[index].longitude > 173 ? moved[index].longitude - 353 : moved[index].longitude + 7
        }
        try catalog.importList(named: "b", from: ArrayRowReader(stores: moved), options: ImportOptions(replace: true))
        try expectTilesMatchIndex(catalog)
        var current: [Store] = Array(places[0..<2_000]) + moved
        let reference = QueryTests.Fixture.Reference(stores: current)
        for origin in QueryTests.queryPoints(seed: 78, count: 30) {
            #expect(
                try catalog.nearest(to: origin, limit: 10, list: "a")
                    == reference.nearest(from: origin, limit: 10, among: 0..<2_000), "\(origin)")
            #expect(try catalog.nearest(to: origin, limit: 10) == reference.nearest(from: origin, limit: 10, among: 0..<4_000), "\(origin)")
        }

        try catalog.deleteList("b")
        try expectTilesMatchIndex(catalog)
        current = Array(current[0..<2_000])
        let afterDelete = QueryTests.Fixture.Reference(stores: current)
        for origin in QueryTests.queryPoints(seed: 79, count: 10) {
            #expect(try catalog.nearest(to: origin, limit: 10) == afterDelete.nearest(from: origin, limit: 10, among: 0..<2_000))
        }
    }

    /// A city as dense as one of 10⁷ stores: 4,096 stores on a 64 × 64
    /// grid 22 m apart, inside one latitude band. Cut in the index's order
    /// (band, then longitude), each tile was one column of the grid, 1.4 km
    /// tall and 0 m wide; sort-tile-recursive cuts 8 × 8 squares.
    @Test("a dense band is cut into full tiles about as wide as they are tall")
    func denseBandMakesSquareTiles() throws {
        let catalog = try Catalog.inMemory()
        let step = 0.0002, south = 10.000_5  // the band 10°…10° + 1/64°: 0.0126° of stores inside it
        let lngStep = step / cos((south + 32 * step) * .pi / 180)
        var stores: [Store] = []
        for row in 0..<64 {
            for column in 0..<64 {
                stores.append(
                    Store(
                        id: "g\(row)-\(column)", name: "Grid", latitude: south + Double(row) * step,
                        longitude: 20.1 + Double(column) * lngStep))
            }
        }
        #expect(Set(stores.map { SpatialIndex.band(latitude: $0.latitude) }).count == 1)
        try catalog.importList(named: "grid", from: ArrayRowReader(stores: stores))
        try expectTilesMatchIndex(catalog)
        var tiles = 0
        _ = try catalog.read { db in
            try SpatialTiles.forEachTile(db) { _, _, bytes in
                var latitudes: [Double] = [], longitudes: [Double] = []
                SpatialTiles.forEachMember(bytes) { _, latitude, longitude in
                    latitudes.append(latitude)
                    longitudes.append(longitude)
                }
                let tall = latitudes.max()! - latitudes.min()!
                let wide = (longitudes.max()! - longitudes.min()!) / lngStep * step
                #expect(latitudes.count == SpatialTiles.capacity)
                #expect(tall > 0 && wide > 0 && max(tall / wide, wide / tall) <= 1.5, "\(tall)° tall, \(wide)° wide")
                tiles += 1
            }
        }
        #expect(tiles == 64)
        let reference = QueryTests.Fixture.Reference(stores: stores)
        let inside = stride(from: 0, to: stores.count, by: 97).map {
            Coordinate(latitude: stores[$0].latitude + 0.000_07, longitude: stores[$0].longitude - 0.000_03)
        }
        for origin in inside + QueryTests.queryPoints(seed: 81, count: 20, around: Coordinate(latitude: 10.007, longitude: 20.107)) {
            #expect(try catalog.nearest(to: origin, limit: 10) == reference.nearest(from: origin, limit: 10, among: 0..<stores.count))
        }
    }

    /// A row of 300 columns, each with 30 stores, written under a budget of
    /// 200 open members: chunks are cut before they fill, the budget holds,
    /// and every membership still lands in exactly one tile.
    @Test("the tiles' open chunks stay within their budget however many columns a row fills")
    func openChunksStayWithinBudget() throws {
        let catalog = try Catalog.inMemory()
        var members: [SpatialIndex.Entry] = []
        for column in 0..<300 {
            for index in 0..<30 {
                members.append(
                    SpatialIndex.Entry(
                        store: Int64(column * 30 + index + 1), latitude: 45.001 + Double(index) * 0.03,
                        longitude: -150.5 + Double(column)))
            }
        }
        members.sort()
        let mostOpen = try catalog.write { db in
            var writer = try SpatialTiles.Writer(list: 7, openBudget: 200, db)
            for member in members {
                try writer.append(band: member.band, store: member.store, latitude: member.latitude, longitude: member.longitude)
            }
            try writer.finish(db)
            return writer.mostOpen
        }
        #expect(mostOpen == 200)
        let stored = try catalog.read { db in
            var stored: [Int64] = []
            try SpatialTiles.forEachTile(db) { list, _, bytes in
                #expect(list == 7)
                #expect(bytes.count / SpatialTiles.memberSize <= SpatialTiles.capacity)
                SpatialTiles.forEachMember(bytes) { store, _, _ in stored.append(store) }
            }
            return stored
        }
        #expect(stored.sorted() == members.map(\.store).sorted())
    }

    @Test("migrations 0007 and 0010 build the tiles of an existing catalog as the import writes them")
    func migrationBuildsTiles() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("v6.sqlite").path
        let places = try GeoNames.placesSample(count: 2_500, seed: 88)
        do {
            let catalog = try Catalog(path: path)
            try catalog.importList(named: "x", from: ArrayRowReader(stores: Array(places[0..<2_000])))
            try catalog.importList(named: "y", from: ArrayRowReader(stores: Array(places[1_500..<2_500])))
        }
        let imported = try Catalog(path: path).read { db in try tiles(db) }
        // Back to schema 6, the one before the tiles (and before 0008's list
        // versions, 0009's list time zones, 0010's tile trees and 0011's
        // change log), then
        // opened again: 0007 runs on the data and builds its R*Tree, and
        // 0010 replaces it with the trees an import writes.
        try DatabaseQueue(path: path).writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    DROP TABLE tile_nodes; DROP TABLE tile_trees;
                    DROP TABLE change_feeds; DROP TABLE feed_entries; DROP TABLE sync_replicas; DROP TABLE sync_entries; DROP TABLE sync_dirty;
                    DROP TRIGGER list_version_inserted; DROP TRIGGER list_version_renamed; DROP TABLE counters;
                    ALTER TABLE lists DROP COLUMN version; ALTER TABLE lists DROP COLUMN time_zone;
                    PRAGMA user_version = 6
                    """)
        }
        let catalog = try Catalog(path: path)
        try expectTilesMatchIndex(catalog)
        #expect(try catalog.read { db in try tiles(db) } == imported)
        // Each list holds its own copies of the places both hold.
        let reference = QueryTests.Fixture.Reference(stores: Array(places[0..<2_000]) + Array(places[1_500..<2_500]))
        for origin in QueryTests.queryPoints(seed: 89, count: 20) {
            #expect(try catalog.nearest(to: origin, limit: 7) == reference.nearest(from: origin, limit: 7, among: 0..<3_000))
        }
    }

    @Test("a box's first page is the first stores of the whole box, in its order, however large the box")
    func firstPageOfABox() throws {
        let fixture = try Self.fixture.get()
        let boxes = try [
            BoundingBox(south: -90, west: -180, north: 90, east: 180),
            BoundingBox(south: -10, west: 95, north: 55, east: 150),  // Asia
            BoundingBox(south: -50, west: 160, north: 70, east: -160),  // across the antimeridian
            BoundingBox(south: 33, west: 124, north: 39, east: 131),
        ]
        for box in boxes {
            for list in ["world", "kr", "one", "empty", nil] as [String?] {
                let whole = try fixture.catalog.stores(in: box, list: list)
                for limit in [1, 10, 500] {
                    #expect(
                        try fixture.catalog.stores(in: box, list: list, limit: limit) == Array(whole.prefix(limit)),
                        "\(box), list \(list ?? "-"), limit \(limit)")
                }
            }
        }
    }

    @Test("the bounded heap keeps the nearest, ties by key")
    func candidatesKeepTheNearest() {
        var random = SplitMix64(seed: 5)
        let all = (0..<500).map { (store: Int64($0), distance: Double(Int.random(in: 0..<40, using: &random))) }
        for limit in [1, 7, 64, 499, 500, 900] {
            var candidates = NearestCandidates(limit: limit)
            for candidate in all { candidates.insert(store: candidate.store, distance: candidate.distance) }
            var expected = all
            expected.keepNearest(limit) { ($0.distance, $0.store) }
            #expect(candidates.sorted().map(\.store) == expected.map(\.store), "limit \(limit)")
        }
    }

    /// Every tile's (list, box, members) with members sorted: two catalogs
    /// with equal tiles compare equal whatever the keys.
    private func tiles(_ db: Database) throws -> [String] {
        var tiles: [String] = []
        try SpatialTiles.forEachTile(db) { list, box, bytes in
            var members: [String] = []
            SpatialTiles.forEachMember(bytes) { members.append("\($0) \($1) \($2)") }
            tiles.append("\(list) \(box.low) \(box.high) \(members.sorted())")
        }
        return tiles.sorted()
    }

    /// The tiles hold each membership of the spatial index exactly once, at
    /// its coordinates, inside the tile's box, at most 64 to a tile; every
    /// node's box holds its children's; every row of `tile_nodes` is in
    /// exactly one list's tree, within that list's range of keys.
    private func expectTilesMatchIndex(_ catalog: Catalog, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (members, index) = try catalog.read { db in
            var members: [String] = []
            let reached = try SpatialTiles.forEachTile(db) { list, box, bytes in
                #expect(
                    bytes.count % SpatialTiles.memberSize == 0 && bytes.count / SpatialTiles.memberSize <= SpatialTiles.capacity,
                    sourceLocation: sourceLocation)
                SpatialTiles.forEachMember(bytes) { store, latitude, longitude in
                    let v = SpatialTiles.unitVector(latitude: latitude, longitude: longitude)
                    #expect(
                        box.low.x <= v.x && v.x <= box.high.x && box.low.y <= v.y && v.y <= box.high.y
                            && box.low.z <= v.z && v.z <= box.high.z,
                        "store \(store) outside its tile", sourceLocation: sourceLocation)
                    members.append("\(list) \(store) \(latitude) \(longitude)")
                }
            }
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM tile_nodes") == reached, sourceLocation: sourceLocation)
            for tree in try Row.fetchAll(db, sql: "SELECT root, first, last, x_min, y_min, z_min, x_max, y_max, z_max FROM tile_trees") {
                let (root, first, last): (Int64, Int64, Int64) = (tree[0], tree[1], tree[2])
                #expect(first <= root && root <= last, sourceLocation: sourceLocation)
                // The root's box is the union of its children's, and so on down.
                var pending: [(Int64, SpatialTiles.Box)] = [
                    (root, SpatialTiles.Box(low: SIMD3(tree[3], tree[4], tree[5]), high: SIMD3(tree[6], tree[7], tree[8])))
                ]
                while let (key, box) = pending.popLast() {
                    #expect(first <= key && key <= last, sourceLocation: sourceLocation)
                    let bytes = try #require(try Data.fetchOne(db, sql: "SELECT bytes FROM tile_nodes WHERE key = ?", arguments: [key]))
                    var union = SpatialTiles.Box()
                    bytes.withUnsafeBytes { node in
                        SpatialTiles.Node.forEachChild(node) { child, childBox in
                            union.include(childBox)
                            #expect(first <= child && child <= last, sourceLocation: sourceLocation)
                            if node.first == SpatialTiles.Node.nodes { pending.append((child, childBox)) }
                        }
                    }
                    #expect(union == box, sourceLocation: sourceLocation)
                }
            }
            let index = try Row.fetchAll(db, sql: "SELECT list, store, latitude, longitude FROM spatial_index").map {
                "\($0[0] as Int64) \($0[1] as Int64) \($0[2] as Double) \($0[3] as Double)"
            }
            return (members.sorted(), index.sorted())
        }
        #expect(members == index, sourceLocation: sourceLocation)
    }
}

extension QueryTests.Fixture {
    /// A brute-force reference over stores imported in this order (so their
    /// keys follow it): ties by position, as the catalog breaks them by key.
    struct Reference {
        let stores: [Store]

        func nearest(from origin: Coordinate, limit: Int, among range: Range<Int>) -> [StoreDistance] {
            range.map { ($0, Haversine.distance(origin, stores[$0].coordinate)) }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
                .prefix(limit)
                .map { StoreDistance(store: stores[$0.0], distanceMeters: $0.1) }
        }
    }
}
