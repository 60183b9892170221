import Testing
@testable import StoreCatalog
import TestSupport

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

    @Test("a store already in the catalog and repeated in the file is a duplicate too")
    func duplicateOfAnExistingStoreIsCaught() throws {
        let catalog = try Catalog.inMemory()
        try catalog.importList(named: "first", from: ArrayRowReader(stores: Self.seoul))
        var moved = Self.seoul[2]
        moved.name = "Hongdae moved"

        let report = try catalog.importList(
            named: "second", from: ArrayRowReader([.valid(moved, line: 7), .valid(Self.seoul[2], line: 9)]),
            options: .init(skipInvalid: true))

        #expect(report.issues == [ImportIssue(line: 9, column: "id", reason: "duplicate id 's3' (also on line 7)")])
        #expect(try catalog.store(id: "s3")?.name == "Hongdae moved")
    }

    @Test("re-importing a store updates it everywhere, spatial index included", arguments: Storage.allCases)
    func reimportUpdatesTheStore(storage: Storage) throws {
        let catalog = try TestCatalog(storage).catalog
        try catalog.importList(named: "seoul", from: ArrayRowReader(stores: Self.seoul))
        let busan = Coordinate(latitude: 35.1587, longitude: 129.1604)
        let moved = Store(id: "s1", name: "Haeundae", latitude: busan.latitude, longitude: busan.longitude, phone: "051")

        try catalog.importList(named: "busan", from: ArrayRowReader(stores: [moved]))

        #expect(try catalog.store(id: "s1") == moved)
        #expect(try catalog.store(list: "seoul", at: 0) == moved)
        let nearest = try catalog.nearest(to: busan, limit: 1)
        #expect(nearest.map(\.store.id) == ["s1"])
        #expect(nearest.first?.distanceMeters == 0)
        #expect(try catalog.nearest(to: busan, limit: 1, list: "seoul").map(\.store.id) == ["s1"])
        let index = try catalog.spatialIndexVersusDerived()
        #expect(index.actual == index.derived)
        #expect(index.actual.count == 5)
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

    @Test("replace swaps the list; stores no list holds any more go, shared ones stay", arguments: Storage.allCases)
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

        // Each replace updates every store it keeps (the first one moves
        // s2) and drops s3, then s4: the replaced list always has the
        // highest key, which the new list must not reuse while the old
        // items are still there.
        for (round, stores) in [[Self.seoul[0], moved, Self.seoul[3]], [moved, Self.seoul[0]]].enumerated() {
            let report = try catalog.importList(
                named: "seoul", from: ArrayRowReader(stores: stores), options: .init(replace: true))
            #expect(report.imported == stores.count, "round \(round)")
            #expect(try catalog.stores(list: "seoul") == stores, "round \(round)")
        }

        #expect(try catalog.store(id: "s3") == nil)
        #expect(try catalog.store(id: "s4") == nil)
        #expect(try catalog.store(id: "s1") == Self.seoul[0])  // in both lists
        #expect(try catalog.lists() == [ListSummary(name: "favourites", count: 1), ListSummary(name: "seoul", count: 2)])
        let index = try catalog.spatialIndexVersusDerived()
        #expect(index.actual == index.derived)
        let leftovers = try catalog.read { db in
            try Int.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM list_items WHERE list NOT IN (SELECT key FROM lists))
                     + (SELECT count(*) FROM temp.sqlite_master)
                """)
        }
        #expect(leftovers == 0)
    }

    @Test("a replace that repeats a store it updates names both lines")
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
        #expect(report == ImportReport(list: "empty", imported: 0, rejected: 1, issues: [
            ImportIssue(line: 2, column: "lat", reason: "is not a number"),
        ]))
        #expect(try catalog.lists() == [ListSummary(name: "empty", count: 0)])
        #expect(try catalog.stores(list: "empty").isEmpty)
    }
}
