import Foundation

extension ServerBenchmark {
    /// pgbench's clients in `postgis-knn.sh`, the peer of the throughput.
    static let sqlitePathConnections = 32

    /// The server's random points on the SQLite path (`--nearest-in-memory
    /// 0`: every answer searched in the catalog, as the CLI always does, as
    /// the server does above 10⁶ stores and until a new snapshot is ready):
    /// 1 connection for the latency a lone client sees (issue 25's bounds),
    /// then 32 for the throughput compared with PostGIS under pgbench at 32
    /// clients (`Benchmarks/scripts/postgis-knn.sh`): on 2 cores, 32
    /// clients queue behind each other, so their latency has no bound.
    func runSQLitePath(database: URL, bodyBytes: Int, randomScript: URL, into report: inout Report) throws {
        let server = try ServerProcess(
            carousel: workspace.carousel, database: database, constantBytes: bodyBytes,
            log: workspace.path("serve-sqlite.stderr"), extraArguments: ["--nearest-in-memory", "0"])
        defer { server.stop() }
        for clients in [1, Self.sqlitePathConnections] {
            progress("server: wrk \(seconds) s on /stores/near from random points, SQLite path, \(clients) connection(s)")
            let run = try Wrk.run(url: server.base, script: randomScript, seconds: seconds, connections: clients, samplingRSSOf: nil)
            if run.errors > 0 { throw BenchError("the SQLite path answered \(run.errors) errors") }
            let label = "serve, SQLite path, random points, \(clients) conn."
            guard clients == 1 else {
                report.rows.append(ReportRow(
                    "\(label): req/s (p50, p99)",
                    ours: "\(Format.rate(run.requestsPerSecond)) (\(Format.milliseconds(run.p50Milliseconds)), "
                        + "\(Format.milliseconds(run.p99Milliseconds)))",
                    peer: "—", ratio: "—"))
                continue
            }
            report.rows.append(ReportRow(
                "\(label): p50", ours: Format.milliseconds(run.p50Milliseconds), peer: Format.rate(run.requestsPerSecond),
                target: .atMost(0.5, "0.5 ms"), measured: run.p50Milliseconds))
            report.rows.append(ReportRow(
                "\(label): p99", ours: Format.milliseconds(run.p99Milliseconds), peer: "—",
                target: .atMost(2, "2 ms"), measured: run.p99Milliseconds))
        }
        report.notes.append("""
            server, SQLite path: `carousel serve --nearest-in-memory 0` on the same catalog, wrk -t2 -d\(seconds)s \
            --latency with 1 and \(Self.sqlitePathConnections) connections on GET /stores/near?limit=10 from the same seeded uniform \
            points; the peer column of its p50 rows is its req/s
            """)
    }
}
