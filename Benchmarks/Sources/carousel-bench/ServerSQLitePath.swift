import Foundation

extension ServerBenchmark {
    /// pgbench's clients in `postgis-knn.sh`, the peer of the throughput.
    static let sqlitePathConnections = 32

    /// The server's random points on the SQLite path (`--nearest-in-memory
    /// 0`: every answer searched in the catalog, as the CLI always does, as
    /// the server does above 10⁶ stores and until a new snapshot is ready):
    /// 1 connection for the latency a lone client sees (issue 25's bounds),
    /// then 32 for the throughput. Each is compared, in the same run, with
    /// the peer a user would pick instead: PostGIS geography KNN on the same
    /// places under pgbench at as many clients, from points drawn the same
    /// way (`Benchmarks/scripts/postgis-knn.sh`). On 2 cores, 32 clients
    /// queue behind each other, so their latency has no bound.
    func runSQLitePath(database: URL, bodyBytes: Int, randomScript: URL, into report: inout Report) throws {
        var runs: [(clients: Int, run: Wrk)] = []
        var floor: Wrk?
        do {
            let server = try ServerProcess(
                carousel: workspace.carousel, database: database, constantBytes: bodyBytes,
                log: workspace.path("serve-sqlite.stderr"), extraArguments: ["--nearest-in-memory", "0"])
            defer { server.stop() }
            for clients in [1, Self.sqlitePathConnections] {
                progress("server: wrk \(seconds) s on /stores/near from random points, SQLite path, \(clients) connection(s)")
                let run = try Wrk.run(url: server.base, script: randomScript, seconds: seconds, connections: clients, samplingRSSOf: nil)
                if run.errors > 0 { throw BenchError("the SQLite path answered \(run.errors) errors") }
                runs.append((clients, run))
            }
            // The floor of HTTP at one connection: a fixed body of the near
            // answer's size, which touches no catalog and no lane. What a
            // lone client's nearest search can reach at most here.
            progress("server: wrk \(seconds) s on /constant, 1 connection (the floor of HTTP)")
            floor = try Wrk.run(url: server.base + "/constant", seconds: seconds, connections: 1, samplingRSSOf: nil)
        }
        let peer = try postgisKNN()
        if let floor {
            let pgbench = peer?[1]
            report.rows.append(ReportRow(
                "serve: GET /constant, 1 conn. (the floor of HTTP): req/s vs PostGIS KNN",
                ours: "\(Format.rate(floor.requestsPerSecond)) (p50 \(Format.milliseconds(floor.p50Milliseconds)))",
                peer: pgbench.map { "\(Format.rate($0)) (pgbench)" } ?? "—",
                ratio: pgbench.map { String(format: "%.2f×", floor.requestsPerSecond / $0) } ?? "—"))
        }
        for (clients, run) in runs {
            let label = "serve, SQLite path, random points, \(clients) conn."
            if clients == 1 {
                report.rows.append(ReportRow(
                    "\(label): p50", ours: Format.milliseconds(run.p50Milliseconds), peer: "—",
                    target: .atMost(0.5, "0.5 ms"), measured: run.p50Milliseconds))
                report.rows.append(ReportRow(
                    "\(label): p99", ours: Format.milliseconds(run.p99Milliseconds), peer: "—",
                    target: .atMost(2, "2 ms"), measured: run.p99Milliseconds))
            }
            let ours = "\(Format.rate(run.requestsPerSecond))"
                + (clients == 1 ? "" : " (p50 \(Format.milliseconds(run.p50Milliseconds)))")
            guard let rate = peer?[clients] else {
                report.rows.append(ReportRow("\(label): req/s", ours: ours, peer: "—", ratio: "—"))
                continue
            }
            let ratio = run.requestsPerSecond / rate
            report.rows.append(ReportRow(
                "\(label): req/s vs PostGIS KNN", ours: ours, peer: "\(Format.rate(rate)) (pgbench)",
                ratio: String(format: "%.2f×", ratio), target: .atLeast(2, "2×"), measured: ratio))
        }
        report.notes.append("""
            server, SQLite path: `carousel serve --nearest-in-memory 0` on the same catalog, wrk -t2 -d\(seconds)s \
            --latency with 1 and \(Self.sqlitePathConnections) connections on GET /stores/near?limit=10 from the same seeded uniform \
            points; its peer: \(peer == nil ? "skipped (PostgreSQL 15 with PostGIS is not installed, or this is a smoke run)" : """
            PostGIS 3 geography KNN (`ORDER BY geog <-> point LIMIT 10`, GiST) on the same places in a throwaway \
            PostgreSQL 15 cluster, pgbench -T\(seconds) at 1 and \(Self.sqlitePathConnections) clients over a Unix \
            socket, points drawn the same way (Benchmarks/scripts/postgis-knn.sh)
            """)
            """)
    }

    /// PostGIS KNN queries per second by pgbench clients, from
    /// `postgis-knn.sh` on the same places; nil when there is no PostgreSQL
    /// 15 to start (or in a smoke run, which measures nothing).
    func postgisKNN() throws -> [Int: Double]? {
        guard measuresPostGIS, FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/15/bin/initdb") else { return nil }
        progress("server: PostGIS KNN under pgbench, \(seconds) s at 1 and \(Self.sqlitePathConnections) clients")
        let output = workspace.path("postgis-knn.out")
        _ = try MeasuredProcess(
            executable: "bash",
            arguments: [scriptsFolder.appendingPathComponent("postgis-knn.sh").path, workspace.dataFile.path, String(seconds)],
            stdoutPath: output.path, stderrPath: workspace.path("postgis-knn.stderr").path
        ).run()
        var rates: [Int: Double] = [:]
        for line in try String(contentsOf: output, encoding: .utf8).split(separator: "\n") where line.hasPrefix("clients ") {
            // `clients N: X q/s`
            let words = line.split(separator: " ")
            guard words.count >= 3, let clients = Int(words[1].dropLast()), let rate = Double(words[2]) else { continue }
            rates[clients] = rate
        }
        guard rates[1] != nil, rates[Self.sqlitePathConnections] != nil else {
            throw BenchError("postgis-knn.sh printed no rates: see \(output.path)")
        }
        return rates
    }
}
