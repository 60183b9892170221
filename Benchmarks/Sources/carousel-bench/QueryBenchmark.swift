@_spi(Reference) import StoreCatalog
import SyntheticStores

/// The query benchmark: the catalog's queries on the imported
/// 234,908-store list, in process through the `Catalog` API, timed one by
/// one after a warm-up: store at a list position, nearest 10 (and the same
/// by full scan, the peer), a city-sized bounding box.
struct QueryBenchmark {
    var workspace: Workspace
    var positionQueries: Int
    var nearestQueries: Int
    /// Full scans are ~10⁵ times slower than a seek: a few dozen give a
    /// stable median.
    var scanQueries: Int
    var boxQueries: Int
    var seed: UInt64 = 0x9E0_CA7A

    /// Half the side of the city-sized box: 0.2° × 0.2° (about 22 km north
    /// to south) around a real place.
    static let boxHalfSide = 0.1
    /// How far a nearest query's point lies from a real place, at most, in
    /// degrees: people look for stores where people live, not mid-ocean.
    static let pointJitter = 0.5

    /// How long the catalog's reads share a read transaction here: the
    /// server's readers' millisecond, since bursts of lookups are the
    /// server's work (the library's default, a transaction per read, is
    /// measured beside it).
    static let readSnapshotLifetime = Duration.milliseconds(1)

    func run(into report: inout Report) throws {
        let path = try workspace.catalog().path
        let catalog = try Catalog(path: path, access: .read, readSnapshotLifetime: Self.readSnapshotLifetime)
        let list = workspace.listName
        let count = try catalog.count(list: list)
        var random = SplitMix64(seed: seed)

        progress("queries: store at a list position")
        let positions = (0..<positionQueries).map { _ in Int.random(in: 0..<count, using: &random) }
        let position = try timed(positions) { try catalog.store(list: list, at: $0) }
        report.rows.append(ReportRow(
            "store at a list position: median (p99)", ours: position.summary,
            target: .atMost(5, "5 µs"), measured: position.samples.median
        ))
        // What the map needs per focused card (id and coordinate), without
        // the name, address and attributes of the whole store.
        let location = try timed(positions) { try catalog.location(list: list, at: $0) }
        report.rows.append(ReportRow(
            "  its location only (id, lat, lng): median (p99)", ours: location.summary,
            target: .atMost(5, "5 µs"), measured: location.samples.median
        ))
        let plain = try Catalog(path: path, access: .read)
        let alone = try timed(positions) { try plain.store(list: list, at: $0) }
        report.rows.append(ReportRow(
            "  the same, each read a transaction of its own (default)", ours: alone.summary, peer: "—", ratio: "—"
        ))

        progress("queries: nearest 10")
        let points = try (0..<max(nearestQueries, scanQueries)).map { _ in
            let place = try catalog.location(list: list, at: Int.random(in: 0..<count, using: &random))
            return Coordinate(
                latitude: min(max(place.latitude + Double.random(in: -Self.pointJitter...Self.pointJitter, using: &random), -90), 90),
                longitude: wrapped(place.longitude + Double.random(in: -Self.pointJitter...Self.pointJitter, using: &random))
            )
        }
        let nearest = try timed(Array(points.prefix(nearestQueries))) { try catalog.nearest(to: $0, limit: 10) }
        progress("queries: nearest 10 by full scan")
        let scanned = Array(points.prefix(scanQueries))
        let scan = try timed(scanned, warmUp: 1) { try catalog.nearestByFullScan(to: $0, limit: 10) }
        // The index must find what the scan finds, or its speed means nothing.
        for point in scanned {
            let viaIndex = try catalog.nearest(to: point, limit: 10).map(\.store.id)
            let viaScan = try catalog.nearestByFullScan(to: point, limit: 10).map(\.store.id)
            guard viaIndex == viaScan else {
                throw BenchError("nearest 10 to \(point): the index found \(viaIndex), the full scan \(viaScan)")
            }
        }
        report.rows.append(ReportRow(
            "nearest 10 to a point: median (p99)", ours: nearest.summary,
            target: .atMost(200, "200 µs"), measured: nearest.samples.median
        ))
        let speedup = scan.samples.median / nearest.samples.median
        report.rows.append(ReportRow(
            "nearest 10: spatial index vs full scan", ours: Format.microseconds(nearest.samples.median),
            peer: Format.microseconds(scan.samples.median) + " (full scan)", ratio: Format.ratio(speedup),
            target: .atLeast(50, "50× faster"), measured: speedup
        ))

        try runUniform(catalog, path: path, list: list, random: &random, into: &report)

        progress("queries: city-sized bounding box")
        var found = 0
        let boxes = try (0..<boxQueries).map { _ in
            let place = try catalog.location(list: list, at: Int.random(in: 0..<count, using: &random))
            return try BoundingBox(
                south: max(place.latitude - Self.boxHalfSide, -90), west: wrapped(place.longitude - Self.boxHalfSide),
                north: min(place.latitude + Self.boxHalfSide, 90), east: wrapped(place.longitude + Self.boxHalfSide)
            )
        }
        let box = try timed(boxes) { box in
            let stores = try catalog.stores(in: box)
            found += stores.count
            return stores
        }
        report.rows.append(ReportRow(
            "city-sized box (0.2° × 0.2°): median (p99)", ours: box.summary,
            target: .atMost(500, "500 µs"), measured: box.samples.median
        ))
        report.notes.append("""
            queries: in process through `Catalog` on the imported list (\(Format.count(count)) stores), each query \
            timed alone after a warm-up, its reads sharing a read transaction for \(Self.readSnapshotLifetime) as the server's do \
            (`readSnapshotLifetime`), and the positions again on a catalog opened with the default (each read its own); \
            \(Format.count(positionQueries)) random positions (`store(list:at:)`, then `location(list:at:)`), \
            \(Format.count(nearestQueries)) nearest-10 points within ±\(Self.pointJitter)° of random places \
            (\(scanQueries) of them also by `nearestByFullScan`, results checked equal), \
            \(Format.count(boxQueries)) boxes centred on random places (\(found / max(boxQueries, 1)) stores each \
            on average); seed \(String(seed, radix: 16))
            """)
    }

    /// Per-query times in µs, with the table's `median (p99)` text.
    private struct Timings {
        var samples: Samples
        var summary: String {
            "\(Format.microseconds(samples.median)) (p99 \(Format.microseconds(samples.p99)))"
        }
    }

    /// Runs `query` on every input, timing each call alone, after running
    /// it untimed on the first `warmUp` inputs (caches, prepared statements).
    private func timed<Input, Output>(
        _ inputs: [Input],
        warmUp: Int = Stopwatch.warmUpCalls,
        _ query: (Input) throws -> Output
    ) throws -> Timings {
        Timings(samples: try Stopwatch.microsecondsPerCall(inputs, warmUp: warmUp, query))
    }

    /// A longitude brought back into −180…180 (a box crossing the
    /// antimeridian then has west > east, as `BoundingBox` expects).
    private func wrapped(_ longitude: Double) -> Double {
        longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude
    }
}
