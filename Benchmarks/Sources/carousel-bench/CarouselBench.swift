import ArgumentParser
import Foundation
import Clustering
import StoreCatalog
import SyntheticStores

/// `carousel-bench`: the benchmarks of BENCHMARKS.md, side by side with their peers
/// (sqlite3, OpenCombine), printed as one table. `scripts/benchmark` builds
/// and runs it; run it directly only with release builds.
@main
struct CarouselBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "carousel-bench",
        abstract: "Measure the carousel against sqlite3 and OpenCombine."
    )

    enum Benchmark: String, CaseIterable, ExpressibleByArgument {
        case `import`, pipeline, queries, search, focus, export, clusters, scale, server, tiles, autoplay
    }

    @Option(help: "The carousel executable to measure: the one scripts/install installs.")
    var carousel = ".build/install/bin/carousel"

    @Option(help: "The folder holding geonames-places.csv and geonames-kr.csv (default: ../shared/data when it is there, else the repository's Tests/Fixtures/GeoNames, whose worldwide file is a 30,000-place subset).")
    var data: String?

    @Flag(help: "Tiny sizes (geonames-kr.csv, 10k events, few queries): checks the code runs, measures nothing.")
    var smoke = false

    @Option(help: "Run only this benchmark.")
    var only: Benchmark?

    @Option(help: "A checkout of mapbox/supercluster 8.0.1, the clusters benchmark's peer (else $SUPERCLUSTER_DIR).")
    var supercluster: String?

    @Option(help: "A checkout of mourner/kdbush 4.0.2, supercluster's dependency (else $KDBUSH_DIR).")
    var kdbush: String?

    @Option(parsing: .upToNextOption, help: "The scale benchmark's list sizes, smallest first (default: 100000 234908 1000000 10000000; 10000 with --smoke); the first comparison size is 234908 if listed, else the first.")
    var scaleSizes: [Int] = []

    @Option(help: "Where the scale benchmark writes its log–log plot (full runs only).")
    var plot = "docs/scale.svg"

    @Option(help: "With the server benchmark: only this part of it (throughput: the routes, the middleware's cost and the SQLite path; sessions: how many live sessions at 60 fps it holds under a 50 ms p99, beside a floor server that does nothing else (session-floor.c), from a C client (session-load.c), a NIO client and sessions.py; imports: reads while 8 clients import; realtime: live sessions' cameras while imports, clusters and searches run; REALTIME_BASELINE=BIN adds another build's carousel as the peer).")
    var serverPart: ServerBenchmark.Part?

    @Option(help: "The server and tiles benchmarks' seconds per wrk (and pgbench) run (default 30; 1 with --smoke).")
    var serverSeconds: Int?

    @Option(help: "A Python with `websockets`, for the server's realtime part and the Python client of its sessions ramp (scripts/benchmark makes one).")
    var python: String?

    @Option(help: "The compiler, as `swift --version` prints it, for the report.")
    var swiftVersion = "unknown"

    mutating func run() throws {
        let sizes = smoke ? Sizes.smoke : Sizes.full
        let source = try DataSource.locate(explicit: data, file: sizes.dataFile)
        let dataFile = source.file
        var report = Report(
            machine: .current(swiftVersion: swiftVersion),
            command: (["scripts/benchmark"] + (smoke ? ["--smoke"] : []) + (only.map { ["--only", $0.rawValue] } ?? [])
                + (serverPart.map { ["--server-part", $0.rawValue] } ?? []) + (serverSeconds.map { ["--server-seconds", String($0)] } ?? []))
                .joined(separator: " "),
            loadAtStart: Machine.loadAverage(),
            loadAtEnd: ""
        )
        report.notes.append("data: \(source.description)")
        let selected = only.map { [$0] } ?? Benchmark.allCases
        guard FileManager.default.isExecutableFile(atPath: carousel) else {
            throw BenchError("\(carousel) is not an executable: build it (swift build -c release) or pass --carousel")
        }
        let workspace = try Workspace(carousel: carousel, dataFile: dataFile)
        if selected.contains(.import) {
            try ImportBenchmark(workspace: workspace, runs: sizes.importRuns).run(into: &report)
        }
        if selected.contains(.pipeline) {
            let catalog = try Catalog(path: try workspace.catalog().path)
            try PipelineBenchmark(
                stores: try StoreDirectory.loading(list: workspace.listName, from: catalog),
                eventCount: sizes.pipelineEvents, runs: sizes.pipelineRuns
            ).run(into: &report)
        }
        if selected.contains(.queries) {
            try QueryBenchmark(
                workspace: workspace, positionQueries: sizes.positionQueries, nearestQueries: sizes.nearestQueries,
                scanQueries: sizes.scanQueries, boxQueries: sizes.boxQueries
            ).run(into: &report)
        }
        if selected.contains(.search) {
            try SearchBenchmark(workspace: workspace, queries: sizes.searchQueries).run(into: &report)
        }
        if selected.contains(.focus) {
            try FocusBenchmark(workspace: workspace, runs: sizes.focusRuns).run(into: &report)
        }
        if selected.contains(.export) {
            try ExportBenchmark(workspace: workspace, runs: sizes.exportRuns).run(into: &report)
        }
        if selected.contains(.clusters) {
            let environment = ProcessInfo.processInfo.environment
            let benchmarks = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            try ClusterBenchmark(
                workspace: workspace, loads: sizes.clusterLoads, queries: sizes.clusterQueries,
                coldRuns: sizes.clusterColdRuns,
                superclusterDirectory: supercluster ?? environment["SUPERCLUSTER_DIR"],
                kdbushDirectory: kdbush ?? environment["KDBUSH_DIR"],
                driver: benchmarks.appendingPathComponent("supercluster-peer.mjs").path,
                box: smoke
                    ? try BoundingBox(south: 37.4, west: 126.7, north: 37.7, east: 127.2)
                    : try BoundingBox(south: 48.7, west: 2.1, north: 49.0, east: 2.6)
            ).run(into: &report)
        }
        if selected.contains(.scale) {
            let scaleSizes = self.scaleSizes.isEmpty ? sizes.scaleSizes : self.scaleSizes
            guard scaleSizes.allSatisfy({ (1...SyntheticStoreList.maximumCount).contains($0) }) else {
                throw BenchError("--scale-sizes takes counts from 1 to \(SyntheticStoreList.maximumCount)")
            }
            try ScaleBenchmark(
                workspace: workspace, sizes: scaleSizes,
                reference: scaleSizes.contains(sizes.scaleReference) ? sizes.scaleReference : scaleSizes[0],
                queries: sizes.scaleQueries, processRuns: sizes.scaleProcessRuns, plotPath: smoke ? nil : plot
            ).run(into: &report)
        }
        if selected.contains(.server) {
            if let serverSeconds, !(1...3600).contains(serverSeconds) {
                throw BenchError("--server-seconds takes 1 to 3600")
            }
            try ServerBenchmark(
                workspace: workspace,
                parts: serverPart.map { [$0] } ?? ServerBenchmark.Part.allCases,
                importBytes: sizes.importLoadBytes,
                seconds: serverSeconds ?? sizes.serverSeconds, connections: sizes.serverConnections,
                sessionSeconds: sizes.sessionSeconds, maxSessions: sizes.maxSessions,
                realtimeSessions: sizes.realtimeSessions, realtimeSeconds: sizes.realtimeSeconds, python: python,
                scriptsFolder: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts"),
                measuresPostGIS: !smoke
            ).run(into: &report)
        }
        if selected.contains(.tiles) {
            if let serverSeconds, !(1...3600).contains(serverSeconds) {
                throw BenchError("--server-seconds takes 1 to 3600")
            }
            try TileBenchmark(
                workspace: workspace, seconds: serverSeconds ?? sizes.serverSeconds, addressCount: sizes.tileAddresses,
                scriptsFolder: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts"),
                measuresPostGIS: !smoke
            ).run(into: &report)
        }
        if selected.contains(.autoplay) {
            try AutoplayBenchmark(runs: smoke ? 2 : 30).run(into: &report)
        }
        report.loadAtEnd = Machine.loadAverage()
        if smoke {
            // Tiny sizes on debug builds measure nothing worth a verdict:
            // the run itself (and the checks of each answer) is the test.
            for row in report.rows.indices { report.rows[row].met = nil }
            print("SMOKE RUN: tiny sizes, debug builds; these figures are not measurements.\n")
        }
        print(report.render())
        if !smoke, !report.allMet {
            progress("some targets are missed (✗): BENCHMARKS.md has the profile of each")
        }
    }
}

extension ServerBenchmark.Part: ExpressibleByArgument {}

/// How much each benchmark does: the full run, or a smoke run
/// that only proves the code still runs.
struct Sizes {
    var dataFile: String
    var importRuns: Int
    var pipelineEvents: Int
    var pipelineRuns: Int
    var positionQueries: Int
    var nearestQueries: Int
    var scanQueries: Int
    var boxQueries: Int
    var searchQueries: Int
    var focusRuns: Int
    var exportRuns: Int
    var clusterLoads: Int
    var clusterQueries: Int
    var clusterColdRuns: Int
    /// The scale benchmark's list sizes, and the one the largest is compared with.
    var scaleSizes: [Int]
    var scaleReference: Int
    var scaleQueries: Int
    var scaleProcessRuns: Int
    /// wrk's run per route (s), its connections; the sessions ramp's step (s) and ceiling.
    var serverSeconds: Int
    var serverConnections: Int
    var sessionSeconds: Double
    var maxSessions: Int
    /// Each import body of the server's imports part (issue 22: 20 MB).
    var importLoadBytes: Int
    /// The realtime part's live sessions and its seconds per load mix.
    var realtimeSessions: Int
    var realtimeSeconds: Int
    /// The tile addresses each mix of the tiles benchmark draws from.
    var tileAddresses: Int

    static let full = Sizes(
        dataFile: "geonames-places.csv", importRuns: 7, pipelineEvents: 1_000_000, pipelineRuns: 3,
        positionQueries: 10_000, nearestQueries: 2_000, scanQueries: 30, boxQueries: 2_000, searchQueries: 500, focusRuns: 30,
        exportRuns: 3,
        clusterLoads: 5, clusterQueries: 200, clusterColdRuns: 30,
        scaleSizes: [100_000, 234_908, 1_000_000, 10_000_000], scaleReference: 234_908,
        scaleQueries: 2_000, scaleProcessRuns: 11,
        serverSeconds: 30, serverConnections: 64, sessionSeconds: 5, maxSessions: 2048,
        importLoadBytes: 20_000_000, realtimeSessions: 100, realtimeSeconds: 20,
        tileAddresses: 10_000
    )

    static let smoke = Sizes(
        dataFile: "geonames-kr.csv", importRuns: 1, pipelineEvents: 10_000, pipelineRuns: 1,
        positionQueries: 100, nearestQueries: 50, scanQueries: 3, boxQueries: 50, searchQueries: 20, focusRuns: 3,
        exportRuns: 1,
        clusterLoads: 1, clusterQueries: 5, clusterColdRuns: 3,
        scaleSizes: [10_000], scaleReference: 10_000, scaleQueries: 50, scaleProcessRuns: 2,
        serverSeconds: 1, serverConnections: 4, sessionSeconds: 0.5, maxSessions: 2,
        importLoadBytes: 200_000, realtimeSessions: 4, realtimeSeconds: 2,
        tileAddresses: 200
    )
}
