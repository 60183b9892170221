import Foundation
import TestSupport
import Testing

@testable import StoreCatalog

/// A list's version (migration 0008): it changes when that list's data
/// does, never when another list's does, and never comes back for a name.
@Suite("List versions")
struct ListVersionTests {
    static func stores(_ id: String) -> ArrayRowReader {
        ArrayRowReader(stores: [Store(id: id, name: id.uppercased(), latitude: 1, longitude: 2)])
    }

    @Test("a list's version moves with its own imports, renames and re-creation only", arguments: Storage.allCases)
    func versionsFollowTheirList(storage: Storage) throws {
        let catalog = try TestCatalog(storage).catalog
        #expect(try catalog.listVersion(named: "a") == nil)
        try catalog.importList(named: "a", from: Self.stores("s1"))
        try catalog.importList(named: "b", from: Self.stores("s1"))
        let a = try #require(try catalog.listVersion(named: "a"))
        let b = try #require(try catalog.listVersion(named: "b"))
        #expect(a != b)

        var seen: Set<Int64> = [a, b]
        try catalog.importList(named: "b", from: Self.stores("s2"), options: ImportOptions(replace: true))
        #expect(try catalog.listVersion(named: "a") == a)
        let replaced = try #require(try catalog.listVersion(named: "b"))
        #expect(!seen.contains(replaced))
        seen.insert(replaced)

        try catalog.renameList("b", to: "c")
        #expect(try catalog.listVersion(named: "b") == nil)
        let renamed = try #require(try catalog.listVersion(named: "c"))
        #expect(!seen.contains(renamed))
        seen.insert(renamed)

        // The list with the highest version deleted, then made again: a
        // new version all the same.
        try catalog.deleteList("c")
        try catalog.importList(named: "c", from: Self.stores("s3"))
        let remade = try #require(try catalog.listVersion(named: "c"))
        #expect(!seen.contains(remade))
        #expect(try catalog.listVersion(named: "a") == a)
    }

    @Test("a catalog from before 0008 gets a distinct version for every list")
    func migratedListsGetVersions() throws {
        let directory = try TemporaryDirectory()
        let copy = directory.path("old.sqlite")
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("catalog-schema1.sqlite"), to: copy)
        let catalog = try Catalog(path: copy.path)
        let seoul = try #require(try catalog.listVersion(named: "seoul"))
        let south = try #require(try catalog.listVersion(named: "south"))
        #expect(seoul > 0 && south > 0 && seoul != south)
        try catalog.importList(named: "new", from: Self.stores("n1"))
        #expect(try catalog.listVersion(named: "new")! > max(seoul, south))
    }
}
