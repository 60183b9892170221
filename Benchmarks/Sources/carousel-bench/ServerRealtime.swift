import Foundation

/// Real time under load (issue 40): 100 live sessions on the 44 sample
/// stores, each swiping to the next card as a person does and waiting for
/// its camera, while the server does its heaviest work beside them — two
/// loops of imports replacing a list of the data file's places, two loops
/// of world-wide cluster answers (zooms 2–12) and searches, or both. A
/// camera's lateness is how long after the debounce (250 ms after the
/// swipe's last frame) it arrived (`Benchmarks/scripts/realtime.py`).
///
/// With `baseline` (`REALTIME_BASELINE`, a `carousel` binary of another
/// build, as its `scripts/install` laid it out), the same mixes run
/// against it in the same run: the peer column, lateness and the loads'
/// throughput side by side.
struct ServerRealtime {
    var workspace: Workspace
    var python: String
    var scriptsFolder: URL
    var seconds: Int
    var sessions = 100
    /// Another build's `carousel`, measured the same way.
    var baseline: String?

    /// The loads beside the sessions, and the p99 lateness each must keep.
    static let mixes: [(load: String, words: String, p99: Double)] = [
        ("none", "no load", 20), ("imports", "two import loops", 50), ("reads", "two cluster and search loops", 50),
        ("both", "imports, clusters and searches", 50),
    ]

    /// What one mix gave.
    struct Outcome {
        var swipes: Int
        var cameras: Int
        var missing: Int
        var p50: Double
        var p99: Double
        var max: Double
        /// Requests done per second, by load (`import`, `clusters`, `search`).
        var perSecond: [String: Double]

        init(json: Data) throws {
            guard let object = try JSONSerialization.jsonObject(with: json) as? [String: Any],
                let lateness = object["lateness_ms"] as? [String: Any]
            else { throw BenchError("realtime.py printed no result") }
            swipes = object["swipes"] as? Int ?? 0
            cameras = object["cameras"] as? Int ?? 0
            missing = object["missing"] as? Int ?? 0
            p50 = lateness["p50"] as? Double ?? .infinity
            p99 = lateness["p99"] as? Double ?? .infinity
            max = lateness["max"] as? Double ?? .infinity
            perSecond = [:]
            for (kind, tally) in object["loads"] as? [String: [String: Any]] ?? [:] {
                perSecond[kind] = tally["per_second"] as? Double ?? 0
            }
        }
    }

    func run(into report: inout Report) throws {
        let database = workspace.path("realtime.sqlite")
        workspace.removeDatabase(database)
        progress("server realtime: the sample list, and \(workspace.dataFile.lastPathComponent) twice (world, w2)")
        let sample = scriptsFolder.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleData/seoul-coffee.csv")
        for (file, list) in [(sample, "seoul"), (workspace.dataFile, "world"), (workspace.dataFile, "w2")] {
            _ = try MeasuredProcess(
                executable: workspace.carousel, arguments: ["import", file.path, "--list", list, "--db", database.path],
                stderrPath: workspace.path("realtime-import.stderr").path
            ).run()
        }
        let tokenFile = workspace.path("realtime-token.txt")
        _ = try MeasuredProcess(
            executable: workspace.carousel, arguments: ["tokens", "create", "bench", "--scope", "write", "--db", database.path],
            stdoutPath: tokenFile.path, stderrPath: workspace.path("realtime-token.stderr").path
        ).run()
        let token = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)

        var ours: [String: Outcome] = [:]
        var theirs: [String: Outcome] = [:]
        for mix in Self.mixes {
            ours[mix.load] = try measure(carousel: workspace.carousel, database: database, load: mix.load, token: token, tag: "ours")
            if let baseline {
                theirs[mix.load] = try measure(carousel: baseline, database: database, load: mix.load, token: token, tag: "baseline")
            }
        }
        for mix in Self.mixes {
            guard let outcome = ours[mix.load] else { continue }
            let peer = theirs[mix.load]
            report.rows.append(ReportRow(
                "serve realtime, \(mix.words): camera lateness p99", ours: Format.milliseconds(outcome.p99),
                peer: peer.map { Format.milliseconds($0.p99) } ?? "—", ratio: "—",
                target: .atMost(mix.p99, "\(Int(mix.p99)) ms"), measured: outcome.p99))
            if mix.load != "none" {
                report.rows.append(ReportRow(
                    "serve realtime, \(mix.words): camera lateness max", ours: Format.milliseconds(outcome.max),
                    peer: peer.map { Format.milliseconds($0.max) } ?? "—", ratio: "—",
                    target: .atMost(250, "250 ms"), measured: outcome.max))
            }
            report.rows.append(ReportRow(
                "serve realtime, \(mix.words): swipes without a camera", ours: "\(outcome.missing) of \(outcome.swipes)",
                peer: peer.map { "\($0.missing) of \($0.swipes)" } ?? "—", ratio: "—",
                target: .atMost(0, "0"), measured: Double(outcome.missing)))
            for kind in outcome.perSecond.keys.sorted() {
                let rate = outcome.perSecond[kind] ?? 0
                let peerRate = peer?.perSecond[kind]
                report.rows.append(ReportRow(
                    "serve realtime, \(mix.words): \(kind) requests done (per s)", ours: String(format: "%.2f", rate),
                    peer: peerRate.map { String(format: "%.2f", $0) } ?? "—",
                    ratio: peerRate.map { $0 > 0 ? String(format: "%.2f×", rate / $0) : "—" } ?? "—"))
            }
        }
        report.notes.append("""
            server realtime: `carousel serve` over a catalog of the 44 sample stores (seoul) and \
            \(workspace.dataFile.lastPathComponent) as lists world and w2; \(sessions) WebSocket sessions on seoul, each \
            swiping to the next card (12 frames over 200 ms), waiting for the camera (given up after 5 s: missing), \
            then pausing 100–300 ms, for \(seconds) s per mix; lateness = arrival − (last frame + 250 ms). Loads: \
            imports = two loops of POST /lists/w2/import?replace=true with the data file; reads = two loops of \
            GET /lists/world/clusters over the world box at zooms 2–12 and two of GET /stores/search?list=world&q=san\
            \(baseline.map { "; peer: the same mixes against \($0), alternating with ours" } ?? "")
            """)
    }

    private func measure(carousel: String, database: URL, load: String, token: String, tag: String) throws -> Outcome {
        let server = try ServerProcess(
            carousel: carousel, database: database, constantBytes: 16, log: workspace.path("serve-realtime-\(tag).stderr"),
            extraArguments: ["--max-sessions", String(max(1000, sessions))])
        defer { server.stop() }
        progress("server realtime (\(tag)): \(sessions) sessions, load \(load), \(seconds) s")
        let output = workspace.path("realtime-\(tag)-\(load).json")
        _ = try MeasuredProcess(
            executable: python,
            arguments: [
                scriptsFolder.appendingPathComponent("realtime.py").path, server.base, "--list", "seoul", "--cards", "44",
                "--sessions", String(sessions), "--seconds", String(seconds), "--load", load,
                "--import-list", "w2", "--import-file", workspace.dataFile.path, "--token", token, "--clusters-list", "world",
            ],
            stdoutPath: output.path, stderrPath: workspace.path("realtime-\(tag)-\(load).stderr").path
        ).run()
        return try Outcome(json: Data(contentsOf: output))
    }
}
