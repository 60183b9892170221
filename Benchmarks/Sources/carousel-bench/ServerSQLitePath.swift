import Foundation

extension ServerBenchmark {
    /// The server's random points on the SQLite path (`--nearest-in-memory
    /// 0`: every answer searched in the catalog, as the CLI always does, as
    /// the server does above 10⁶ stores and until a new snapshot is ready):
    /// 1 connection for the latency a lone client sees, then the usual load.
    func runSQLitePath(database: URL, bodyBytes: Int, randomScript: URL, into report: inout Report) throws {
        let server = try ServerProcess(
            carousel: workspace.carousel, database: database, constantBytes: bodyBytes,
            log: workspace.path("serve-sqlite.stderr"), extraArguments: ["--nearest-in-memory", "0"])
        defer { server.stop() }
        for clients in [1, connections] {
            progress("server: wrk \(seconds) s on /stores/near from random points, SQLite path, \(clients) connection(s)")
            let run = try Wrk.run(url: server.base, script: randomScript, seconds: seconds, connections: clients, samplingRSSOf: nil)
            if run.errors > 0 { throw BenchError("the SQLite path answered \(run.errors) errors") }
            let label = "serve, SQLite path, random points, \(clients) conn."
            report.rows.append(ReportRow(
                "\(label): p50", ours: Format.milliseconds(run.p50Milliseconds), peer: Format.rate(run.requestsPerSecond),
                target: .atMost(0.5, "0.5 ms"), measured: run.p50Milliseconds))
            report.rows.append(ReportRow(
                "\(label): p99", ours: Format.milliseconds(run.p99Milliseconds), peer: "—",
                target: .atMost(2, "2 ms"), measured: run.p99Milliseconds))
        }
        report.notes.append("""
            server, SQLite path: `carousel serve --nearest-in-memory 0` on the same catalog, wrk -t2 -d\(seconds)s \
            --latency with 1 and \(connections) connections on GET /stores/near?limit=10 from the same seeded uniform \
            points; the peer column of its p50 rows is its req/s
            """)
    }
}
