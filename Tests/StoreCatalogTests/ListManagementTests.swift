import Foundation
import TestSupport
import Testing

@testable import StoreCatalog

/// Renaming and deleting lists, paging a list with a cursor, the catalog at
/// a glance, and names built from columns.
@Suite("List management")
struct ListManagementTests {
    static func store(_ i: Int, attributes: [String: AttributeValue] = [:]) -> Store {
        Store(id: "s\(i)", name: "Store \(i)", latitude: Double(i % 180) - 89.5, longitude: Double(i % 360) - 179.5, attributes: attributes)
    }

    static func catalog(_ lists: [String: Range<Int>]) throws -> Catalog {
        let catalog = try Catalog.inMemory()
        for (name, range) in lists.sorted(by: { $0.key < $1.key }) {
            try catalog.importList(named: name, from: ArrayRowReader(stores: range.map { store($0) }))
        }
        return catalog
    }

    @Test func renameKeepsStoresAndOrderAndRefusesATakenName() throws {
        let catalog = try Self.catalog(["a": 0..<5, "b": 3..<8])
        try catalog.renameList("a", to: "alpha")
        #expect(try catalog.lists() == [ListSummary(name: "alpha", count: 5), ListSummary(name: "b", count: 5)])
        #expect(try catalog.stores(list: "alpha").map(\.id) == ["s0", "s1", "s2", "s3", "s4"])
        #expect(throws: CatalogError.self) { try catalog.renameList("alpha", to: "b") }
        #expect(throws: CatalogError.listNotFound("a")) { try catalog.renameList("a", to: "c") }
        #expect(throws: CatalogError.self) { try catalog.renameList("b", to: "  ") }
    }

    @Test func deleteRemovesTheListsOwnStoresOnly() throws {
        let catalog = try Self.catalog(["a": 0..<5, "b": 3..<8])
        let bBefore = try catalog.stores(list: "b")
        let deleted = try catalog.deleteList("a")
        #expect(deleted == ListDeletion(name: "a", count: 5, removedStores: 5))
        #expect(try catalog.lists() == [ListSummary(name: "b", count: 5)])
        #expect(try catalog.store(id: "s0") == nil)
        #expect(try catalog.store(id: "s3") != nil)
        #expect(try catalog.stores(list: "b") == bBefore)
        #expect(try catalog.info().storeCount == 5)
        // The spatial index forgot the list: a box over the world finds b's five.
        let world = try BoundingBox(south: -90, west: -180, north: 90, east: 180)
        #expect(Set(try catalog.stores(in: world).map(\.id)) == ["s3", "s4", "s5", "s6", "s7"])
        #expect(throws: CatalogError.listNotFound("a")) { try catalog.deleteList("a") }
        // A list of the deleted name can be imported again.
        try catalog.importList(named: "a", from: ArrayRowReader(stores: [Self.store(0)]))
        #expect(try catalog.count(list: "a") == 1)
    }

    @Test func cursorPagesMatchTheWholeList() throws {
        let catalog = try Self.catalog(["a": 0..<300])
        let whole = try catalog.stores(list: "a")
        var seen: [(Int, String)] = []
        try catalog.forEachStore(list: "a", offset: 120, limit: 50) { seen.append(($0, $1.id)) }
        #expect(seen.map(\.0) == Array(120..<170))
        #expect(seen.map(\.1) == whole[120..<170].map(\.id))
        var all = 0
        try catalog.forEachStore(list: "a") { _, _ in all += 1 }
        #expect(all == 300)
        var picked: [String] = []
        try catalog.forEachStore(list: "a", at: [299, 0, 7]) { picked.append($1.id) }
        #expect(picked == ["s299", "s0", "s7"])
        #expect(throws: CatalogError.self) { try catalog.forEachStore(list: "a", at: [300]) { _, _ in } }
        #expect(throws: CatalogError.self) { try catalog.forEachStore(list: "a", offset: -1) { _, _ in } }
    }

    @Test func infoCountsStoresAndLists() throws {
        let catalog = try Self.catalog(["a": 0..<5, "b": 3..<8])
        let info = try catalog.info()
        #expect(info.storeCount == 10)  // s3 and s4 in both lists: a store each
        #expect(info.lists.map(\.name) == ["a", "b"])
        #expect(info.schemaVersion == Migration.latestVersion && info.latestSchemaVersion == Migration.latestVersion)
        #expect(info.databaseBytes > 0)
    }

    @Test func nameFormatParsesColumnsTextAndBraces() throws {
        let format = try NameFormat("{상호명} {{{지점명}}}")
        #expect(format.columns == ["상호명", "지점명"])
        var found = Set<String>()
        let store = Store(id: "1", name: "하늘커피", latitude: 0, longitude: 0, attributes: ["지점명": "강남역점"])
        #expect(format.name(for: store, found: &found) == "하늘커피 {강남역점}")
        #expect(found == ["상호명", "지점명"])
        // A column empty in a row contributes nothing; the result is trimmed.
        var none = Set<String>()
        #expect(try NameFormat("{name} {branch}").name(for: Store(id: "1", name: "A", latitude: 0, longitude: 0), found: &none) == "A")
        for bad in ["{name", "name}", "{}", "plain text", "{a{b}}"] {
            #expect(throws: CatalogError.self, "\(bad)") { try NameFormat(bad) }
        }
    }
}
