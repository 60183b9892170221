import Foundation
import StoreCatalog
import TestSupport
import Testing
import TextInput

// Helpers shared by the *FormatTests suites: write an input, read it whole.

/// Every row of `url`, in file order.
func readRows(
    _ url: URL,
    as format: ImportFormat,
    chunkSize: Int = ByteReader.defaultChunkSize
) throws -> [ImportRow] {
    var reader = try makeStoreRowReader(for: url, format: format, chunkSize: chunkSize)
    var rows: [ImportRow] = []
    while let row = try reader.next() { rows.append(row) }
    return rows
}

/// Every row of a file holding `bytes`.
func readRows(
    bytes: [UInt8],
    as format: ImportFormat = .csv,
    chunkSize: Int = ByteReader.defaultChunkSize
) throws -> [ImportRow] {
    let directory = try TemporaryDirectory()
    let file = try directory.write("input.\(format.rawValue)", bytes: bytes)
    return try readRows(file, as: format, chunkSize: chunkSize)
}

/// Every row of a file holding `text` (UTF-8).
func readRows(
    _ text: String,
    as format: ImportFormat = .csv,
    chunkSize: Int = ByteReader.defaultChunkSize
) throws -> [ImportRow] {
    try readRows(bytes: Array(text.utf8), as: format, chunkSize: chunkSize)
}

/// The file-level error reading `text` throws, if any.
func fileError(_ text: String, as format: ImportFormat = .csv) -> ImportFileError? {
    fileError(bytes: Array(text.utf8), as: format)
}

func fileError(bytes: [UInt8], as format: ImportFormat = .csv) -> ImportFileError? {
    do {
        _ = try readRows(bytes: bytes, as: format)
        return nil
    } catch let error as ImportFileError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

extension [ImportRow] {
    /// The stores of the valid rows.
    var stores: [Store] {
        compactMap { row -> Store? in
            if case .valid(let store, _) = row { store } else { nil }
        }
    }

    /// The issues of the invalid rows, in order.
    var issues: [ImportIssue] {
        flatMap { row -> [ImportIssue] in
            if case .invalid(let issues) = row { issues } else { [] }
        }
    }

    /// The line of each row: a valid row's, or an invalid row's first issue's.
    var lines: [Int] {
        map {
            switch $0 {
            case .valid(_, let line): line
            case .invalid(let issues): issues[0].line
            }
        }
    }
}

@Suite("Store row reader factory")
struct ImportRowReaderTests {
    @Test func formatFollowsTheFileExtension() {
        #expect(ImportFormat(path: "a/b.CSV") == .csv)
        #expect(ImportFormat(path: "b.tab") == .tsv)
        #expect(ImportFormat(path: "b.ndjson") == .jsonl)
        #expect(ImportFormat(path: "b.geojson") == .geojson)
        #expect(ImportFormat(path: "b.txt") == nil)
    }

    @Test(arguments: ImportFormat.allCases)
    func missingFileIsAFileErrorNamingThePath(format: ImportFormat) throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path("nowhere.\(format.rawValue)")
        #expect {
            _ = try makeStoreRowReader(for: missing, format: format)
        } throws: { error in
            let error = try #require(error as? ImportFileError)
            return error.path == missing.path && error.description.contains("No such file")
        }
    }

    @Test(arguments: ImportFormat.allCases)
    func emptyFileIsAFileError(format: ImportFormat) throws {
        let error = try #require(fileError("", as: format))
        #expect(error.reason.hasPrefix("empty file"))
        #expect(error.line == nil)
    }

    @Test func aDirectoryIsAFileError() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: ImportFileError.self) {
            _ = try readRows(directory.url, as: .csv)
        }
    }
}
