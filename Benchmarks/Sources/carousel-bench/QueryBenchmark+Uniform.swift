import Foundation
import Synchronization
@_spi(Reference) import StoreCatalog
import SyntheticStores

extension QueryBenchmark {
    /// The small list of the far-away queries: the Korean places of the
    /// file (311 in the GeoNames extract), imported beside the big list and
    /// deleted afterwards (their stores stay: the big list holds them).
    static let smallListName = "bench-small-kr"

    /// Nearest 10 from points drawn uniformly over the globe (most at sea,
    /// far from any place), on the whole list and on a small list far from
    /// almost all of them: the searches whose cost used to grow with the
    /// distance to the answer. Each answer is checked against the full scan
    /// on a sample.
    func runUniform(_ catalog: Catalog, path: String, list: String, random: inout SplitMix64, into report: inout Report) throws {
        let points = Self.uniformPoints(count: nearestQueries, random: &random)
        progress("queries: nearest 10 from points uniform over the globe")
        let globe = try Stopwatch.microsecondsPerCall(points, warmUp: Stopwatch.warmUpCalls) { try catalog.nearest(to: $0, limit: 10) }
        report.rows += ReportRow.nearestFromAnywhere("nearest 10 from uniform points:", globe)

        // Throughput, the figure PostGIS's pgbench gives
        // (`Benchmarks/scripts/postgis-knn.sh`, 1 and 32 clients): one
        // thread, then one per core, each with a connection of its own.
        for threads in [1, ProcessInfo.processInfo.activeProcessorCount] {
            progress("queries: nearest 10 from uniform points, \(threads) thread(s) for \(Self.throughputSeconds) s")
            let rate = try Self.queriesPerSecond(path: path, points: points, threads: threads) { catalog, point in
                _ = try catalog.nearest(to: point, limit: 10)
            }
            report.rows.append(ReportRow(
                "nearest 10 from uniform points, \(threads) thread(s): queries/s", ours: Format.rate(rate),
                peer: "—", ratio: "—"))
        }

        let small = try catalog.stores(list: list).filter { $0.attributes["country"] == "KR" }
        guard !small.isEmpty else {
            report.notes.append("queries, small list: skipped (the file has no places of country KR)")
            return
        }
        try catalog.importList(named: Self.smallListName, from: StoreArrayReader(small), options: ImportOptions(replace: true))
        defer { _ = try? catalog.deleteList(Self.smallListName) }
        progress("queries: nearest 10 of a small list (\(small.count) places) from uniform points")
        let far = try Stopwatch.microsecondsPerCall(points, warmUp: Stopwatch.warmUpCalls) {
            try catalog.nearest(to: $0, limit: 10, list: Self.smallListName)
        }
        report.rows += ReportRow.nearestFromAnywhere("nearest 10 of \(small.count) places, uniform points:", far)

        for point in points.prefix(scanQueries) {
            for name in [list, Self.smallListName] {
                let viaIndex = try catalog.nearest(to: point, limit: 10, list: name).map(\.store.id)
                let viaScan = try catalog.nearestByFullScan(to: point, limit: 10, list: name).map(\.store.id)
                guard viaIndex == viaScan else {
                    throw BenchError("nearest 10 of \(name) to \(point): the index found \(viaIndex), the full scan \(viaScan)")
                }
            }
        }
        report.notes.append("""
            queries, uniform points: \(Format.count(nearestQueries)) points uniform over the sphere (latitude from the \
            arcsine of a uniform sine), nearest 10 of the whole list, then of its \(small.count) places of country KR \
            imported as a list of their own; \(scanQueries) of them checked equal to the full scan on both lists
            """)
    }
}

/// The query points and the throughput of the searches from anywhere.
extension QueryBenchmark {
    static let throughputSeconds = 3.0

    /// Queries a second of `query` over `points`, round and round, on
    /// `threads` threads at once for ``throughputSeconds``, each thread
    /// with its own catalog connection (as the server's readers).
    static func queriesPerSecond(
        path: String, points: [Coordinate], threads: Int, _ query: @escaping @Sendable (Catalog, Coordinate) throws -> Void
    ) throws -> Double {
        let catalogs = try (0..<threads).map { _ in try Catalog(path: path, access: .read, readSnapshotLifetime: readSnapshotLifetime) }
        let counts = Mutex([Int](repeating: 0, count: threads))
        let failure = Mutex<(any Error)?>(nil)
        let start = Stopwatch.nanoseconds()
        let deadline = start + UInt64(throughputSeconds * 1e9)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var done = 0
            var index = thread * 97
            do {
                while Stopwatch.nanoseconds() < deadline {
                    for _ in 0..<64 {
                        try query(catalogs[thread], points[index % points.count])
                        index += 1
                    }
                    done += 64
                }
            } catch {
                failure.withLock { $0 = error }
            }
            counts.withLock { $0[thread] = done }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        let seconds = Double(Stopwatch.nanoseconds() - start) / 1e9
        return Double(counts.withLock { $0.reduce(0, +) }) / seconds
    }

    /// Points uniform over the sphere: the latitude from the arcsine of a
    /// uniform sine (a uniform latitude would crowd the poles).
    static func uniformPoints(count: Int, random: inout SplitMix64) -> [Coordinate] {
        (0..<count).map { _ in
            Coordinate(
                latitude: asin(Double.random(in: -1...1, using: &random)) * 180 / .pi,
                longitude: Double.random(in: -180...180, using: &random))
        }
    }
}

/// Stores already in memory as an import's rows.
struct StoreArrayReader: StoreRowReader {
    private var stores: IndexingIterator<[Store]>
    private var line = 1

    init(_ stores: [Store]) { self.stores = stores.makeIterator() }

    mutating func next() throws(ImportFileError) -> ImportRow? {
        guard let store = stores.next() else { return nil }
        line += 1
        return .valid(store, line: line)
    }
}

extension ReportRow {
    /// A nearest search from anywhere, `name` then `median` and `p99`
    /// rows against issue 25's bounds (≤ 50 µs, ≤ 300 µs), which hold at
    /// every size and for every list: the queries and the scale steps.
    static func nearestFromAnywhere(_ name: String, _ samples: Samples) -> [ReportRow] {
        [
            ReportRow(
                "\(name) median", ours: Format.microseconds(samples.median),
                target: .atMost(50, "50 µs"), measured: samples.median),
            ReportRow(
                "\(name) p99", ours: Format.microseconds(samples.p99),
                target: .atMost(300, "300 µs"), measured: samples.p99),
        ]
    }
}
