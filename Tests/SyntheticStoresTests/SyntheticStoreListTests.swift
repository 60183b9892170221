import Foundation
import StoreCatalog
import SyntheticStores
import TestSupport
import Testing

@Suite("Synthetic store lists")
struct SyntheticStoreListTests {
    /// The whole CSV a list streams, as one byte array.
    private func bytes(_ list: SyntheticStoreList) -> [UInt8] {
        var all: [UInt8] = []
        list.write { all.append(contentsOf: $0) }
        return all
    }

    @Test func theSameSeedGivesTheSameFileByteForByte() throws {
        let first = bytes(try SyntheticStoreList(count: 2_000, seed: 7))
        let again = bytes(try SyntheticStoreList(count: 2_000, seed: 7))
        let other = bytes(try SyntheticStoreList(count: 2_000, seed: 8))
        #expect(first == again)
        #expect(first != other)
        // A longer list of the same seed starts with the shorter one.
        let longer = bytes(try SyntheticStoreList(count: 2_500, seed: 7))
        #expect(Array(longer.prefix(first.count)) == first)
    }

    @Test func writingToAFileGivesTheStreamedBytes() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("stores.csv")
        let list = try SyntheticStoreList(count: 50_000, seed: 3)
        try list.write(toFile: file.path)
        // 50,000 rows are several 64 KiB chunks: the boundaries lose nothing.
        #expect(Array(try Data(contentsOf: file)) == bytes(list))
    }

    @Test func everyRowImportsAsAValidStoreWithItsAttributes() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("stores.csv")
        let list = try SyntheticStoreList(count: 3_000, seed: 11)
        try list.write(toFile: file.path)
        let catalog = try Catalog.inMemory()
        let report = try catalog.importList(named: "synthetic", from: try makeStoreRowReader(for: file, format: .csv))
        #expect(report.imported == 3_000)
        #expect(report.rejected == 0)

        let stores = try catalog.stores(list: "synthetic")
        #expect(stores.first?.id == "S000000001")
        #expect(stores.last?.id == "S000003000")
        #expect(stores.allSatisfy { $0.address?.contains(", ") == true && $0.category != nil })
        #expect(stores.contains { $0.attributes["opening_hours"] != nil })
        #expect(stores.contains { $0.attributes["rating"] != nil })
        #expect(stores.contains { $0.phone == nil } && stores.contains { $0.phone != nil })
        // Clustered: most stores lie within half a degree of one of the cities.
        let seoul = Coordinate(latitude: 37.57, longitude: 126.98)
        let nearSeoul = try catalog.nearest(to: seoul, limit: 3_000, withinMeters: 50_000)
        #expect(nearSeoul.count > 3_000 / 100)
    }

    @Test func scatteredIdsAreUniqueAndOutOfOrder() throws {
        let list = try SyntheticStoreList(count: 20_000, seed: 5, attributes: false, idOrder: .scattered)
        let text = String(decoding: bytes(list), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.first == "id,name,latitude,longitude,address,category,phone")
        let ids = lines.dropFirst().map { $0.prefix { $0 != "," } }
        #expect(ids.count == 20_000)
        #expect(Set(ids).count == 20_000)
        #expect(ids.allSatisfy { $0.count == 10 && $0.first == "S" })
        #expect(ids != ids.sorted())
    }

    @Test func countsOutsideTheIdRangeAreRefused() {
        #expect(throws: SyntheticStoresError.self) { try SyntheticStoreList(count: -1, seed: 1) }
        #expect(throws: SyntheticStoresError.self) {
            try SyntheticStoreList(count: SyntheticStoreList.maximumCount + 1, seed: 1)
        }
    }
}
