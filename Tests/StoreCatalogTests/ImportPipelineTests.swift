import Locks
import TestSupport
import Testing

@testable import StoreCatalog

/// The two-thread import (rows read on one thread, written on the other)
/// gives what reading and writing row by row would: same report, issues in
/// file order, same database; and the reading thread stays a bounded
/// distance ahead.
@Suite("Import pipeline")
struct ImportPipelineTests {
    static let shapes: [RowPipeline.Shape] = [
        .init(batchRows: 1, queuedBatches: 1), .init(batchRows: 2, queuedBatches: 1),
        .init(batchRows: 7, queuedBatches: 2), .init(batchRows: 64, queuedBatches: 4), .standard,
    ]

    /// 50 stores already in the catalog (another list's: same ids, never
    /// touched), then 400 rows: valid ones with ids drawn from a pool of 300
    /// (so some repeat), and one in ten invalid. Over 100 are rejected, so
    /// the tests of batching lift the issue limit.
    struct Scenario {
        let existing: [Store]
        let rows: [ImportRow]

        init(seed: UInt64) {
            var random = SplitMix64(seed: seed)
            func store(_ id: Int) -> Store {
                Store(
                    id: "s\(id)", name: "Store \(id) #\(random.next() % 1000)",
                    latitude: .random(in: -90...90, using: &random), longitude: .random(in: -180...180, using: &random),
                    attributes: random.next() % 2 == 0 ? [:] : ["note": .string("n\(random.next() % 10)")])
            }
            existing = (0..<50).map(store)
            rows = (0..<400).map { index in
                let line = index + 2
                if random.next() % 10 == 0 {
                    return .invalid([ImportIssue(line: line, column: "latitude", reason: "not a number: 'x'")])
                }
                return .valid(store(Int(random.next() % 300)), line: line)
            }
        }

        /// What importing `rows` one by one reports: every invalid
        /// row's issues, and every repeat of an id in the file naming the
        /// line that came first, in file order.
        var expectedReport: ImportReport {
            var firstLine: [String: Int] = [:]
            var issues: [ImportIssue] = []
            var imported = 0
            var rejected = 0
            for row in rows {
                switch row {
                case let .invalid(rowIssues):
                    issues += rowIssues
                    rejected += 1
                case let .valid(store, line):
                    if let first = firstLine[store.id] {
                        issues.append(
                            ImportIssue(
                                line: line, column: "id", reason: "duplicate id '\(store.id)' (also on line \(first))"))
                        rejected += 1
                    } else {
                        firstLine[store.id] = line
                        imported += 1
                    }
                }
            }
            return ImportReport(list: "new", imported: imported, rejected: rejected, issues: issues)
        }

        func catalog() throws -> Catalog {
            let catalog = try Catalog.inMemory()
            try catalog.importList(named: "existing", from: ArrayRowReader(stores: existing))
            return catalog
        }
    }

    /// Skip invalid rows, with no practical issue limit.
    static let skipAll = ImportOptions(skipInvalid: true, issueLimit: ImportOptions.maxIssueLimit)

    @Test(
        "past the issue limit any batching stops at the same row with the same bounded report, writing nothing",
        arguments: [1, 5, 40])
    func issueLimitStopsTheImport(limit: Int) throws {
        let scenario = Scenario(seed: 7)
        // The row-by-row model: issues counted until more than `limit` rows
        // are rejected, the first `limit` listed.
        var firstLine: [String: Int] = [:]
        var all: [ImportIssue] = []
        var rejected = 0
        for row in scenario.rows where rejected <= limit {
            switch row {
            case let .invalid(rowIssues):
                all += rowIssues
                rejected += 1
            case let .valid(store, line):
                if let first = firstLine[store.id] {
                    all.append(ImportIssue(line: line, column: "id", reason: "duplicate id '\(store.id)' (also on line \(first))"))
                    rejected += 1
                } else {
                    firstLine[store.id] = line
                }
            }
        }
        for shape in Self.shapes {
            let catalog = try scenario.catalog()
            let before = try catalog.dump()
            let error = #expect(throws: CatalogError.self, "limit \(limit), \(shape)") {
                try catalog.importList(
                    named: "new", from: ArrayRowReader(scenario.rows),
                    options: .init(skipInvalid: true, issueLimit: limit), pipeline: shape)
            }
            guard case let .rowsRejected(report) = error else {
                Issue.record("expected rowsRejected, got \(String(describing: error))")
                continue
            }
            #expect(report.stoppedEarly)
            #expect(report.imported == 0)
            #expect(report.rejected == limit + 1)
            #expect(report.issues == Array(all.prefix(limit)), "limit \(limit), \(shape)")
            #expect(report.issueCount == all.count)
            #expect(report.issueCountsByKind == Dictionary(grouping: all, by: \.kind).mapValues(\.count))
            #expect(error?.description == "nothing imported into 'new': too many errors (stopped after \(limit + 1) invalid rows)")
            #expect(try catalog.dump() == before)
        }
    }

    @Test("any batching gives the report of a row-by-row import and the same database", arguments: [UInt64(1), 2, 3])
    func batchingNeverChangesTheOutcome(seed: UInt64) throws {
        let scenario = Scenario(seed: seed)
        var dumps: Set<String> = []
        for shape in Self.shapes {
            let catalog = try scenario.catalog()
            let report = try catalog.importList(
                named: "new", from: ArrayRowReader(scenario.rows), options: Self.skipAll, pipeline: shape)
            #expect(report == scenario.expectedReport, "seed \(seed), \(shape)")
            dumps.insert(try catalog.dump())
        }
        #expect(dumps.count == 1, "seed \(seed)")
    }

    @Test("any batching rejects an all-or-nothing import with the same issues, writing nothing", arguments: [UInt64(4), 5])
    func batchingNeverChangesARejection(seed: UInt64) throws {
        let scenario = Scenario(seed: seed)
        var expected = scenario.expectedReport
        expected.imported = 0
        for shape in Self.shapes {
            let catalog = try scenario.catalog()
            let before = try catalog.dump()
            #expect(throws: CatalogError.rowsRejected(expected), "seed \(seed), \(shape)") {
                try catalog.importList(
                    named: "new", from: ArrayRowReader(scenario.rows), options: .init(issueLimit: ImportOptions.maxIssueLimit),
                    pipeline: shape)
            }
            #expect(try catalog.dump() == before, "seed \(seed), \(shape)")
        }
    }

    @Test("a reader failing at any row fails the import with its error, writing nothing", arguments: [0, 1, 63, 64, 65, 399])
    func readerFailureAtAnyRow(index: Int) throws {
        let scenario = Scenario(seed: 6)
        let failure = ImportFileError(path: "stores.csv", line: index + 2, reason: "cannot read the file: I/O error")
        for shape in Self.shapes {
            let catalog = try scenario.catalog()
            let before = try catalog.dump()
            var reader = ArrayRowReader(scenario.rows)
            reader.failure = (index, failure)
            #expect(throws: failure, "row \(index), \(shape)") {
                try catalog.importList(named: "new", from: reader, options: Self.skipAll, pipeline: shape)
            }
            #expect(try catalog.dump() == before, "row \(index), \(shape)")
        }
    }

    @Test("rows come out in file order, each once, and the reader's error after the rows before it")
    func pipelineDeliversEveryRowThenTheError() throws {
        let rows = (0..<100).map { ImportRow.invalid([ImportIssue(line: $0, column: nil, reason: "row \($0)")]) }
        var reader = ArrayRowReader(rows)
        let failure = ImportFileError(path: "f.csv", line: 75, reason: "broken")
        reader.failure = (73, failure)
        var lines: [Int] = []
        #expect(throws: failure) {
            try RowPipeline.read(reader, shape: .init(batchRows: 10, queuedBatches: 2)) { batch in
                #expect(batch.count <= 10)
                for case let .invalid(issues) in batch.rows { lines += issues.map(\.line) }
            }
        }
        #expect(lines == Array(0..<73))
    }

    @Test("the reader never runs more than the queue and one batch ahead of the writer")
    func readerStaysBoundedAhead() throws {
        let reader = CountingReader(rows: 20_000)
        let shape = RowPipeline.Shape(batchRows: 10, queuedBatches: 2)
        var taken = 0
        try RowPipeline.read(reader, shape: shape) { _ in
            taken += 1
            // Held here: `taken` batches; queued: at most 2; in the reader's
            // hands: one, full and waiting for room at worst.
            let read = Int(reader.progress.read.load())
            #expect(read <= (taken + shape.queuedBatches + 1) * shape.batchRows, "after \(taken) batches")
        }
        #expect(taken == 2_000)
    }

    @Test("an error in the writer stops the reader early and is the error thrown")
    func writerErrorStopsTheReader() throws {
        struct DiskFull: Error, Equatable {}
        let reader = CountingReader(rows: 1_000_000)
        let shape = RowPipeline.Shape(batchRows: 10, queuedBatches: 2)
        var taken = 0
        #expect(throws: DiskFull()) {
            try RowPipeline.read(reader, shape: shape) { _ in
                taken += 1
                if taken == 3 { throw DiskFull() }
            }
        }
        // Returned only once the reading thread is done with the reader.
        #expect(reader.progress.inside.load() == 0)
        #expect(Int(reader.progress.read.load()) <= (3 + shape.queuedBatches + 1) * shape.batchRows)
    }
}

/// Valid rows without end (up to `rows`), counting how many were read and
/// whether a read is under way.
private struct CountingReader: StoreRowReader {
    final class Progress: Sendable {
        let read = AtomicWord(0)
        let inside = AtomicWord(0)
    }

    let rows: Int
    let progress = Progress()

    mutating func next() throws(ImportFileError) -> ImportRow? {
        progress.inside.add(1)
        defer { progress.inside.subtract(1) }
        let index = Int(progress.read.load())
        guard index < rows else { return nil }
        progress.read.add(1)
        return .valid(Store(id: "c\(index)", name: "C", latitude: 0, longitude: 0), line: index + 2)
    }
}
