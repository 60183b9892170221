import Foundation

/// Reads while imports run (issue 22, "Reads never wait behind imports"):
/// `GET /lists/{name}/stores` p99 ≤ 50 ms while 8 clients each import a
/// 20 MB CSV over and over through `POST /lists/{name}/import`.
///
/// The server admits `maxConcurrentImports` imports at once and answers the
/// rest 503 with `Retry-After: 1` (WorkGate); a refused client waits that
/// second and sends again, as a well-behaved client does, so 8 clients keep
/// the gate full for the whole run. The reads come from wrk on a separate
/// connection pool, measured for the same seconds.
struct ServerImportLoad {
    var workspace: Workspace
    var seconds: Int
    /// Concurrent importing clients.
    var importers = 8
    /// The size of each import body.
    var bodyBytes: Int
    /// wrk's connections for the reads: few, so that p99 is the latency a
    /// client sees rather than the queue of a saturating load.
    var readConnections = 4

    func run(into report: inout Report) throws {
        // A catalog of its own: the imports add lists the other benchmarks
        // must not see.
        let database = workspace.path("imports.sqlite")
        workspace.removeDatabase(database)
        progress("server imports: importing \(workspace.dataFile.lastPathComponent) into a catalog of its own")
        _ = try MeasuredProcess(
            executable: workspace.carousel,
            arguments: ["import", workspace.dataFile.path, "--list", workspace.listName, "--db", database.path],
            stderrPath: workspace.path("imports-import.stderr").path
        ).run()
        let tokenFile = workspace.path("token.txt")
        _ = try MeasuredProcess(
            executable: workspace.carousel,
            arguments: ["tokens", "create", "bench", "--scope", "write", "--db", database.path],
            stdoutPath: tokenFile.path, stderrPath: workspace.path("token.stderr").path
        ).run()
        let token = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let body = workspace.path("import-body.csv")
        let rows = try Self.writeBody(from: workspace.dataFile, to: body, atLeast: bodyBytes)
        let size = try FileManager.default.attributesOfItem(atPath: body.path)[.size] as? Int ?? 0

        let server = try ServerProcess(
            carousel: workspace.carousel, database: database, constantBytes: 16, log: workspace.path("serve-imports.stderr"))
        defer { server.stop() }

        progress("server imports: \(seconds) s of GET /lists/\(workspace.listName)/stores while \(importers) clients import \(Format.mebibytes(size)) each")
        let stop = Deadline()
        let tallies = ImportTallies()
        let group = DispatchGroup()
        for client in 0..<importers {
            let url = "\(server.base)/lists/load-\(client)/import?format=csv&replace=true"
            let log = workspace.path("curl-\(client).stderr")
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                Self.importLoop(url: url, token: token, body: body, until: stop, tallies: tallies, log: log)
            }
        }
        // Let the first imports get under way before measuring.
        Thread.sleep(forTimeInterval: 1)
        let reads: Wrk
        do {
            reads = try Wrk.run(
                url: server.base + "/lists/\(workspace.listName)/stores", seconds: seconds, connections: readConnections,
                samplingRSSOf: server.pid)
        } catch {
            stop.pass()
            group.wait()
            throw error
        }
        stop.pass()
        group.wait()
        let counts = tallies.snapshot()
        guard counts.imported > 0 else {
            throw BenchError("no import succeeded during the run: \(counts.describe); see \(workspace.path("serve-imports.stderr").path)")
        }
        report.rows.append(ReportRow(
            "serve: GET /lists/{name}/stores p99 during \(importers) imports", ours: Format.milliseconds(reads.p99Milliseconds),
            peer: "—", ratio: "—", target: .atMost(50, "50 ms"), measured: reads.p99Milliseconds))
        report.rows.append(ReportRow(
            "serve: the same reads, slowest and median", ours: Format.milliseconds(reads.maxMilliseconds),
            peer: Format.milliseconds(reads.p50Milliseconds), ratio: "—"))
        report.rows.append(ReportRow(
            "serve: reads answered during the imports (req/s)", ours: Format.rate(reads.requestsPerSecond), peer: "—", ratio: "—"))
        report.rows.append(ReportRow(
            "serve: read errors during the imports (socket + non-2xx)", ours: String(reads.errors), peer: "—", ratio: "—",
            target: .atMost(0, "0"), measured: Double(reads.errors)))
        report.notes.append("""
            server imports: \(importers) clients each POSTing a \(Format.mebibytes(size)) CSV (\(rows) rows: \
            \(workspace.dataFile.lastPathComponent) repeated under new ids) to /lists/load-N/import?replace=true with a \
            write token, again as soon as one ends, after 1 s on a 503 (the server admits a few at once and \
            refuses the rest); meanwhile wrk -t\(min(2, readConnections)) -c\(readConnections) \
            -d\(seconds)s --latency on GET /lists/\(workspace.listName)/stores (its first page); imports \(counts.describe); \
            reads: \(reads.errors) errors, slowest \(Format.milliseconds(reads.maxMilliseconds))
            """)
    }

    /// Writes `source`'s rows to `destination` under fresh ids (`c1-…`,
    /// `c2-…`) until it holds at least `bytes`; returns the row count.
    /// A copy at a time: memory stays at one copy of the source.
    static func writeBody(from source: URL, to destination: URL, atLeast bytes: Int) throws -> Int {
        let text = try String(contentsOf: source, encoding: .utf8)
        var lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
        guard let header = lines.first, header.hasPrefix("id,") else {
            throw BenchError("\(source.path) does not start with an id column")
        }
        lines.removeFirst()
        guard !lines.isEmpty else { throw BenchError("\(source.path) has no rows") }
        FileManager.default.createFile(atPath: destination.path, contents: nil)
        let handle = try FileHandle(forWritingTo: destination)
        defer { try? handle.close() }
        try handle.write(contentsOf: Data((header + "\n").utf8))
        var written = header.utf8.count + 1
        var rows = 0
        var copy = 0
        while written < bytes {
            copy += 1
            var chunk = ""
            chunk.reserveCapacity(text.utf8.count + lines.count * 8)
            for line in lines { chunk += "c\(copy)-\(line)\n" }
            let data = Data(chunk.utf8)
            try handle.write(contentsOf: data)
            written += data.count
            rows += lines.count
        }
        return rows
    }

    /// One client: POSTs `body` with curl until `deadline` passes, tallying
    /// each answer's status.
    static func importLoop(url: String, token: String, body: URL, until deadline: Deadline, tallies: ImportTallies, log: URL) {
        while !deadline.hasPassed {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            // No `Expect: 100-continue`: every body is sent, as the probe of
            // issue 22 sent it, whatever the answer.
            process.arguments = [
                "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "600", "-H", "Expect:",
                "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: text/csv", "--data-binary", "@\(body.path)", url,
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle(forWritingAtPath: log.path) ?? FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                tallies.add(status: 0)
                return
            }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let status = Int(text) ?? 0
            tallies.add(status: status)
            // 503 carries Retry-After: 1.
            if status == 503 { Thread.sleep(forTimeInterval: 1) }
        }
    }
}

/// A flag the measuring thread sets when the run is over.
final class Deadline: @unchecked Sendable {
    private let lock = NSLock()
    private var passed = false

    var hasPassed: Bool { lock.withLock { passed } }
    func pass() { lock.withLock { passed = true } }
}

/// The statuses the import clients got.
final class ImportTallies: @unchecked Sendable {
    struct Counts {
        var imported = 0
        var busy = 0
        var other: [Int: Int] = [:]

        var describe: String {
            var parts = ["\(imported) done (200)", "\(busy) refused (503, retried)"]
            for (status, count) in other.sorted(by: { $0.key < $1.key }) {
                parts.append("\(count) answered \(status == 0 ? "nothing (curl failed)" : String(status))")
            }
            return parts.joined(separator: ", ")
        }
    }

    private let lock = NSLock()
    private var counts = Counts()

    func add(status: Int) {
        lock.withLock {
            switch status {
            case 200: counts.imported += 1
            case 503: counts.busy += 1
            default: counts.other[status, default: 0] += 1
            }
        }
    }

    func snapshot() -> Counts { lock.withLock { counts } }
}
