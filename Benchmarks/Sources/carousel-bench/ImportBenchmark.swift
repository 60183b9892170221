import Foundation

/// The import benchmark: importing the GeoNames file through our CLI
/// (validation and spatial index included) vs `sqlite3 .import` of the same
/// file into a typed table with a primary key; both as subprocesses, wall
/// time and peak RSS.
struct ImportBenchmark {
    var workspace: Workspace
    /// Measured runs of each, alternating ours and the peer's so that a
    /// change in machine load hits both alike; the medians count.
    var runs: Int

    /// The peer's table: the same columns, typed, `id` the primary key
    /// (the uniqueness check our import also makes).
    static let peerSchema = """
        CREATE TABLE places(id TEXT PRIMARY KEY, name TEXT NOT NULL, latitude REAL NOT NULL, \
        longitude REAL NOT NULL, country TEXT, population INTEGER);
        """

    func run(into report: inout Report) throws {
        // One untimed run of each first: the file, both executables and
        // their libraries are then in the page cache for every timed run.
        progress("import: warm-up")
        _ = try importOurs(keeping: false)
        _ = try importPeer()
        var ours: [ProcessMeasurement] = []
        var peer: [ProcessMeasurement] = []
        for run in 1...runs {
            progress("import: run \(run)/\(runs)")
            ours.append(try importOurs(keeping: run == runs))
            peer.append(try importPeer())
        }
        let ourWall = Samples(ours.map(\.wallSeconds)).median
        let peerWall = Samples(peer.map(\.wallSeconds)).median
        let ourRSS = Int(Samples(ours.map { Double($0.peakRSSBytes ?? 0) }).median)
        let peerRSS = Int(Samples(peer.map { Double($0.peakRSSBytes ?? 0) }).median)
        // The ratio of each alternating pair: how far one run's figure moves
        // with the machine's load (other jobs hurt our two-thread import
        // more than sqlite3's one thread).
        let pairs = Samples(zip(ours, peer).map { $0.wallSeconds / $1.wallSeconds })
        let rows = try countRows()
        report.rows.append(ReportRow(
            "import \(Format.count(rows)) rows: wall", ours: Format.seconds(ourWall),
            peer: Format.seconds(peerWall) + " (sqlite3 .import)", ratio: Format.ratio(ourWall / peerWall),
            target: .atMost(1.5, "1.5×"), measured: ourWall / peerWall
        ))
        report.rows.append(ReportRow(
            "  ratio per pair: min / median / max", ours: runs == 1 ? "1 pair" : "\(runs) pairs", peer: "",
            ratio: "\(Format.ratio(pairs.sorted[0])) / \(Format.ratio(pairs.median)) / \(Format.ratio(pairs.sorted[pairs.count - 1]))"
        ))
        report.rows.append(ReportRow(
            "import \(Format.count(rows)) rows: peak RSS", ours: Format.mebibytes(ourRSS),
            peer: Format.mebibytes(peerRSS) + " (sqlite3 .import)", ratio: Format.ratio(Double(ourRSS) / Double(peerRSS)),
            target: .atMost(64, "64 MiB"), measured: Double(ourRSS) / 1_048_576
        ))
        report.notes.append("""
            import: `carousel import \(workspace.dataFile.lastPathComponent) --list \(workspace.listName) --db NEW` \
            vs `sqlite3 NEW` (\(try sqliteVersion())) running `\(Self.peerSchema)`, `.mode csv`, \
            `.import --skip 1 FILE places`; each into a fresh database file, wall from spawn to exit and \
            peak RSS by GNU time (`/usr/bin/time -f %M`); medians of \(runs) alternating runs after one warm-up each
            """)
    }

    /// Our import into a fresh database; the last one is kept for the
    /// catalog benchmarks.
    private func importOurs(keeping: Bool) throws -> ProcessMeasurement {
        let database = workspace.path(keeping ? "catalog.sqlite" : "ours.sqlite")
        workspace.removeDatabase(database)
        let measurement = try workspace.importWithCarousel(into: database)
        if keeping {
            workspace.adoptCatalog(database)
        } else {
            workspace.removeDatabase(database)
        }
        return measurement
    }

    private func importPeer() throws -> ProcessMeasurement {
        let database = workspace.path("peer.sqlite")
        workspace.removeDatabase(database)
        defer { workspace.removeDatabase(database) }
        return try MeasuredProcess(
            executable: "sqlite3",
            arguments: [
                database.path, Self.peerSchema, ".mode csv",
                ".import --skip 1 \(workspace.dataFile.path) places",
            ],
            stderrPath: workspace.path("sqlite3.stderr").path,
            measuresPeakMemory: true
        ).run()
    }

    /// The data rows of the file (its lines less the header), for the table.
    private func countRows() throws -> Int {
        let data = try Data(contentsOf: workspace.dataFile)
        return data.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 } - 1
    }

    private func sqliteVersion() throws -> String {
        let output = workspace.path("sqlite3.version")
        _ = try MeasuredProcess(
            executable: "sqlite3", arguments: ["--version"], stdoutPath: output.path,
            stderrPath: workspace.path("sqlite3.stderr").path
        ).run()
        let text = try String(contentsOf: output, encoding: .utf8)
        return "sqlite3 " + (text.split(separator: " ").first.map(String.init) ?? "?")
    }
}
