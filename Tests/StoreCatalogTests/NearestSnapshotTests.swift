import Foundation
import TestSupport
import Testing

@testable import StoreCatalog

/// The in-memory nearest search answers exactly what the SQLite one does.
@Suite("Nearest snapshot")
struct NearestSnapshotTests {
    @Test("its answers are the catalog's on the Korean places, limits and radii mixed", arguments: [UInt64(51), 52])
    func answersAsTheCatalogInKorea(seed: UInt64) throws {
        let fixture = try QueryTests.korea.get()
        let snapshot = try #require(try fixture.catalog.nearestSnapshot(maxEntries: .max) { $0 })
        #expect(snapshot.count == 311)
        let points =
            QueryTests.queryPoints(seed: seed, count: 60, around: Coordinate(latitude: 36.5, longitude: 127.8))
            + QueryTests.queryPoints(seed: seed, count: 20)
        for (index, origin) in points.enumerated() {
            for (limit, within, list) in [
                (1, nil, nil), (10, nil, "kr"), (50, nil, nil), (10, 20_000.0, nil), (400, 150_000.0, "kr"), (5, 0.0, nil),
            ] as [(Int, Double?, String?)] {
                let expected = try fixture.catalog.nearest(to: origin, limit: limit, withinMeters: within, list: list)
                let found = try snapshot.nearest(to: origin, limit: limit, withinMeters: within, list: list)
                    .map { StoreDistance(store: $0.element, distanceMeters: $0.distanceMeters) }
                #expect(found == expected, "seed \(seed), point \(index) \(origin), limit \(limit), within \(String(describing: within))")
            }
        }
    }

    @Test("its answers are the catalog's worldwide, poles, antimeridian and lists included", arguments: [UInt64(61), 62])
    func answersAsTheCatalogWorldwide(seed: UInt64) throws {
        let fixture = try QueryTests.world.get()
        let snapshot = try #require(try fixture.catalog.nearestSnapshot(maxEntries: .max) { $0 })
        for (index, origin) in QueryTests.queryPoints(seed: seed, count: 40).enumerated() {
            for (limit, within, list) in [
                (10, nil, nil), (1, nil, "west"), (25, 500_000.0, nil), (10, nil, "east"), (3, 50_000.0, "west"),
                (1000, 2_000_000.0, "east"), (7, 25_000_000.0, nil),
            ] as [(Int, Double?, String?)] {
                let expected = try fixture.catalog.nearest(to: origin, limit: limit, withinMeters: within, list: list)
                let found = try snapshot.nearest(to: origin, limit: limit, withinMeters: within, list: list)
                    .map { StoreDistance(store: $0.element, distanceMeters: $0.distanceMeters) }
                #expect(found == expected, "seed \(seed), point \(index) \(origin), limit \(limit), list \(list ?? "-")")
            }
        }
    }

    @Test("stores at one place are ordered as the catalog orders ties, and a limit cuts through them")
    func tiesAreOrderedAsTheCatalogOrdersThem() throws {
        let catalog = try Catalog.inMemory()
        // 30 stores on one spot, 30 a metre east, imported in shuffled order.
        var random = SplitMix64(seed: 7)
        let stores = (0..<60).map { index in
            Store(id: "s\(index)", name: "S\(index)", latitude: 37.5, longitude: index < 30 ? 127.0 : 127.000_011_3)
        }.shuffled(using: &random)
        try catalog.importList(named: "ties", from: ArrayRowReader(stores: stores))
        let snapshot = try #require(try catalog.nearestSnapshot(maxEntries: 120) { $0.id })
        for limit in [1, 10, 29, 30, 31, 45, 60, 61] {
            for origin in [Coordinate(latitude: 37.5, longitude: 127.0), Coordinate(latitude: 37.5, longitude: 127.000_005_65)] {
                let expected = try catalog.nearest(to: origin, limit: limit).map(\.store.id)
                #expect(try snapshot.nearest(to: origin, limit: limit).map(\.element) == expected, "limit \(limit), \(origin)")
            }
        }
    }

    @Test("bad arguments are the catalog's errors; a catalog over the size asked for is not held")
    func errorsAndSize() throws {
        let fixture = try QueryTests.korea.get()
        #expect(try fixture.catalog.nearestSnapshot(maxEntries: 621) { $0 } == nil)  // 311 stores + 311 items
        let snapshot = try #require(try fixture.catalog.nearestSnapshot(maxEntries: 622) { $0 })
        let origin = Coordinate(latitude: 37.5, longitude: 127)
        for (limit, within, list) in [(0, nil, nil), (10, -1.0, nil), (10, .nan, nil), (10, nil, "nowhere")] as [(Int, Double?, String?)] {
            let expected = #expect(throws: CatalogError.self) {
                try fixture.catalog.nearest(to: origin, limit: limit, withinMeters: within, list: list)
            }
            let found = #expect(throws: CatalogError.self) {
                try snapshot.nearest(to: origin, limit: limit, withinMeters: within, list: list)
            }
            #expect(found?.localizedDescription == expected?.localizedDescription)
        }
        #expect(throws: CatalogError.self) { try snapshot.nearest(to: Coordinate(latitude: 91, longitude: 0)) }
        #expect(
            try snapshot.nearest(to: origin, limit: 7, withinMeters: .infinity).map(\.element)
                == fixture.catalog.nearest(to: origin, limit: 7).map(\.store))
    }

    @Test("the data version moves when another connection commits, and only then")
    func dataVersionMovesOnOtherConnectionsCommits() throws {
        let directory = try TemporaryDirectory("nearest-snapshot")
        let path = directory.path("catalog.sqlite").path
        let writer = try Catalog(path: path)
        let watcher = try Catalog(path: path, access: .read)
        let before = try watcher.dataVersion()
        #expect(try watcher.dataVersion() == before)
        try writer.importList(named: "one", from: ArrayRowReader(stores: [Store(id: "a", name: "A", latitude: 1, longitude: 2)]))
        let after = try watcher.dataVersion()
        #expect(after != before)
        #expect(try watcher.dataVersion() == after)
        let snapshot = try #require(try watcher.nearestSnapshot(maxEntries: 10) { $0.id })
        #expect(try snapshot.nearest(to: Coordinate(latitude: 0, longitude: 0), list: "one").map(\.element) == ["a"])
    }
}
