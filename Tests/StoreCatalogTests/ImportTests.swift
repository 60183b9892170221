import TestSupport
import Testing

@testable import StoreCatalog

@Suite("Import rules")
struct ImportTests {
    static let seoul = [
        Store(id: "s1", name: "Gangnam", latitude: 37.4979, longitude: 127.0276, category: "cafe"),
        Store(id: "s2", name: "jamsil", latitude: 37.5133, longitude: 127.1001, attributes: ["floor": "2"]),
        Store(id: "s3", name: "Hongdae", latitude: 37.5563, longitude: 126.9236, phone: "02-123"),
        Store(id: "s4", name: "Itaewon", latitude: 37.5345, longitude: 126.9946, address: "Itaewon-ro"),
    ]

    static func invalid(line: Int, column: String, reason: String = "is not a number") -> ImportRow {
        .invalid([ImportIssue(line: line, column: column, reason: reason)])
    }

    @Test("a valid file becomes a list in file order, every field kept", arguments: Storage.allCases)
    func importsAListInFileOrder(storage: Storage) throws {
        let catalog = try TestCatalog(storage).catalog

        let report = try catalog.importList(named: "seoul", from: ArrayRowReader(stores: Self.seoul))

        #expect(report == ImportReport(list: "seoul", imported: 4, rejected: 0, issues: []))
        #expect(try catalog.stores(list: "seoul") == Self.seoul)
        #expect(try catalog.lists() == [ListSummary(name: "seoul", count: 4)])
        let index = try catalog.spatialIndexVersusDerived()
        #expect(index.actual == index.derived)
    }

    @Test("by default one bad row means nothing is written, every issue reported", arguments: Storage.allCases)
    func invalidRowsRejectTheWholeFile(storage: Storage) throws {
        let catalog = try TestCatalog(storage).catalog
        try catalog.importList(named: "before", from: ArrayRowReader(stores: [Self.seoul[0]]))
        let before = try catalog.dump()
        let rows: [ImportRow] = [
            .valid(Self.seoul[1], line: 2),
            Self.invalid(line: 3, column: "latitude"),
            .valid(Self.seoul[2], line: 4),
            .invalid([
                ImportIssue(line: 5, column: "name", reason: "is empty"),
                ImportIssue(line: 5, column: "longitude", reason: "is out of range"),
            ]),
        ]

        let error = #expect(throws: CatalogError.self) {
            try catalog.importList(named: "new", from: ArrayRowReader(rows))
        }

        guard case let .rowsRejected(report) = error else {
            Issue.record("expected rowsRejected, got \(String(describing: error))")
            return
        }
        #expect(report.imported == 0)
        #expect(report.rejected == 2)
        #expect(report.issues.map(\.line) == [3, 5, 5])
        #expect(error?.description == "nothing imported into 'new': 2 invalid rows")
        #expect(try catalog.dump() == before)
    }

    @Test("--skip-invalid imports the valid rows and reports the others", arguments: Storage.allCases)
    func skipInvalidKeepsTheValidRows(storage: Storage) throws {
        let catalog = try TestCatalog(storage).catalog
        let rows: [ImportRow] = [
            .valid(Self.seoul[0], line: 2), Self.invalid(line: 3, column: "id", reason: "is empty"),
            .valid(Self.seoul[1], line: 4),
        ]

        let report = try catalog.importList(named: "seoul", from: ArrayRowReader(rows), options: .init(skipInvalid: true))

        #expect(report.imported == 2)
        #expect(report.rejected == 1)
        #expect(report.issues == [ImportIssue(line: 3, column: "id", reason: "is empty")])
        #expect(try catalog.stores(list: "seoul").map(\.id) == ["s1", "s2"])
    }

    @Test("an id repeated in the file is an error naming both lines")
    func duplicateIdsNameBothLines() throws {
        let catalog = try Catalog.inMemory()
        var twin = Self.seoul[0]
        twin.name = "Gangnam again"
        let rows: [ImportRow] = [
            .valid(Self.seoul[0], line: 2), .valid(Self.seoul[1], line: 3), .valid(twin, line: 12),
        ]

        let error = #expect(throws: CatalogError.self) { try catalog.importList(named: "l", from: ArrayRowReader(rows)) }
        guard case let .rowsRejected(report) = error else {
            Issue.record("expected rowsRejected, got \(String(describing: error))")
            return
        }
        #expect(report.issues == [ImportIssue(line: 12, column: "id", reason: "duplicate id 's1' (also on line 2)")])
        #expect(try catalog.store(id: "s1") == nil)

        // Skipping, the first one wins and the repeat is reported.
        let skipped = try catalog.importList(named: "l", from: ArrayRowReader(rows), options: .init(skipInvalid: true))
        #expect(skipped.rejected == 1)
        #expect(try catalog.store(id: "s1")?.name == "Gangnam")
    }

    @Test("an id another list holds is a new store of this list; repeated in the file it is a duplicate")
    func idOfAnotherListIsANewStore() throws {
        let catalog = try Catalog.inMemory()
        try catalog.importList(named: "first", from: ArrayRowReader(stores: Self.seoul))
        var moved = Self.seoul[2]
        moved.name = "Hongdae moved"

        let report = try catalog.importList(
            named: "second", from: ArrayRowReader([.valid(moved, line: 7), .valid(Self.seoul[2], line: 9)]),
            options: .init(skipInvalid: true))

        #expect(report.issues == [ImportIssue(line: 9, column: "id", reason: "duplicate id 's3' (also on line 7)")])
        #expect(try catalog.store(list: "second", id: "s3")?.name == "Hongdae moved")
        #expect(try catalog.store(list: "first", id: "s3") == Self.seoul[2])
        // store(id:) is the one imported first.
        #expect(try catalog.store(id: "s3") == Self.seoul[2])
    }

    /// The issue's a.csv / b.csv: list b reuses a's id "s1" with other data.
    static let original = Store(id: "s1", name: "Original Store", latitude: 37.5, longitude: 127.0, phone: "02-111")
    static let hijacked = Store(id: "s1", name: "Hijacked", latitude: 1.0, longitude: 2.0)

    @Test(
        "two lists hold the same id with different data; importing, replacing or deleting one never changes the other",
        arguments: Storage.allCases)
    func sameIdInTwoListsStaysApart(storage: Storage) throws {
        let catalog = try TestCatalog(storage).catalog
        try catalog.importList(named: "a", from: ArrayRowReader(stores: [Self.original]))
        let a = try catalog.dump(list: "a")

        try catalog.importList(named: "b", from: ArrayRowReader(stores: [Self.hijacked]))

        #expect(try catalog.stores(list: "a") == [Self.original])
        #expect(try catalog.stores(list: "b") == [Self.hijacked])
        #expect(try catalog.store(list: "a", id: "s1") == Self.original)
        #expect(try catalog.store(list: "b", id: "s1") == Self.hijacked)
        #expect(try catalog.position(ofStore: "s1", inList: "b") == 0)
        #expect(try catalog.info().storeCount == 2)
        #expect(try catalog.dump(list: "a") == a)
        // Each list's queries see its own copy, at its own place.
        let nearOriginal = Coordinate(latitude: 37.5, longitude: 127.0)
        #expect(try catalog.nearest(to: nearOriginal, limit: 1, list: "a").map(\.distanceMeters) == [0])
        #expect(try catalog.nearest(to: nearOriginal, limit: 1, list: "b").first?.store == Self.hijacked)
        #expect(try catalog.nearest(to: nearOriginal, limit: 2).map(\.store) == [Self.original, Self.hijacked])
        let world = try BoundingBox(south: -90, west: -180, north: 90, east: 180)
        #expect(try catalog.stores(in: world, list: "a") == [Self.original])
        #expect(Set(try catalog.stores(in: world).map(\.name)) == ["Original Store", "Hijacked"])

        // Replacing b, then deleting it, leaves a as it was.
        var moved = Self.hijacked
        moved.latitude = -10
        try catalog.importList(named: "b", from: ArrayRowReader(stores: [moved]), options: .init(replace: true))
        #expect(try catalog.stores(list: "b") == [moved])
        #expect(try catalog.dump(list: "a") == a)
        #expect(try catalog.deleteList("b") == ListDeletion(name: "b", count: 1, removedStores: 1))
        #expect(try catalog.dump(list: "a") == a)
        let index = try catalog.spatialIndexVersusDerived()
        #expect(index.actual == index.derived)
        #expect(index.actual.count == 1)
    }

    @Test("importing into an existing list without replace is refused, nothing changed")
    func existingListNeedsReplace() throws {
        let catalog = try Catalog.inMemory()
        try catalog.importList(named: "seoul", from: ArrayRowReader(stores: Self.seoul))
        let before = try catalog.dump()

        let error = #expect(throws: CatalogError.self) {
            try catalog.importList(named: "seoul", from: ArrayRowReader(stores: [Self.seoul[0]]))
        }

        #expect(error == .listExists("seoul"))
        #expect(error?.description == "a list named 'seoul' already exists")
        #expect(try catalog.dump() == before)
    }

    @Test("replace swaps the list and its stores; another list's stores of the same ids stay", arguments: Storage.allCases)
    func replaceSwapsTheList(storage: Storage) throws {
        let catalog = try TestCatalog(storage).catalog
        try catalog.importList(named: "seoul", from: ArrayRowReader(stores: Self.seoul))
        try catalog.importList(named: "favourites", from: ArrayRowReader(stores: [Self.seoul[3]]))
        let newcomer = Store(id: "s9", name: "Seongsu", latitude: 37.5445, longitude: 127.0557)

        let report = try catalog.importList(
            named: "seoul", from: ArrayRowReader(stores: [newcomer, Self.seoul[1]]), options: .init(replace: true))

        #expect(report.imported == 2)
        #expect(try catalog.stores(list: "seoul").map(\.id) == ["s9", "s2"])
        #expect(try catalog.store(id: "s1") == nil)  // in no list any more
        #expect(try catalog.store(id: "s3") == nil)
        #expect(try catalog.store(id: "s4") == Self.seoul[3])  // still a favourite
        #expect(try catalog.lists() == [ListSummary(name: "favourites", count: 1), ListSummary(name: "seoul", count: 2)])
        #expect(try catalog.info().storeCount == 3)
        let index = try catalog.spatialIndexVersusDerived()
        #expect(index.actual == index.derived)
    }

    @Test("replacing a list again and again leaves no stray item, index entry or bookkeeping", arguments: Storage.allCases)
    func repeatedReplacesLeaveNothingBehind(storage: Storage) throws {
        let catalog = try TestCatalog(storage).catalog
        try catalog.importList(named: "favourites", from: ArrayRowReader(stores: [Self.seoul[0]]))
        try catalog.importList(named: "seoul", from: ArrayRowReader(stores: Self.seoul))
        var moved = Self.seoul[1]
        moved.latitude += 1

        // Each replace writes the list's stores anew (the first one moves
        // s2) and drops s3, then s4; favourites' s1 is its own store. The
        // replaced list always has the highest key, which the new list
        // must not reuse.
        for (round, stores) in [[Self.seoul[0], moved, Self.seoul[3]], [moved, Self.seoul[0]]].enumerated() {
            let report = try catalog.importList(
                named: "seoul", from: ArrayRowReader(stores: stores), options: .init(replace: true))
            #expect(report.imported == stores.count, "round \(round)")
            #expect(try catalog.stores(list: "seoul") == stores, "round \(round)")
        }

        #expect(try catalog.store(id: "s3") == nil)
        #expect(try catalog.store(id: "s4") == nil)
        #expect(try catalog.store(id: "s1") == Self.seoul[0])  // in both lists, a store each
        #expect(try catalog.info().storeCount == 3)
        #expect(try catalog.lists() == [ListSummary(name: "favourites", count: 1), ListSummary(name: "seoul", count: 2)])
        let index = try catalog.spatialIndexVersusDerived()
        #expect(index.actual == index.derived)
        let leftovers = try catalog.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT (SELECT count(*) FROM list_items WHERE list NOT IN (SELECT key FROM lists))
                         + (SELECT count(*) FROM temp.sqlite_master)
                    """)
        }
        #expect(leftovers == 0)
    }

    @Test("a replace that repeats an id names both lines")
    func duplicateInAReplaceNamesBothLines() throws {
        let catalog = try Catalog.inMemory()
        try catalog.importList(named: "seoul", from: ArrayRowReader(stores: Self.seoul))
        let before = try catalog.dump()
        let rows: [ImportRow] = [.valid(Self.seoul[2], line: 2), .valid(Self.seoul[0], line: 3), .valid(Self.seoul[2], line: 4)]

        let error = #expect(throws: CatalogError.self) {
            try catalog.importList(named: "seoul", from: ArrayRowReader(rows), options: .init(replace: true))
        }

        guard case let .rowsRejected(report) = error else {
            Issue.record("expected rowsRejected, got \(String(describing: error))")
            return
        }
        #expect(report.issues == [ImportIssue(line: 4, column: "id", reason: "duplicate id 's3' (also on line 2)")])
        #expect(try catalog.dump() == before)
    }

    @Test("a replace that fails leaves the old list exactly as it was", arguments: Storage.allCases)
    func failedReplaceLeavesTheOldList(storage: Storage) throws {
        let catalog = try TestCatalog(storage).catalog
        try catalog.importList(named: "seoul", from: ArrayRowReader(stores: Self.seoul))
        let before = try catalog.dump()

        #expect(throws: CatalogError.self) {
            try catalog.importList(
                named: "seoul", from: ArrayRowReader([.valid(Self.seoul[0], line: 2), Self.invalid(line: 3, column: "x")]),
                options: .init(replace: true))
        }

        #expect(try catalog.dump() == before)
    }

    @Test("a reader failing mid-file rolls everything back")
    func readerFailureRollsBack() throws {
        let catalog = try Catalog.inMemory()
        try catalog.importList(named: "kept", from: ArrayRowReader(stores: [Self.seoul[0]]))
        let before = try catalog.dump()
        var reader = ArrayRowReader(stores: Self.seoul)
        let failure = ImportFileError(path: "stores.csv", line: 4, reason: "unterminated quote")
        reader.failure = (2, failure)

        #expect(throws: failure) { try catalog.importList(named: "new", from: reader, options: .init(skipInvalid: true)) }

        #expect(try catalog.dump() == before)
    }

    @Test("order by name: ASCII case-insensitive, ties in file order")
    func orderByName() throws {
        let catalog = try Catalog.inMemory()
        let stores = ["banana", "Apple", "cherry", "apple", "Banana"].enumerated().map { index, name in
            Store(id: "id\(index)", name: name, latitude: 0, longitude: Double(index))
        }

        try catalog.importList(named: "fruit", from: ArrayRowReader(stores: stores), options: .init(order: .name))

        // NOCASE ties are broken by the exact name (uppercase first), then file order.
        #expect(try catalog.stores(list: "fruit").map(\.name) == ["Apple", "apple", "Banana", "banana", "cherry"])
    }

    @Test("order by distance: nearest to the point first", arguments: [UInt64(1), 2, 3])
    func orderByDistance(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let catalog = try Catalog.inMemory()
        let stores = (0..<200).map { index in
            Store(
                id: "r\(index)", name: "R\(index)",
                latitude: .random(in: -90...90, using: &random), longitude: .random(in: -180...180, using: &random))
        }
        let origin = Coordinate(latitude: .random(in: -90...90, using: &random), longitude: .random(in: -180...180, using: &random))

        try catalog.importList(named: "r", from: ArrayRowReader(stores: stores), options: .init(order: .distance(from: origin)))

        let distances = try catalog.stores(list: "r").map { Haversine.distance(origin, $0.coordinate) }
        #expect(distances.count == 200, "seed \(seed)")
        #expect(distances == distances.sorted(), "seed \(seed)")
    }

    @Test("a blank list name is refused")
    func blankListNameIsRefused() throws {
        let catalog = try Catalog.inMemory()
        #expect(throws: CatalogError.self) { try catalog.importList(named: "  ", from: ArrayRowReader(stores: Self.seoul)) }
    }

    @Test("--skip-invalid with no valid row makes an empty list")
    func skipInvalidWithNothingValid() throws {
        let catalog = try Catalog.inMemory()
        let report = try catalog.importList(
            named: "empty", from: ArrayRowReader([Self.invalid(line: 2, column: "lat")]), options: .init(skipInvalid: true))
        #expect(
            report
                == ImportReport(
                    list: "empty", imported: 0, rejected: 1,
                    issues: [
                        ImportIssue(line: 2, column: "lat", reason: "is not a number")
                    ]))
        #expect(try catalog.lists() == [ListSummary(name: "empty", count: 0)])
        #expect(try catalog.stores(list: "empty").isEmpty)
    }
}
