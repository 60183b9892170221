import Foundation
import TestSupport
import Testing

@_spi(Reference) @testable import StoreCatalog

/// Queries checked against a brute-force haversine reference on the real
/// GeoNames data.
@Suite("Queries")
struct QueryTests {
    /// The 311 Korean places in one list.
    static let korea = Result { try Fixture(stores: GeoNames.korea(), lists: ["kr": 0..<311]) }
    /// 20,000 places sampled worldwide (seed 20_000), in two overlapping lists.
    static let world = Result {
        try Fixture(stores: GeoNames.placesSample(count: 20_000, seed: 20_000), lists: ["west": 0..<12_000, "east": 8_000..<20_000])
    }

    struct Fixture: Sendable {
        let catalog: Catalog
        let stores: [Store]
        let lists: [String: Range<Int>]
        /// Every list's stores, each list its own copies (a store belongs to
        /// one list: overlapping lists hold the overlap twice), in the
        /// order the catalog keys them: lists imported by name, then file
        /// order.
        let entries: [(store: Store, list: String)]

        init(stores: [Store], lists: [String: Range<Int>]) throws {
            catalog = try Catalog.inMemory()
            self.stores = stores
            self.lists = lists
            var entries: [(store: Store, list: String)] = []
            for (name, range) in lists.sorted(by: { $0.key < $1.key }) {
                try catalog.importList(named: name, from: ArrayRowReader(stores: Array(stores[range])))
                entries += stores[range].map { ($0, name) }
            }
            self.entries = entries
        }

        /// Every store of every list measured from `origin`, sorted by
        /// (distance, key): the reference for all searches from that point.
        func measured(from origin: Coordinate) -> [(index: Int, distance: Double)] {
            entries.enumerated().map { ($0, Haversine.distance(origin, $1.store.coordinate)) }
                .sorted { ($0.distance, $0.index) < ($1.distance, $1.index) }
        }

        /// The reference answer, from ``measured(from:)``.
        func bruteNearest(
            _ measured: [(index: Int, distance: Double)], limit: Int, within: Double?, list: String?
        ) -> [StoreDistance] {
            measured.lazy
                .filter { list == nil || entries[$0.index].list == list }
                .prefix { $0.distance <= within ?? .infinity }
                .prefix(limit)
                .map { StoreDistance(store: entries[$0.index].store, distanceMeters: $0.distance) }
        }
    }

    /// Query points: uniform over the sphere, plus the hard places — near
    /// the poles and on both sides of the antimeridian.
    static func queryPoints(seed: UInt64, count: Int, around center: Coordinate? = nil) -> [Coordinate] {
        var random = SplitMix64(seed: seed)
        var points = (0..<count).map { _ in
            if let center {
                return Coordinate(
                    latitude: center.latitude + .random(in: -3...3, using: &random),
                    longitude: center.longitude + .random(in: -3...3, using: &random))
            }
            return Coordinate(
                latitude: asin(.random(in: -1...1, using: &random)) * 180 / .pi,
                longitude: .random(in: -180...180, using: &random))
        }
        points += [
            Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 45),
            Coordinate(latitude: 89.95, longitude: 179.99), Coordinate(latitude: -89.9, longitude: -120),
            Coordinate(latitude: -17.8, longitude: 179.99), Coordinate(latitude: -17.8, longitude: -179.99),
            Coordinate(latitude: 65.0, longitude: 180), Coordinate(latitude: 52.0, longitude: -180),
            Coordinate(latitude: 0, longitude: 0),
        ]
        return points
    }

    @Test("nearest k on the Korean places equals the brute-force reference", arguments: [UInt64(11), 12])
    func nearestMatchesBruteForceInKorea(seed: UInt64) throws {
        let fixture = try Self.korea.get()
        let points =
            Self.queryPoints(seed: seed, count: 60, around: Coordinate(latitude: 36.5, longitude: 127.8))
            + Self.queryPoints(seed: seed, count: 20)
        for (index, origin) in points.enumerated() {
            let measured = fixture.measured(from: origin)
            for (limit, within) in [(1, nil), (10, nil), (50, nil), (10, 20_000.0), (400, 150_000.0)] as [(Int, Double?)] {
                let found = try fixture.catalog.nearest(to: origin, limit: limit, withinMeters: within)
                let expected = fixture.bruteNearest(measured, limit: limit, within: within, list: nil)
                #expect(found == expected, "seed \(seed), point \(index) \(origin), limit \(limit), within \(String(describing: within))")
            }
        }
    }

    @Test("nearest k worldwide, poles and antimeridian included, equals the reference", arguments: [UInt64(21), 22])
    func nearestMatchesBruteForceWorldwide(seed: UInt64) throws {
        let fixture = try Self.world.get()
        for (index, origin) in Self.queryPoints(seed: seed, count: 40).enumerated() {
            let measured = fixture.measured(from: origin)
            for (limit, within, list) in [
                (10, nil, nil), (1, nil, "west"), (25, 500_000.0, nil), (10, nil, "east"), (3, 50_000.0, "west"),
            ] as [(Int, Double?, String?)] {
                let found = try fixture.catalog.nearest(to: origin, limit: limit, withinMeters: within, list: list)
                let expected = fixture.bruteNearest(measured, limit: limit, within: within, list: list)
                #expect(found == expected, "seed \(seed), point \(index) \(origin), limit \(limit), list \(list ?? "-")")
            }
        }
    }

    @Test("the full-scan nearest agrees with the indexed one")
    func fullScanAgreesWithIndex() throws {
        let fixture = try Self.world.get()
        for origin in Self.queryPoints(seed: 31, count: 10) {
            #expect(
                try fixture.catalog.nearestByFullScan(to: origin, limit: 10)
                    == fixture.catalog.nearest(to: origin, limit: 10), "seed 31, \(origin)")
            #expect(
                try fixture.catalog.nearestByFullScan(to: origin, limit: 5, withinMeters: 800_000, list: "east")
                    == fixture.catalog.nearest(to: origin, limit: 5, withinMeters: 800_000, list: "east"), "seed 31, \(origin)")
        }
    }

    @Test("bounding boxes, antimeridian and poles included, return exactly the stores inside", arguments: [UInt64(41), 42])
    func boundingBoxMatchesBruteForce(seed: UInt64) throws {
        let fixture = try Self.world.get()
        var random = SplitMix64(seed: seed)
        var boxes = try (0..<60).map { _ in
            let south = Double.random(in: -90...89, using: &random)
            let north = min(90, south + .random(in: 0...Double.random(in: 0.1...40, using: &random), using: &random))
            let west = Double.random(in: -180...180, using: &random)
            var east = west + .random(in: 0...Double.random(in: 0.1...120, using: &random), using: &random)
            if east > 180 { east -= 360 }  // crosses the antimeridian
            return try BoundingBox(south: south, west: west, north: north, east: east)
        }
        boxes += [
            try BoundingBox(south: -90, west: -180, north: 90, east: 180),
            try BoundingBox(south: -25, west: 170, north: -10, east: -170),  // Fiji, Tonga
            try BoundingBox(south: 60, west: 179, north: 90, east: -179),
        ]
        for (index, box) in boxes.enumerated() {
            for list in [nil, "west"] as [String?] {
                // Each list's copy of a store in two lists is found once.
                let candidates = fixture.entries.filter { list == nil || $0.list == list }.map(\.store)
                let expected = candidates.filter { box.contains($0.coordinate) }.map(\.id).sorted()
                let found = try fixture.catalog.stores(in: box, list: list).map(\.id)
                #expect(found.sorted() == expected, "seed \(seed), box \(index) \(box), list \(list ?? "-")")
            }
        }
    }

    @Test("a store at a list position, its location, and the count")
    func positionLookups() throws {
        let fixture = try Self.world.get()
        let catalog = fixture.catalog
        #expect(try catalog.count(list: "east") == 12_000)
        for position in [0, 1, 5_000, 11_999] {
            let store = fixture.stores[8_000 + position]
            #expect(try catalog.store(list: "east", at: position) == store)
            #expect(
                try catalog.location(list: "east", at: position)
                    == StorePin(id: store.id, latitude: store.latitude, longitude: store.longitude))
        }
        #expect(throws: CatalogError.positionOutOfRange(list: "east", position: 12_000, count: 12_000)) {
            try catalog.store(list: "east", at: 12_000)
        }
        #expect(throws: CatalogError.positionOutOfRange(list: "east", position: -1, count: 12_000)) {
            try catalog.location(list: "east", at: -1)
        }
        #expect(throws: CatalogError.listNotFound("nowhere")) { try catalog.store(list: "nowhere", at: 0) }
        #expect(throws: CatalogError.listNotFound("nowhere")) { try catalog.count(list: "nowhere") }
        #expect(throws: CatalogError.listNotFound("nowhere")) {
            try catalog.nearest(to: Coordinate(latitude: 0, longitude: 0), list: "nowhere")
        }
    }

    @Test("bad query arguments are clear errors")
    func badArgumentsAreRefused() throws {
        let catalog = try Self.korea.get().catalog
        let seoul = Coordinate(latitude: 37.5, longitude: 127)
        #expect(throws: CatalogError.self) { try catalog.nearest(to: seoul, limit: 0) }
        #expect(throws: CatalogError.self) { try catalog.nearest(to: seoul, withinMeters: -1) }
        #expect(throws: CatalogError.self) { try catalog.nearest(to: Coordinate(latitude: 91, longitude: 0)) }
        #expect(throws: GeoError.self) { try BoundingBox(south: 10, west: 0, north: 5, east: 1) }
        #expect(throws: GeoError.self) { try BoundingBox(south: 0, west: 0, north: 5, east: .nan) }
        #expect(try catalog.nearest(to: seoul, limit: 5, withinMeters: 0).isEmpty)
        #expect(throws: CatalogError.self) { try catalog.nearest(to: seoul, withinMeters: .nan) }
        // A radius past the antipode, infinity included, bounds nothing.
        #expect(try catalog.nearest(to: seoul, limit: 5, withinMeters: .infinity) == catalog.nearest(to: seoul, limit: 5))
        #expect(try catalog.nearest(to: seoul, limit: 5, withinMeters: 1e300) == catalog.nearest(to: seoul, limit: 5))
    }

    @Test("spatial and position queries search indexes; no statement scans a table")
    func queriesUseIndexes() throws {
        // A catalog of its own: the statement trace records everything run on
        // the connection, and the shared fixtures serve tests running in
        // parallel (a concurrent full-scan reference would be recorded too).
        let catalog = try Fixture(
            stores: GeoNames.placesSample(count: 2_000, seed: 2_000), lists: ["west": 0..<1_200, "east": 800..<2_000]
        ).catalog
        let origin = Coordinate(latitude: 48.85, longitude: 2.35)
        let statements = try catalog.statements {
            _ = try catalog.nearest(to: origin, limit: 10)
            _ = try catalog.nearest(to: origin, limit: 10, withinMeters: 100_000, list: "west")
            _ = try catalog.stores(in: BoundingBox(south: 48.8, west: 2.2, north: 48.9, east: 2.5), list: "east")
            _ = try catalog.store(list: "west", at: 3)
            _ = try catalog.location(list: "west", at: 3)
            _ = try catalog.count(list: "west")
            _ = try catalog.store(id: "gn12")
            _ = try catalog.store(list: "west", id: "gn12")
        }
        let distinct = Array(Set(statements.filter { $0.hasPrefix("SELECT") })).sorted()
        #expect(distinct.count >= 6)
        #expect(distinct.contains { $0.contains("tile_nodes") })
        for sql in distinct {
            let plan = try catalog.queryPlan(sql)
            if sql.contains("FROM tile_trees") && !sql.contains("WHERE") {
                // The nearest stores of every list start at every list's
                // root: one row per list, read whole.
                #expect(plan.contains("SCAN tile_trees"), "\(sql)\n\(plan)")
                continue
            }
            #expect(!plan.contains("SCAN"), "\(sql)\n\(plan)")
            #expect(plan.contains("SEARCH"), "\(sql)\n\(plan)")
        }
        let spatial = try #require(distinct.first { $0.contains("spatial_index") && !$0.contains("s.id = ?2") })
        #expect(try catalog.queryPlan(spatial).contains("USING PRIMARY KEY (band=? AND longitude>? AND longitude<?)"))
        // A list's store by id is one seek on the unique (list, id) index,
        // not a walk of the list's items (2.4 ms a lookup at 234,908).
        let byID = try #require(distinct.first { $0.contains("s.id = ?2") })
        #expect(try catalog.queryPlan(byID).contains("USING INDEX sqlite_autoindex_stores_1 (list=? AND id=?)"))
    }
}
