import CarouselEngine
import Foundation
import MapSync
import MapSyncSimulation
import StoreCatalog
import TestSupport
import Testing

/// The library's errors speak the library's terms: no command-line flag and
/// no command of the `carousel` tool, which adds its own hints.
@Suite struct LibraryErrorWordingTests {
    /// Every message the library can produce for these errors, from real
    /// failures where they are cheap to cause, else from each case.
    private func messages() throws -> [String] {
        let directory = try TemporaryDirectory("error-wording")
        var errors: [any Error] = []
        func record(_ body: () throws -> Void) {
            do { try body() } catch { errors.append(error) }
        }

        // Catalog: a foreign file, a missing list, a list that exists, rejected rows.
        let foreign = try directory.write("foreign.sqlite", "not a database at all, just text that is long enough")
        record { _ = try Catalog(path: foreign.path) }
        let catalog = try Catalog(path: directory.path("catalog.sqlite").path)
        record { _ = try catalog.count(list: "missing") }
        let good = try directory.write("good.csv", "id,name,latitude,longitude\na,A,37.5,127\n")
        try catalog.importList(named: "seoul", from: makeStoreRowReader(for: good, format: .csv))
        record { try catalog.importList(named: "seoul", from: makeStoreRowReader(for: good, format: .csv)) }
        let bad = try directory.write("bad.csv", "id,name,latitude,longitude\nb,,99,127\n")
        record { try catalog.importList(named: "other", from: makeStoreRowReader(for: bad, format: .csv)) }
        record { _ = try catalog.store(list: "seoul", at: 5) }
        record { _ = try catalog.clusterLeaves(list: "seoul", cluster: 0, limit: 0, offset: -1) }
        record { _ = try Catalog(path: directory.path("no/such/folder/catalog.sqlite").path) }
        errors += [
            CatalogError.newerSchema(path: "x.sqlite", found: 9, known: 2),
            CatalogError.sqlite(code: 13, message: "database or disk is full"),
            CatalogError.cannotOpen(path: "x.sqlite", code: 14, message: "unable to open database file"),
            CatalogError.database("a row went missing"),
        ]

        // Readers: an object where an array belongs, a missing column, a syntax error, no file.
        for (name, text, format) in [
            ("object.json", #"{"type": "FeatureCollection"}"#, ImportFormat.json),
            ("columns.csv", "id,name\na,A\n", .csv),
            ("syntax.json", "[{\"id\" 1}]", .json),
        ] {
            let file = try directory.write(name, text)
            record {
                var reader = try makeStoreRowReader(for: file, format: format); while try reader.next() != nil {}
            }
        }
        record { _ = try makeStoreRowReader(for: directory.path("missing.csv"), format: .csv) }

        // Engine and map sync.
        record { _ = try CarouselLayout(viewport: -1, itemLength: .points(10), dataCount: 1) }
        record { _ = try CarouselScroller(layout: CarouselLayout(viewport: 100, itemLength: .points(10), dataCount: 1), initialIndex: 4) }
        record { _ = try ScrollScript(json: Data(#"{"events": [{"at": -1}]}"#.utf8)) }
        errors += [
            MapSyncError.indexOutOfRange(index: 3, count: 2),
            MapSyncError.layoutCountMismatch(layoutCount: 1, storeCount: 2),
            MapSyncError.nonFiniteOffset(.nan),
        ]
        return errors.map { "\($0)" }
    }

    @Test func libraryErrorMessagesNameNoCommandLineFlagOrCommand() throws {
        let messages = try messages()
        #expect(messages.count >= 20)
        for message in messages {
            #expect(!message.contains("--"), "a flag in: \(message)")
            #expect(!message.contains("`carousel"), "a command in: \(message)")
            #expect(!message.contains("upgrade carousel"), "the tool in: \(message)")
        }
    }

    @Test func sqliteFailuresCarryTheirResultCode() throws {
        let directory = try TemporaryDirectory("error-codes")
        let error = #expect(throws: CatalogError.self) {
            _ = try Catalog(path: directory.path("no/such/folder/catalog.sqlite").path)
        }
        // SQLITE_CANTOPEN is 14; the extended code keeps it in its low byte.
        #expect(error?.sqliteResultCode.map { $0 & 0xFF } == 14)
        #expect(
            CatalogError.sqlite(code: 13, message: "database or disk is full").description
                == "database error (SQLite error 13): database or disk is full")
    }

    @Test func readerErrorsCarryTheirPosition() throws {
        let directory = try TemporaryDirectory("error-positions")
        let file = try directory.write("syntax.json", "[\n  {\"id\" 1}]")
        let error = #expect(throws: ImportFileError.self) {
            var reader = try makeStoreRowReader(for: file, format: .json)
            while try reader.next() != nil {}
        }
        #expect(error?.line == 2)
        #expect(error?.column == 9)
        #expect(error?.description == "\(file.path):2:9: malformed JSON: expected ':' after a member name, found '1'")
    }
}
