import Clustering
import Foundation
import StoreCatalog

/// The clustering targets: our `Clustering` against mapbox/supercluster
/// 8.0.1 under Node on the same points in the same order (the imported
/// list), with every level of the hierarchy checked identical; getClusters
/// on a city-sized box at every zoom; and a cold `carousel clusters`.
///
/// The peer runs from checkouts of supercluster and kdbush named by
/// `SUPERCLUSTER_DIR` and `KDBUSH_DIR` (or the matching options); where
/// Node or either folder is missing, the peer is skipped with a note.
struct ClusterBenchmark {
    var workspace: Workspace
    var loads: Int
    var queries: Int
    var coldRuns: Int
    var superclusterDirectory: String?
    var kdbushDirectory: String?
    /// The driver script of ours that runs the peer.
    var driver: String
    /// A city-sized box: Paris and its suburbs (full run), Seoul (smoke run).
    var box: BoundingBox
    var coldZoom = 12

    func run(into report: inout Report) throws {
        let database = try workspace.catalog()
        let catalog = try Catalog(path: database.path)
        let points = try catalog.stores(list: workspace.listName).map {
            Coordinate(latitude: $0.latitude, longitude: $0.longitude)
        }
        let options = ClusterOptions()

        let peer = try runPeer(points)
        var loadSeconds: [Double] = []
        var index: ClusterIndex!
        for run in 0..<loads {
            progress("clusters: load \(run + 1)/\(loads)")
            let (built, seconds) = try Stopwatch.time { try ClusterIndex(points: points, options: options) }
            index = built
            loadSeconds.append(seconds)
        }
        var ourQueries: [Int: Double] = [:]
        for zoom in options.minZoom...(options.maxZoom + 1) {
            var times: [Double] = []
            for _ in 0..<queries {
                let (markers, seconds) = try Stopwatch.time { try index.clusters(in: box, zoom: Double(zoom)) }
                precondition(markers.count >= 0)
                times.append(seconds)
            }
            ourQueries[zoom] = Samples(times).median
        }

        let ours = Samples(loadSeconds).median
        if let peer {
            let checked = try compare(index, with: peer.dump)
            let theirs = Samples(peer.loads).median
            report.rows.append(ReportRow(
                "cluster \(Format.count(points.count)) places, all zooms (vs supercluster load)",
                ours: Format.seconds(ours), peer: Format.seconds(theirs), ratio: Format.ratio(ours / theirs),
                target: .atMost(0.5, "0.5×"), measured: ours / theirs))
            var worst = 0.0, worstZoom = 0
            for (zoom, mine) in ourQueries {
                let ratio = mine / Samples(peer.queries[zoom] ?? [mine]).median
                if ratio > worst { (worst, worstZoom) = (ratio, zoom) }
            }
            let theirMedians = ourQueries.keys.sorted().map { Samples(peer.queries[$0]!).median }
            report.rows.append(ReportRow(
                "getClusters city box, zooms \(options.minZoom)–\(options.maxZoom + 1): slowest zoom",
                ours: Format.microseconds(ourQueries[worstZoom]! * 1e6),
                peer: Format.microseconds(Samples(peer.queries[worstZoom]!).median * 1e6),
                ratio: Format.ratio(worst) + " (z\(worstZoom))",
                target: .atMost(1, "1×"), measured: worst))
            report.notes.append("""
                clusters: supercluster \(peer.versions) on Node \(peer.node), \(loads) loads each (median), \
                then \(queries) getClusters per zoom; identical results checked: \(checked). \
                Per-zoom medians, ours: \(ourQueries.keys.sorted().map { Format.microseconds(ourQueries[$0]! * 1e6) }.joined(separator: " ")); \
                supercluster: \(theirMedians.map { Format.microseconds($0 * 1e6) }.joined(separator: " "))
                """)
        } else {
            report.rows.append(ReportRow(
                "cluster \(Format.count(points.count)) places, all zooms", ours: Format.seconds(ours),
                peer: "skipped", ratio: "—"))
        }
        try coldQueries(database: database, catalog: catalog, index: index, into: &report)
    }

    // MARK: the peer

    private struct Peer {
        var versions: String
        var node: String
        var loads: [Double]
        var queries: [Int: [Double]]
        var dump: [Double]
    }

    private func runPeer(_ points: [Coordinate]) throws -> Peer? {
        guard let supercluster = superclusterDirectory, let kdbush = kdbushDirectory else {
            progress("clusters: supercluster peer skipped (set SUPERCLUSTER_DIR and KDBUSH_DIR to checkouts)")
            return nil
        }
        for directory in [supercluster, kdbush]
        where !FileManager.default.fileExists(atPath: directory + "/index.js") {
            progress("clusters: supercluster peer skipped (\(directory)/index.js is missing)")
            return nil
        }
        guard let node = Self.which("node") else {
            progress("clusters: supercluster peer skipped (no node in PATH)")
            return nil
        }
        var coordinates: [Double] = []
        coordinates.reserveCapacity(points.count * 2)
        for point in points { coordinates += [point.latitude, point.longitude] }
        let pointsFile = workspace.path("cluster-points.f64"), dumpFile = workspace.path("cluster-levels.f64")
        try coordinates.withUnsafeBytes { try Data($0).write(to: pointsFile) }
        let stdout = workspace.path("supercluster.json")
        progress("clusters: supercluster under Node (\(loads) loads, \(queries) queries per zoom)")
        _ = try MeasuredProcess(
            executable: node,
            arguments: [
                driver, "--supercluster", supercluster, "--kdbush", kdbush, "--points", pointsFile.path,
                "--dump", dumpFile.path, "--loads", String(loads),
                "--box", "\(box.south),\(box.west),\(box.north),\(box.east)", "--queries", String(queries),
            ],
            stdoutPath: stdout.path, stderrPath: workspace.path("supercluster.stderr").path
        ).run()
        struct Output: Decodable {
            var versions: [String: String]
            var node: String
            var loads: [Double]
            var queries: [String: [Double]]
        }
        let output = try JSONDecoder().decode(Output.self, from: Data(contentsOf: stdout))
        let bytes = try Data(contentsOf: dumpFile)
        let dump = bytes.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
        return Peer(
            versions: output.versions.sorted { $0.key > $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
            node: output.node, loads: output.loads.map { $0 / 1e3 },
            queries: Dictionary(uniqueKeysWithValues: output.queries.map { (Int($0.key)!, $0.value.map { $0 / 1e3 }) }),
            dump: dump)
    }

    /// Every level, marker by marker (position bits, id, parent, count),
    /// and the box query's markers in order at every zoom.
    private func compare(_ index: ClusterIndex, with dump: [Double]) throws -> String {
        var at = 0
        var markers = 0
        func next() -> Double {
            defer { at += 1 }
            return dump[at]
        }
        for zoom in index.options.minZoom...(index.options.maxZoom + 1) {
            let level = index.levelData(atZoom: zoom)!
            let count = Int(next())
            guard count == level.id.count else {
                throw BenchError("clusters differ from supercluster: zoom \(zoom) has \(level.id.count) markers, theirs \(count)")
            }
            for i in 0..<count {
                let x = next(), y = next(), id = next(), parent = next(), n = next()
                guard x.bitPattern == level.x[i].bitPattern, y.bitPattern == level.y[i].bitPattern,
                    id == Double(level.id[i]), parent == Double(level.parent[i]), n == Double(level.count[i])
                else {
                    throw BenchError("""
                        clusters differ from supercluster at zoom \(zoom), marker \(i): theirs x \(x) y \(y) id \(id) \
                        parent \(parent) count \(n); ours x \(level.x[i]) y \(level.y[i]) id \(level.id[i]) \
                        parent \(level.parent[i]) count \(level.count[i])
                        """)
                }
            }
            markers += count
            let found = Int(next())
            let ours = try index.clusters(in: box, zoom: Double(zoom)).map { $0.cluster?.id ?? $0.pointIndex! }
            let theirs = (0..<found).map { _ in Int(next()) }
            guard ours == theirs else {
                throw BenchError("getClusters differs from supercluster at zoom \(zoom): \(ours.count) markers vs \(theirs.count)")
            }
        }
        let levels = index.options.maxZoom + 2 - index.options.minZoom
        return "\(Format.count(markers)) markers on \(levels) levels bit for bit, box queries in order"
    }

    private static func which(_ program: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    // MARK: the CLI, cold

    private func coldQueries(database: URL, catalog: Catalog, index: ClusterIndex, into report: inout Report) throws {
        let arguments = [
            "clusters", "--list", workspace.listName, "--zoom", String(coldZoom),
            "--south", String(box.south), "--west", String(box.west), "--north", String(box.north),
            "--east", String(box.east), "--db", database.path, "--json",
        ]
        let stderr = workspace.path("carousel-clusters.stderr").path
        // The first query builds and stores the list's index.
        let output = workspace.path("clusters.json")
        let first = try MeasuredProcess(
            executable: workspace.carousel, arguments: arguments, stdoutPath: output.path, stderrPath: stderr
        ).run()
        try check(output, against: index.markers(in: box, zoom: Double(coldZoom)))
        var seconds: [Double] = []
        for run in 0..<coldRuns {
            if run.isMultiple(of: 10) { progress("clusters: cold query \(run + 1)/\(coldRuns)") }
            seconds.append(try MeasuredProcess(
                executable: workspace.carousel, arguments: arguments, stderrPath: stderr).run().wallSeconds)
        }
        let samples = Samples(seconds)
        report.rows.append(ReportRow(
            "cold `carousel clusters` (stored index): median (p99)",
            ours: "\(Format.seconds(samples.median)) (p99 \(Format.seconds(samples.p99)))",
            target: .atMost(0.050, "50 ms"), measured: samples.median))
        report.notes.append("""
            clusters CLI: `carousel clusters --list \(workspace.listName) --zoom \(coldZoom)` on the city box, \
            \(coldRuns) processes, wall from spawn to exit; the first one (not counted) built and stored the \
            list's index in \(Format.seconds(first.wallSeconds)); its answer checked against the in-memory index
            """)
    }

    /// The CLI's JSON must list the in-memory index's markers, in order.
    private func check(_ output: URL, against markers: [ClusterMarker]) throws {
        let answer = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [[String: Any]] ?? []
        let cli = answer.map { marker in
            marker["type"] as? String == "cluster" ? "c\(marker["id"] as? Int ?? -1)" : "p\(marker["index"] as? Int ?? -1)"
        }
        let expected = markers.map { $0.cluster.map { "c\($0.id)" } ?? "p\($0.pointIndex!)" }
        guard cli == expected else {
            throw BenchError("carousel clusters answered \(cli.count) markers that differ from the in-memory index's \(expected.count)")
        }
    }
}
