import Foundation
import TestSupport
import Testing

@testable import StoreCatalog

/// What keeps an import's memory flat at millions of rows changes no
/// outcome: the spatial index entries sorted in runs on disk, and the lines
/// of created stores kept as runs.
@Suite("Import in bounded memory")
struct ImportBoundedMemoryTests {
    @Test(
        "sorting the spatial index entries in runs on disk gives the same report and database",
        arguments: [UInt64(1), 2])
    func spilledSpatialIndexGivesTheSameDatabase(seed: UInt64) throws {
        let scenario = ImportPipelineTests.Scenario(seed: seed)
        var dumps: Set<String> = []
        for limit in [SpatialIndexWriter.memoryLimit, 0, 1, 37] {
            let catalog = try scenario.catalog()
            let report = try catalog.importList(
                named: "new", from: ArrayRowReader(scenario.rows), options: ImportPipelineTests.skipAll,
                pipeline: .standard, spatialMemoryLimit: limit)
            #expect(report == scenario.expectedReport, "seed \(seed), limit \(limit)")
            dumps.insert(try catalog.dump())
            // Nothing of the spill is left behind.
            #expect(try catalog.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM temp.sqlite_master") } == 0)
        }
        #expect(dumps.count == 1, "seed \(seed)")
    }

    @Test("the external sort gives every value in order, whatever the run length", arguments: [0, 1, 2, 7, 64, 1_000, 5_000])
    func externalSortSortsAcrossRuns(runLength: Int) throws {
        var random = SplitMix64(seed: UInt64(runLength) + 3)
        // Duplicates included: runs may hold equal values.
        let values = (0..<3_000).map { _ in Int64(random.next() % 500) - 250 }
        var sort = ExternalSort<Int64>(runLength: runLength)
        for value in values { try sort.append(value) }
        #expect(sort.count == values.count)
        var merged: [Int64] = []
        try sort.forEachSorted { merged.append($0) }
        #expect(merged == values.sorted(), "run length \(runLength)")
    }

    @Test("the runs' file is unlinked as soon as it is made; an unusable folder is a clear error")
    func externalSortLeavesNoFile() throws {
        let folder = try TemporaryDirectory()
        var sort = ExternalSort<Int64>(runLength: 4, directory: folder.url.path)
        for value in (0..<100).reversed() { try sort.append(Int64(value)) }
        // Runs written, the file open: nothing to see in the folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        var merged: [Int64] = []
        try sort.forEachSorted { merged.append($0) }
        #expect(merged == (0..<100).map(Int64.init))

        var nowhere = ExternalSort<Int64>(runLength: 1, directory: folder.url.path + "/missing")
        #expect(throws: CatalogError.self) { try nowhere.append(1) }
    }

    @Test func anEmptyExternalSortGivesNothing() throws {
        for runLength in [1, 100] {
            var sort = ExternalSort<Double>(runLength: runLength)
            var seen = 0
            try sort.forEachSorted { _ in seen += 1 }
            #expect(seen == 0)
        }
    }

    @Test func lineRunsGiveEachStoresLineWhateverTheGaps() {
        var random = SplitMix64(seed: 9)
        var lines: [Int] = []
        var runs = LineRuns()
        var line = 1
        for _ in 0..<5_000 {
            // Mostly the next line; sometimes a gap (rejected rows, quoted
            // line breaks, blank lines).
            line += random.next() % 20 == 0 ? 2 + Int(random.next() % 5) : 1
            lines.append(line)
            runs.append(line)
        }
        #expect(runs.count == lines.count)
        #expect(lines.indices.allSatisfy { runs.line(of: $0) == lines[$0] })
    }

    @Test func aFileWithoutGapsIsOneRun() {
        var runs = LineRuns()
        for line in 2..<100_002 { runs.append(line) }
        #expect(runs.line(of: 0) == 2)
        #expect(runs.line(of: 99_999) == 100_001)
        #expect(runs.runCount == 1)
    }
}
