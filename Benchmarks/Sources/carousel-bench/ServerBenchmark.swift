import Foundation

/// `carousel serve` under load (release, loopback): wrk with 2 threads × 64
/// connections on `GET /stores/near` of the 234,908-place list against a
/// route of the same server answering a constant body of the same size
/// (the framework's ceiling, measured in the same run); p99, errors, the
/// server's resident memory from the 10th to the last second. Its other
/// parts: how many live sessions at 60 frames per second it holds before
/// p99 frame-to-message latency passes 50 ms (``SessionRamp``), reads while
/// imports run (``ServerImportLoad``) and cameras under load
/// (``ServerRealtime``).
struct ServerBenchmark {
    /// What a run measures: `--server-part`, all unless given.
    enum Part: String, CaseIterable {
        /// Requests per second and p99 on each route, the middleware's
        /// cost and the SQLite path.
        case throughput
        /// How many live sessions at 60 frames a second it holds, beside
        /// what a server that does nothing else holds (``SessionFloor``),
        /// from three clients: C's (``SessionLoadProgram``), NIO's
        /// (``SessionLoad``) and Python's.
        case sessions
        /// Reads while 8 clients import.
        case imports
        /// Live sessions' cameras while imports and heavy reads run.
        case realtime
    }

    var workspace: Workspace
    var parts: [Part] = Part.allCases
    /// The size of each import body in the imports part.
    var importBytes = 20_000_000
    /// wrk's duration per route, in seconds.
    var seconds: Int
    var connections: Int
    /// Seconds per step of the sessions ramp.
    var sessionSeconds: Double
    var maxSessions: Int
    /// The realtime part's sessions and seconds per load mix.
    var realtimeSessions: Int
    var realtimeSeconds: Int
    /// The Python (with `websockets`) that drives the sessions; nil skips them.
    var python: String?
    var scriptsFolder: URL
    /// Whether the SQLite path is compared with PostGIS, in a cluster of
    /// its own (not in a smoke run, which measures nothing).
    var measuresPostGIS = true
    /// A fixed point (Seoul): every request the same query, as the constant
    /// route is the same body.
    static let nearQuery = "lat=37.5665&lng=126.978&limit=10"

    /// wrk's Lua: each request from a point uniform over the sphere
    /// (latitude from the arcsine of a uniform sine), seeded; the file is
    /// shared with Benchmarks/scripts/postgres-serve.sh.
    static let randomPointsScript = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/random-near.lua")

    func run(into report: inout Report) throws {
        if parts.contains(.throughput) { try runThroughput(into: &report) }
        if parts.contains(.sessions) { try runSessions(into: &report) }
        if parts.contains(.imports) {
            try ServerImportLoad(workspace: workspace, seconds: seconds, bodyBytes: importBytes).run(into: &report)
        }
        if parts.contains(.realtime) {
            guard let python else { throw BenchError("the realtime part needs a Python with websockets (--python)") }
            try ServerRealtime(
                workspace: workspace, python: python, scriptsFolder: scriptsFolder, seconds: realtimeSeconds,
                sessions: realtimeSessions, baseline: ProcessInfo.processInfo.environment["REALTIME_BASELINE"]
            ).run(into: &report)
        }
    }

    func runThroughput(into report: inout Report) throws {
        let database = try workspace.catalog()
        // The constant body is as long as the near answer (the CLI prints the same document).
        let nearJSON = workspace.path("near.json")
        _ = try MeasuredProcess(
            executable: workspace.carousel,
            arguments: ["near", "--lat", "37.5665", "--lng", "126.978", "--limit", "10", "--json", "--db", database.path],
            stdoutPath: nearJSON.path, stderrPath: workspace.path("near.stderr").path
        ).run()
        let bodyBytes = try Data(contentsOf: nearJSON).count - 1  // print's newline
        // Every production middleware on, as `serve` runs by default.
        let server = try ServerProcess(
            carousel: workspace.carousel, database: database, constantBytes: bodyBytes, log: workspace.path("serve.stderr"))
        defer { server.stop() }
        // The server builds its nearest-store snapshot at the first
        // nearest request (answered by SQLite meanwhile): one second of
        // them, then time for the build, so that no run below shares the
        // cores with it.
        progress("server: warming /stores/near (the snapshot's build)")
        _ = try Wrk.run(url: server.base + "/stores/near?" + Self.nearQuery, seconds: 1, connections: 1, samplingRSSOf: nil)
        Thread.sleep(forTimeInterval: 5)

        progress("server: wrk \(seconds) s on the constant route")
        let constant = try Wrk.run(url: server.base + "/constant", seconds: seconds, connections: connections, samplingRSSOf: nil)
        progress("server: wrk \(seconds) s on /stores/near")
        let near = try Wrk.run(
            url: server.base + "/stores/near?" + Self.nearQuery, seconds: seconds, connections: connections,
            samplingRSSOf: server.pid)
        progress("server: wrk \(seconds) s on /stores/near from random points")
        let randomScript = Self.randomPointsScript
        let random = try Wrk.run(
            url: server.base, script: randomScript, seconds: seconds, connections: connections, samplingRSSOf: nil)
        let share = near.requestsPerSecond / constant.requestsPerSecond
        report.rows.append(ReportRow(
            "serve: GET /stores/near vs constant body (req/s)",
            ours: Format.rate(near.requestsPerSecond), peer: Format.rate(constant.requestsPerSecond),
            ratio: String(format: "%.0f %%", share * 100), target: .atLeast(0.5, "50 %"), measured: share))
        report.rows.append(ReportRow(
            "serve: GET /stores/near from random points (req/s)",
            ours: Format.rate(random.requestsPerSecond), peer: Format.rate(constant.requestsPerSecond),
            ratio: String(format: "%.0f %%", random.requestsPerSecond / constant.requestsPerSecond * 100)))
        report.rows.append(ReportRow(
            "serve: GET /stores/near p99", ours: Format.milliseconds(near.p99Milliseconds),
            peer: Format.milliseconds(constant.p99Milliseconds), ratio: "—",
            target: .atMost(10, "10 ms"), measured: near.p99Milliseconds))
        let errors = near.errors + constant.errors + random.errors
        report.rows.append(ReportRow(
            "serve: errors (socket + non-2xx)", ours: String(near.errors + random.errors), peer: String(constant.errors), ratio: "—",
            target: .atMost(0, "0"), measured: Double(errors)))
        try measureMiddlewareCost(database: database, bodyBytes: bodyBytes, with: (constant, near), into: &report)
        if let early = near.rssAt10s, let late = near.rssAtEnd {
            let change = Double(late - early) / Double(early)
            report.rows.append(ReportRow(
                "serve: RSS 10th s → last s under load",
                ours: "\(Format.mebibytes(early)) → \(Format.mebibytes(late))", peer: "—",
                ratio: String(format: "%+.1f %%", change * 100), target: .atMost(0.10, "±10 %"), measured: abs(change)))
        }
        report.notes.append("""
            server: `carousel serve` (this build) on 127.0.0.1 over the \(workspace.listName) catalog; \
            wrk -t2 -c\(connections) -d\(seconds)s --latency, first on GET /constant (a fixed \(bodyBytes)-byte JSON \
            body, the size of the near answer), then GET /stores/near?\(Self.nearQuery), then GET /stores/near \
            with limit=10 from points uniform over the globe (seeded; most of them at sea, where the nearest \
            stores are far and the search longest; p99 \(Format.milliseconds(random.p99Milliseconds))); RSS of \
            the server from /proc, sampled every second
            """)

        try runSQLitePath(database: database, bodyBytes: bodyBytes, randomScript: randomScript, into: &report)

    }

    /// The sessions ramp: sessions double (then bisect) until the p99 of
    /// frame-to-camera latency passes 50 ms. First the floor
    /// (``SessionFloor``), then our server, both from the C client
    /// (``SessionLoadProgram``); then our server from NIO's client
    /// (``SessionLoad``) and from Python's (`sessions.py`).
    func runSessions(into report: inout Report) throws {
        let database = try workspace.catalog()
        let path = "/lists/\(workspace.listName)/session"
        let client = workspace.path("session-load")
        try SessionLoadProgram.build(source: scriptsFolder.appendingPathComponent("session-load.c"), binary: client)
        let start = min(8, maxSessions)

        progress("server: the floor (session-floor.c), live sessions at 60 fps from session-load.c, \(sessionSeconds) s per step")
        let floor = try SessionFloor(source: scriptsFolder.appendingPathComponent("session-floor.c"), binary: workspace.path("session-floor"))
        let floorRamp: (sessions: Int, steps: [SessionRamp.Step])
        do {
            defer { floor.stop() }
            let load = SessionLoadProgram(binary: client, port: floor.port, path: path, serverPid: floor.pid)
            floorRamp = try SessionRamp.run(start: start, max: maxSessions) { try load.step(sessions: $0, seconds: sessionSeconds) }
        }
        report.notes.append("server sessions, the floor (session-floor.c) from session-load.c: " + floorRamp.steps.map(\.line).joined(separator: "; "))

        // The session cap above the ramp's most, so the ramp measures latency.
        let server = try ServerProcess(
            carousel: workspace.carousel, database: database, constantBytes: 16,
            log: workspace.path("serve-sessions.stderr"), extraArguments: ["--max-sessions", String(max(1000, maxSessions))])
        defer { server.stop() }
        progress("server: live sessions at 60 fps from session-load.c, \(sessionSeconds) s per step")
        let load = SessionLoadProgram(binary: client, port: server.port, path: path, serverPid: server.pid)
        let (sessions, steps) = try SessionRamp.run(start: start, max: maxSessions) { try load.step(sessions: $0, seconds: sessionSeconds) }
        report.rows.append(ReportRow(
            "serve: live sessions at 60 fps, p99 ≤ 50 ms (C client)", ours: String(sessions),
            peer: "\(floorRamp.sessions) (the floor)",
            ratio: floorRamp.sessions > 0 ? String(format: "%.2f×", Double(sessions) / Double(floorRamp.sessions)) : "—",
            target: .atLeast(2000, "2,000"), measured: Double(sessions)))
        // The CPU a frame over the steps, ours beside the floor's: the server's, then the C client's own.
        for (label, figure) in [
            ("serve: server CPU a session frame (C client's steps)", \SessionRamp.Step.serverMicrosecondsPerFrame),
            ("serve: the C client's own CPU a session frame (its steps)", \SessionRamp.Step.clientMicrosecondsPerFrame),
        ] {
            guard let ours = SessionRamp.microsecondsRange(steps.compactMap { $0[keyPath: figure] }) else { continue }
            let floor = SessionRamp.microsecondsRange(floorRamp.steps.compactMap { $0[keyPath: figure] })
            report.rows.append(ReportRow(label, ours: ours, peer: floor.map { "\($0) (the floor)" } ?? "—", ratio: "—"))
        }
        report.notes.append("server sessions, session-load.c: " + steps.map(\.line).joined(separator: "; "))

        progress("server: live sessions at 60 fps from NIO's client, \(sessionSeconds) s per step")
        let nio = SessionLoad(port: server.port, path: path, serverPid: server.pid)
        let nioRamp = try SessionRamp.run(start: start, max: maxSessions) { try nio.step(sessions: $0, seconds: sessionSeconds) }
        report.rows.append(ReportRow(
            "serve: live sessions at 60 fps, p99 ≤ 50 ms (NIO client)", ours: String(nioRamp.sessions), peer: "—", ratio: "—"))
        report.notes.append("server sessions, NIO client: " + nioRamp.steps.map(\.line).joined(separator: "; "))

        guard let python else {
            report.notes.append("server sessions, Python client: skipped (no Python with websockets; run scripts/benchmark, which makes .build-venv)")
            return
        }
        progress("server: live sessions at 60 fps from Python's client, \(sessionSeconds) s per step")
        let output = workspace.path("sessions.out")
        _ = try MeasuredProcess(
            executable: python,
            arguments: [
                scriptsFolder.appendingPathComponent("sessions.py").path,
                server.ws + "/lists/\(workspace.listName)/session", "--seconds", String(sessionSeconds),
                "--max", String(maxSessions), "--start", String(min(8, maxSessions)), "--server-pid", String(server.pid),
            ],
            stdoutPath: output.path, stderrPath: workspace.path("sessions.stderr").path
        ).run()
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        guard let last = lines.last, last.hasPrefix("sessions: "), let pythonSessions = Int(last.dropFirst("sessions: ".count)) else {
            throw BenchError("sessions.py printed no count: \(lines.suffix(3))")
        }
        report.rows.append(ReportRow(
            "serve: live sessions at 60 fps, p99 ≤ 50 ms (Python client)", ours: String(pythonSessions), peer: "—", ratio: "—"))
        report.notes.append("server sessions, Python client: " + lines.filter { $0.hasPrefix("step:") }.joined(separator: "; "))
    }
}

extension ServerBenchmark {
    /// The same two routes on a server with metrics and the request log
    /// off (`--no-metrics --no-request-log`, hidden flags): what they cost.
    func measureMiddlewareCost(
        database: URL, bodyBytes: Int, with on: (constant: Wrk, near: Wrk), into report: inout Report
    ) throws {
        let bare = try ServerProcess(
            carousel: workspace.carousel, database: database, constantBytes: bodyBytes,
            log: workspace.path("serve-bare.stderr"), extraArguments: ["--no-metrics", "--no-request-log"])
        defer { bare.stop() }
        progress("server: wrk \(seconds) s on each route with metrics and logging off")
        let constant = try Wrk.run(url: bare.base + "/constant", seconds: seconds, connections: connections, samplingRSSOf: nil)
        let near = try Wrk.run(
            url: bare.base + "/stores/near?" + Self.nearQuery, seconds: seconds, connections: connections, samplingRSSOf: nil)
        report.rows.append(ReportRow(
            "serve: constant route, metrics + log on vs off (req/s)",
            ours: Format.rate(on.constant.requestsPerSecond), peer: Format.rate(constant.requestsPerSecond),
            ratio: String(format: "%.0f %%", on.constant.requestsPerSecond / constant.requestsPerSecond * 100)))
        report.rows.append(ReportRow(
            "serve: GET /stores/near, metrics + log on vs off (req/s)",
            ours: Format.rate(on.near.requestsPerSecond), peer: Format.rate(near.requestsPerSecond),
            ratio: String(format: "%.0f %%", on.near.requestsPerSecond / near.requestsPerSecond * 100)))
        report.rows.append(ReportRow(
            "serve: GET /stores/near p99, metrics + log on vs off", ours: Format.milliseconds(on.near.p99Milliseconds),
            peer: Format.milliseconds(near.p99Milliseconds), ratio: "—"))
    }
}

/// `carousel serve --port 0` as a child process, its port read from its log.
final class ServerProcess {
    let process = Process()
    let port: Int
    var pid: Int32 { process.processIdentifier }
    var base: String { "http://127.0.0.1:\(port)" }
    var ws: String { "ws://127.0.0.1:\(port)" }

    init(carousel: String, database: URL, constantBytes: Int, log: URL, extraArguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: carousel)
        process.arguments = [
            "serve", "--db", database.path, "--host", "127.0.0.1", "--port", "0",
            "--constant-route-bytes", String(constantBytes),
        ] + extraArguments
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardError = handle
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var found: Int?
        for _ in 0..<400 where found == nil {  // bounded: 20 s
            Thread.sleep(forTimeInterval: 0.05)
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"on http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
                found = Int(text[range].dropFirst("on http://127.0.0.1:".count).dropLast())
            }
            if !process.isRunning { break }
        }
        guard let found else {
            process.terminate()
            throw BenchError("carousel serve did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        port = found
    }

    func stop() {
        guard process.isRunning else { return }
        process.interrupt()  // SIGINT: the graceful shutdown
        process.waitUntilExit()
    }
}

/// One wrk run and what it printed.
struct Wrk {
    var requestsPerSecond: Double
    var p50Milliseconds: Double
    var p99Milliseconds: Double
    /// The slowest request (wrk's Latency Max).
    var maxMilliseconds: Double
    var errors: Int
    var rssAt10s: Int?
    var rssAtEnd: Int?
    /// All wrk printed, with what the script's `done` wrote.
    var output = ""

    /// wrk on `url`, or with `script` (a Lua file making each request) on
    /// its host; `scriptArguments` go to the script's `init`.
    static func run(
        url: String, script: URL? = nil, scriptArguments: [String] = [], seconds: Int, connections: Int, samplingRSSOf pid: Int32?
    ) throws -> Wrk {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
            throw BenchError("the server benchmark loads it with wrk: apt-get install wrk")
        }
        // wrk needs at least as many connections as threads.
        process.arguments = ["-t\(min(2, connections))", "-c\(connections)", "-d\(seconds)s", "--latency"] + (script.map { ["-s", $0.path] } ?? []) + [url]
            + (scriptArguments.isEmpty ? [] : ["--"] + scriptArguments)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let start = Date()
        try process.run()
        var samples: [(Double, Int)] = []
        while process.isRunning {
            Thread.sleep(forTimeInterval: 1)
            if let pid, let rss = residentBytes(of: pid) { samples.append((Date().timeIntervalSince(start), rss)) }
        }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard let rps = number(after: "Requests/sec:", in: text) else { throw BenchError("wrk printed no rate:\n\(text)") }
        var p50 = Double.nan, p99 = Double.nan, slowest = Double.nan
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            // "Latency  Avg  Stdev  Max  +/- Stdev"
            if trimmed.hasPrefix("Latency") {
                let fields = trimmed.split(separator: " ", omittingEmptySubsequences: true)
                if fields.count >= 4 { slowest = milliseconds(String(fields[3])) }
            }
            let value = milliseconds(String(line.split(separator: " ", omittingEmptySubsequences: true).last ?? ""))
            if trimmed.hasPrefix("50%") { p50 = value }
            if trimmed.hasPrefix("99%") { p99 = value }
        }
        var errors = 0
        if let line = text.split(separator: "\n").first(where: { $0.contains("Socket errors:") }) {
            errors += line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.reduce(0, +)
        }
        if let non2xx = number(after: "Non-2xx or 3xx responses:", in: text) { errors += Int(non2xx) }
        let early = samples.first { $0.0 >= 10 }?.1
        return Wrk(
            requestsPerSecond: rps, p50Milliseconds: p50, p99Milliseconds: p99, maxMilliseconds: slowest, errors: errors, rssAt10s: early, rssAtEnd: samples.last?.1, output: text)
    }

    private static func number(after label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        return Double(text[range.upperBound...].prefix { $0 != "\n" }.trimmingCharacters(in: .whitespaces))
    }

    /// wrk's `812.00us`, `1.23ms`, `2.00s` in milliseconds.
    private static func milliseconds(_ text: String) -> Double {
        if text.hasSuffix("us") { return (Double(text.dropLast(2)) ?? .nan) / 1000 }
        if text.hasSuffix("ms") { return Double(text.dropLast(2)) ?? .nan }
        if text.hasSuffix("s") { return (Double(text.dropLast()) ?? .nan) * 1000 }
        return .nan
    }

    /// VmRSS of `pid` from /proc, in bytes.
    private static func residentBytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 * 1024 }
    }
}
