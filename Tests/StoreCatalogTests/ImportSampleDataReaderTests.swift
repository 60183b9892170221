import Foundation
import StoreCatalog
import TestSupport
import Testing

@Suite("Sample data")
struct ImportSampleDataReaderTests {
    @Test func csvAndGeoJSONSamplesHoldTheSameStores() throws {
        let csv = try readRows(Paths.sampleData.appendingPathComponent("seoul-coffee.csv"), as: .csv)
        let geojson = try readRows(Paths.sampleData.appendingPathComponent("seoul-coffee.geojson"), as: .geojson)
        #expect(csv.issues.isEmpty && geojson.issues.isEmpty)
        #expect(csv.stores.count >= 40)
        // The CSV reader gives text; the import types the column (`seats`,
        // integers), as GeoJSON's numbers already are.
        func typed(_ stores: [Store]) -> [Store] {
            stores.map { store in
                var store = store
                store.attributes = store.attributes.mapValues { value in
                    value.stringValue.flatMap(AttributeValue.Number.init).map(AttributeValue.number) ?? value
                }
                return store
            }
        }
        #expect(typed(csv.stores) == geojson.stores)
    }

    @Test func sampleStoresAreInSeoulWithTheirExtraColumn() throws {
        let stores = try readRows(Paths.sampleData.appendingPathComponent("seoul-coffee.csv"), as: .csv).stores
        #expect(Set(stores.map(\.id)).count == stores.count)
        for store in stores {
            #expect((37.45...37.70).contains(store.latitude), "\(store.id)")
            #expect((126.80...127.18).contains(store.longitude), "\(store.id)")
            #expect(store.address != nil && store.category != nil && store.phone != nil, "\(store.id)")
            #expect(Array(store.attributes.keys) == ["seats"], "\(store.id)")
        }
        // At least one quoted field with a comma, read back whole.
        #expect(stores.contains { $0.address?.contains(", ") == true })
    }
}
