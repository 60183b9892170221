import Foundation
import TestSupport
import Testing

@testable import StoreCatalog

/// Attribute values keep their types through an import and back out of the
/// catalog: JSON values as given, CSV columns typed over the whole column.
@Suite("Attribute types")
struct AttributeTypeTests {
    /// Imports `text` as `format` into a fresh catalog; returns the catalog,
    /// the report and the list's stores by id.
    static func imported(
        _ text: String, as format: ImportFormat, options: ImportOptions = ImportOptions(),
        pipeline: RowPipeline.Shape = .standard
    ) throws -> (catalog: Catalog, report: ImportReport, stores: [String: Store], directory: TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let file = try directory.write("input.\(format.rawValue)", text)
        let catalog = try Catalog(path: directory.path("catalog.sqlite").path)
        let report = try catalog.importList(
            named: "l", from: makeStoreRowReader(for: file, format: format), options: options, pipeline: pipeline)
        let stores = Dictionary(uniqueKeysWithValues: try catalog.stores(list: "l").map { ($0.id, $0) })
        return (catalog, report, stores, directory)
    }

    static let code23 = "12345678901234567890123"

    @Test("JSON, JSON Lines and GeoJSON values come back exactly as given")
    func jsonValuesKeepTheirTypes() throws {
        let members =
            #""open":true,"closed":false,"none":null,"code":\#(Self.code23),"price":4.50,"big":1E5,"#
            + #""zip":"02134","empty":"","spaced":"  x  ","tags":["wifi",2,[true]],"schedule":{"mo":"9-5","n":-0}"#
        let expected: [String: AttributeValue] = [
            "open": true, "closed": false, "none": .null, "code": .number(.init(Self.code23)!),
            "price": .number(.init("4.50")!), "big": .number(.init("1E5")!), "zip": "02134", "empty": "", "spaced": "  x  ",
            "tags": .array(["wifi", 2, .array([true])]), "schedule": .object(["mo": "9-5", "n": .number(.init("-0")!)]),
        ]
        let json = try Self.imported(#"[{"id":"a","name":"A","lat":1,"lng":2,\#(members)}]"#, as: .json)
        #expect(json.stores["a"]?.attributes == expected)
        let lines = try Self.imported(#"{"id":"a","name":"A","lat":1,"lng":2,\#(members)}"# + "\n", as: .jsonl)
        #expect(lines.stores["a"]?.attributes == expected)
        let geo = try Self.imported(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[2,1]},"properties":{"name":"A",\#(members)}}]}"#,
            as: .geojson)
        #expect(geo.stores["a"]?.attributes == expected)
        // The stored column is the values' JSON, numbers as written.
        let stored = try json.catalog.database.read { db in try String.fetchOne(db, sql: "SELECT attributes FROM stores") }
        #expect(stored?.contains(#""code":\#(Self.code23)"#) == true)
        #expect(stored?.contains(#""price":4.50"#) == true)
    }

    @Test("a CSV column is typed over the whole column, in any batch shape")
    func csvColumnsAreTypedWhole() throws {
        let csv = """
            id,name,lat,lng,seats,rating,zip,flag,mixed,loud,code,note
            a,A,1,2,33,4.5,02134,true,1,TRUE,\(Self.code23),x
            b,B,1,2,-7,4,12345,false,7A,False,1,
            c,C,1,2,,1e5,99999,,2,true,0,y

            """
        for shape in [RowPipeline.Shape.standard, RowPipeline.Shape(batchRows: 1, queuedBatches: 1)] {
            let result = try Self.imported(csv, as: .csv, pipeline: shape)
            #expect(
                result.report.columnTypes == [
                    "seats": .integer, "rating": .number, "zip": .text, "flag": .boolean, "mixed": .text,
                    "loud": .boolean, "code": .integer, "note": .text,
                ])
            #expect(
                result.stores["a"]?.attributes == [
                    "seats": 33, "rating": .number(.init("4.5")!), "zip": "02134", "flag": true, "mixed": "1",
                    "loud": true, "code": .number(.init(Self.code23)!), "note": "x",
                ])
            // `7A` keeps the column text: `1` and `2` stay strings, as written.
            #expect(result.stores["b"]?.attributes["mixed"] == "7A")
            #expect(result.stores["c"]?.attributes["mixed"] == "2")
            #expect(result.stores["b"]?.attributes["zip"] == "12345")
            #expect(result.stores["b"]?.attributes["loud"] == false)
            // An empty cell is no value.
            #expect(result.stores["c"]?.attributes["seats"] == nil)
            #expect(result.stores["c"]?.attributes["rating"] == .number(.init("1e5")!))
        }
    }

    @Test("a forced type converts a column, and a value that does not fit is a row issue")
    func forcedTypes() throws {
        let csv = "id,name,lat,lng,zip,n,ok\na,A,1,2,12345,1,yes\nb,B,1,2,02134,x,TRUE\n"
        let rejected = #expect(throws: CatalogError.self) {
            try Self.imported(csv, as: .csv, options: ImportOptions(columnTypes: ["ZIP": .text, "n": .integer, "ok": .boolean]))
        }
        guard case let .rowsRejected(report)? = rejected else { return }
        #expect(
            report.issues == [
                ImportIssue(line: 2, column: "ok", reason: "not true or false: 'yes' (the column's type is boolean)"),
                ImportIssue(
                    line: 3, column: "n",
                    reason: "not an integer (digits, optionally after '-', no leading zero): 'x' (the column's type is integer)"),
            ])

        let skipped = try Self.imported(
            csv, as: .csv, options: ImportOptions(skipInvalid: true, columnTypes: ["zip": .text, "n": .number]))
        #expect(skipped.stores["a"]?.attributes == ["zip": "12345", "n": 1, "ok": "yes"])
        #expect(skipped.stores["b"] == nil)
        #expect(skipped.report.columnTypes["zip"] == .text)

        // JSON values are converted too: a number forced to text keeps its digits.
        let json = try Self.imported(
            #"[{"id":"a","name":"A","lat":1,"lng":2,"zip":2134,"n":"12","b":"False"}]"#, as: .json,
            options: ImportOptions(columnTypes: ["zip": .text, "n": .integer, "b": .boolean]))
        #expect(json.stores["a"]?.attributes == ["zip": "2134", "n": 12, "b": false])

        // A forced column the file does not have is a mistake, not a no-op.
        #expect(throws: CatalogError.invalidArgument("no attribute column 'zipcode' in the file to give a type")) {
            try Self.imported(csv, as: .csv, options: ImportOptions(columnTypes: ["zipcode": .text]))
        }
    }

    @Test("invalid opening hours or an unknown zone is a row issue with its line and column")
    func hoursAndZonesAreChecked() throws {
        let csv = """
            id,name,lat,lng,opening_hours,timezone
            a,A,1,2,Mo-Fr 09:00-18:00,Asia/Seoul
            b,B,1,2,Mo-Fr 25:00-18:00,Asia/Seoul
            c,C,1,2,24/7,Mars/Olympus
            d,D,1,2,,

            """
        let rejected = #expect(throws: CatalogError.self) { try Self.imported(csv, as: .csv) }
        guard case let .rowsRejected(report)? = rejected else { return }
        #expect(report.imported == 0)
        #expect(report.issues.map(\.line) == [3, 4])
        #expect(report.issues.map(\.column) == ["opening_hours", "timezone"])
        #expect(report.issues[0].reason.hasPrefix("invalid opening hours at character "))
        #expect(
            report.issues[1].reason
                == "unknown time zone 'Mars/Olympus': give an IANA name such as Asia/Seoul or Europe/Paris")

        let skipped = try Self.imported(csv, as: .csv, options: ImportOptions(skipInvalid: true))
        #expect(skipped.stores.keys.sorted() == ["a", "d"])
        // The aliases are checked alike, in JSON too.
        let json = #expect(throws: CatalogError.self) {
            try Self.imported(#"{"id":"a","name":"A","lat":1,"lng":2,"영업시간":"Mo-Xx 09:00-10:00"}"# + "\n", as: .jsonl)
        }
        if case let .rowsRejected(report)? = json { #expect(report.issues.map(\.column) == ["영업시간"]) }
    }

    @Test("the list's time zone is checked, stored, and read by open-at for stores without their own")
    func listTimeZone() throws {
        let csv = """
            id,name,lat,lng,hours,timezone
            seoul,S,37.5,127,Mo-Su 09:00-18:00,
            paris,P,48.8,2.3,Mo-Su 09:00-18:00,Europe/Paris

            """
        #expect(throws: CatalogError.invalidArgument(ScheduleColumns.unknownZone("Asia/Nowhere"))) {
            try Self.imported(csv, as: .csv, options: ImportOptions(timeZone: "Asia/Nowhere"))
        }
        let withZone = try Self.imported(csv, as: .csv, options: ImportOptions(timeZone: "Asia/Seoul"))
        #expect(try withZone.catalog.timeZone(list: "l") == "Asia/Seoul")
        // 10:00 in Seoul is 02:00 in Paris (CET, UTC+1 in November).
        let tenInSeoul = try #require(StoreSearch.instant(parsing: "2026-11-24T10:00:00+09:00"))
        let open = try withZone.catalog.search(StoreSearch(list: "l", openAt: tenInSeoul))
        #expect(open.hits.map(\.store.id) == ["seoul"])
        let tenInParis = try #require(StoreSearch.instant(parsing: "2026-11-24T10:00:00+01:00"))
        #expect(try withZone.catalog.search(StoreSearch(list: "l", openAt: tenInParis)).hits.map(\.store.id) == ["paris"])

        // Without a list zone, a store without its own never matches.
        let without = try Self.imported(csv, as: .csv)
        #expect(try without.catalog.timeZone(list: "l") == nil)
        #expect(try without.catalog.search(StoreSearch(list: "l", openAt: tenInSeoul)).hits.isEmpty)
        #expect(throws: CatalogError.listNotFound("nope")) { try without.catalog.timeZone(list: "nope") }
    }

    @Test("where filters compare by the attribute's type")
    func whereFiltersAreTyped() throws {
        let json = #"""
            [{"id":"a","name":"A","lat":1,"lng":2,"rating":4.50,"open":true,"tags":["wifi","park"],"code":\#(Self.code23),"none":null,"zip":"02134"},
             {"id":"b","name":"B","lat":1,"lng":2,"rating":"4.5","open":"TRUE","tags":"wifi","code":12345678901234567890124,"zip":2134}]
            """#
        let result = try Self.imported(json, as: .json)
        func ids(_ name: String, _ value: String) throws -> [String] {
            try result.catalog.search(StoreSearch(list: "l", attributes: [.init(name: name, value: value)])).hits.map(\.store.id)
        }
        #expect(try ids("rating", "4.5") == ["a", "b"])  // 4.50 the number, "4.5" the string
        #expect(try ids("rating", "45e-1") == ["a"])
        #expect(try ids("rating", "4.50") == ["a"])
        #expect(try ids("open", "true") == ["a"])
        #expect(try ids("open", "TRUE") == ["a", "b"])
        #expect(try ids("tags", "wifi") == ["a", "b"])
        #expect(try ids("tags", #"["wifi","park"]"#) == ["a"])
        #expect(try ids("code", Self.code23) == ["a"])
        #expect(try ids("none", "") == ["a"])
        #expect(try ids("zip", "02134") == ["a"])
        #expect(try ids("zip", "2134") == ["b"])
    }

    @Test("numbers normalise exactly for comparison")
    func numberNormalisation() throws {
        func same(_ left: String, _ right: String) -> Bool {
            StoreSearch.AttributeFilter(name: "n", value: right).matches(.number(.init(left)!))
        }
        #expect(same("100", "1e2"))
        #expect(same("0.0", "-0"))
        #expect(same("1.250", "125e-2"))
        #expect(!same("1", "1.0000000000000000000001"))
        #expect(!same("1", "x"))
        #expect(!same("1e9223372036854775807", "1e9223372036854775806"))
        #expect(AttributeValue.Number("+1") == nil && AttributeValue.Number("007") == nil && AttributeValue.Number("1.") == nil)
        #expect(AttributeValue.Number("-0.5E+3")?.isInteger == false)
    }

    @Test("stored attributes decode whatever JSON the column holds, and refuse what is not an object")
    func storedAttributesRoundTrip() throws {
        let value: [String: AttributeValue] = [
            "s": "a \"quoted\" \\ line\n", "n": .number(.init(Self.code23)!), "b": false, "z": .null,
            "a": .array([]), "o": .object([:]), "deep": .array([.object(["k": .array([1, "é"])])]),
        ]
        let text = try #require(AttributesJSON.encode(value))
        #expect(try AttributesJSON.decode(text) == value)
        #expect(try AttributesJSON.decode(#" { "x" : [ 1 , { } ] , "y" : "z" } "#) == ["x": .array([1, .object([:])]), "y": "z"])
        for bad in [#"{"x":01}"#, #"{"x":tru}"#, #"["x"]"#, #"{"x":1,}"#, #"{"x":"a"} x"#, "{\"x\":" + String(repeating: "[", count: 600)] {
            #expect(throws: CatalogError.self) { try AttributesJSON.decode(bad) }
        }
    }

    @Test("a catalog of the previous schema migrates: its text values stay strings, its lists have no zone")
    func previousSchemaMigrates() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.sqlite").path
        do {
            // A schema-8 catalog is today's without `lists.time_zone`, with
            // 0007's R*Tree where 0010's tile trees are (left empty here:
            // 0010 builds the trees from spatial_index), its attributes
            // objects of strings (what schema 8 wrote).
            let catalog = try Catalog(path: path)
            try catalog.importList(
                named: "old",
                from: ArrayRowReader(stores: [
                    Store(id: "a", name: "A", latitude: 1, longitude: 2, attributes: ["seats": "12", "open": "true", "zip": "02134"])
                ]))
            try catalog.execute("ALTER TABLE lists DROP COLUMN time_zone")
            try catalog.execute(
                """
                DROP TABLE tile_nodes; DROP TABLE tile_trees;
                DROP TABLE change_feeds; DROP TABLE feed_entries; DROP TABLE sync_replicas; DROP TABLE sync_entries; DROP TABLE sync_dirty;
                CREATE VIRTUAL TABLE spatial_tiles USING rtree(
                    id, list_min, list_max, x_min, x_max, y_min, y_max, z_min, z_max, +list INTEGER, +members BLOB)
                """)
            try catalog.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 8") }
            let stored = try catalog.database.read { db in try String.fetchOne(db, sql: "SELECT attributes FROM stores") }
            #expect(stored == #"{"open":"true","seats":"12","zip":"02134"}"#)
        }
        let migrated = try Catalog(path: path)
        #expect(try migrated.database.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == Migration.latestVersion)
        #expect(try migrated.store(list: "old", id: "a")?.attributes == ["seats": "12", "open": "true", "zip": "02134"])
        #expect(try migrated.timeZone(list: "old") == nil)
        #expect(try migrated.nearest(to: Coordinate(latitude: 0, longitude: 0), limit: 1).map(\.store.id) == ["a"])
        // New imports into the migrated catalog are typed.
        let directory2 = try TemporaryDirectory()
        let file = try directory2.write("n.csv", "id,name,lat,lng,seats\nb,B,1,2,12\n")
        try migrated.importList(named: "new", from: makeStoreRowReader(for: file, format: .csv), options: ImportOptions(timeZone: "Asia/Seoul"))
        #expect(try migrated.store(list: "new", id: "b")?.attributes == ["seats": 12])
        #expect(try migrated.timeZone(list: "new") == "Asia/Seoul")
    }
}
