import Foundation
import TestSupport
import Testing
import TextInput

@testable import StoreCatalog

/// A row longer than the limit fails the file with its line and the limit,
/// in every format, before memory can grow with it.
@Suite("Import row limit")
struct ImportRowLimitTests {
    static let limit = 200

    /// Reads every row of `file`; the error, if any.
    static func readAll(_ file: URL, _ format: ImportFormat, chunkSize: Int) -> ImportFileError? {
        do {
            var reader = try makeStoreRowReader(for: file, format: format, chunkSize: chunkSize, maxRowBytes: limit)
            while try reader.next() != nil {}
            return nil
        } catch {
            return error
        }
    }

    static let long = String(repeating: "x", count: 300)
    static let fits = String(repeating: "y", count: 90)

    /// Each format with a short row, a row that fits, then a long one on line 4.
    static let files: [(ImportFormat, String)] = [
        (.csv, "id,name,latitude,longitude\ns1,A,1,2\ns2,\(fits),1,2\ns3,\(long),1,2\ns4,D,1,2\n"),
        (.tsv, "id\tname\tlatitude\tlongitude\ns1\tA\t1\t2\ns2\t\(fits)\t1\t2\ns3\t\(long)\t1\t2\n"),
        (
            .jsonl,
            """
            {"id":"s1","name":"A","latitude":1,"longitude":2}
            {"id":"s2","name":"\(fits)","latitude":1,"longitude":2}
            {"id":"s3","name":"\(long)","latitude":1,"longitude":2}

            """
        ),
        (
            .json,
            """
            [{"id":"s1","name":"A","latitude":1,"longitude":2},
            {"id":"s2","name":"\(fits)","latitude":1,"longitude":2},
            {"id":"s3","name":"\(long)","latitude":1,"longitude":2}]
            """
        ),
        (
            .geojson,
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[2,1]},"properties":{"id":"s1","name":"A"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[2,1]},"properties":{"id":"s2","name":"\(fits)"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[2,1]},"properties":{"id":"s3","name":"\(long)"}}]}
            """
        ),
    ]

    @Test(
        "a row past the limit fails the file naming its line and the limit; one within it is read",
        arguments: [1, 7, 64])
    func longRowFailsTheFile(chunkSize: Int) throws {
        let directory = try TemporaryDirectory()
        for (format, text) in Self.files {
            // Line numbers: the long row is the 4th line in CSV/TSV (header
            // first), the 3rd elsewhere.
            let longLine = format == .csv || format == .tsv ? 4 : 3
            let file = try directory.write("long.\(format.rawValue)", text)
            let error = Self.readAll(file, format, chunkSize: chunkSize)
            #expect(error?.line == longLine, "\(format), chunk \(chunkSize)")
            #expect(error?.reason.contains("longer than \(Self.limit) bytes") == true, "\(format): \(String(describing: error))")

            // Without the long row, every row is read.
            let short = try directory.write("short.\(format.rawValue)", text.replacingOccurrences(of: Self.long, with: "C"))
            #expect(Self.readAll(short, format, chunkSize: chunkSize) == nil, "\(format), chunk \(chunkSize)")
        }
    }

    @Test("at the default chunk size, a row far past the limit fails the file all the same")
    func longRowFailsAtTheDefaultChunkSize() throws {
        let directory = try TemporaryDirectory()
        let name = String(repeating: "n", count: 3 * ByteReader.defaultChunkSize)
        let file = try directory.write("long.csv", "id,name,latitude,longitude\ns1,A,1,2\ns2,\(name),1,2\n")
        var reader = try makeStoreRowReader(for: file, format: .csv, chunkSize: ByteReader.defaultChunkSize, maxRowBytes: 4096)
        let error = #expect(throws: ImportFileError.self) { while try reader.next() != nil {} }
        #expect(error?.line == 3)
        #expect(error?.reason.contains("longer than 4096 bytes") == true)
    }

    @Test("a file without line breaks (/dev/zero) fails after the limit, in each format")
    func endlessLineStops() throws {
        for format in ImportFormat.allCases {
            let error = Self.readAll(URL(fileURLWithPath: "/dev/zero"), format, chunkSize: 64)
            #expect(error != nil, "\(format)")
            if format == .csv || format == .tsv {
                // NUL bytes are text to CSV: the header line never ends.
                #expect(error?.line == 1)
                #expect(error?.reason.contains("longer than \(Self.limit) bytes") == true)
            }
        }
    }

    @Test("an import of a file with a long row writes nothing and throws the file error")
    func importWithALongRowWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Catalog.inMemory()
        try catalog.importList(named: "kept", from: ArrayRowReader(stores: [Store(id: "k", name: "K", latitude: 0, longitude: 0)]))
        let before = try catalog.dump()
        let file = try directory.write("long.csv", Self.files[0].1)
        let reader = try makeStoreRowReader(for: file, format: .csv, chunkSize: 64, maxRowBytes: Self.limit)

        #expect(throws: ImportFileError.self) {
            try catalog.importList(named: "new", from: reader, options: .init(skipInvalid: true))
        }
        #expect(try catalog.dump() == before)
    }

    @Test("random bytes as JSON Lines stop with too many errors, the report bounded")
    func garbageStopsWithTooManyErrors() throws {
        let directory = try TemporaryDirectory()
        var random = SplitMix64(seed: 22)
        // 1 MiB of bytes, a line break every ~100 on average.
        let bytes = (0..<(1 << 20)).map { _ -> UInt8 in
            let byte = UInt8(truncatingIfNeeded: random.next())
            return byte % 100 == 0 ? 0x0A : byte
        }
        let file = try directory.write("garbage.jsonl", bytes: bytes)
        let catalog = try Catalog.inMemory()

        let error = #expect(throws: CatalogError.self) {
            try catalog.importList(
                named: "bad", from: makeStoreRowReader(for: file, format: .jsonl), options: .init(skipInvalid: true, issueLimit: 10))
        }
        guard case let .rowsRejected(report) = error else {
            Issue.record("expected rowsRejected, got \(String(describing: error))")
            return
        }
        #expect(report.stoppedEarly)
        #expect(report.rejected == 11)
        #expect(report.issues.count == 10)
        #expect(report.issueCountsByKind.values.reduce(0, +) == report.issueCount)
        #expect(try catalog.lists().isEmpty)
    }

    @Test("a listed issue's reason and column are cut to 512 bytes; the count per kind stays bounded")
    func issueLogBoundsItsParts() {
        var log = IssueLog(limit: 2)
        log.add(ImportIssue(line: 1, column: nil, reason: String(repeating: "r", count: 5_000)))
        log.add(ImportIssue(line: 2, column: String(repeating: "c", count: 5_000), reason: "bad"))
        for index in 0..<200 { log.add(ImportIssue(line: 3 + index, column: "column \(index)", reason: "bad")) }

        #expect(log.listed.count == 2)
        #expect(log.listed[0].reason.utf8.count <= IssueLog.maxReasonBytes)
        #expect(log.listed[1].column!.utf8.count <= IssueLog.maxReasonBytes)
        #expect(log.count == 202)
        #expect(log.countsByKind.count == IssueLog.maxKinds + 1)
        #expect(log.countsByKind[ImportIssue.otherKind] == 202 - IssueLog.maxKinds)
        #expect(log.countsByKind[ImportIssue.rowKind] == 1)
    }
}
