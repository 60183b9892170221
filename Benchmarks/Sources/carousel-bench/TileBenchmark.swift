import Foundation
import StoreCatalog
import SyntheticStores

/// Issue 43's map tiles as users fetch them: `carousel serve` on 127.0.0.1
/// answering `GET /lists/{name}/tiles/{z}/{x}/{y}.mvt` under wrk, against
/// the peer a user would pick instead, PostGIS `ST_AsMVT(ST_AsMVTGeom(…))`
/// over the same points under pgbench (`Benchmarks/scripts/postgis-tiles.sh`),
/// on the same tile addresses, in the same run.
///
/// Two mixes of addresses, both at zooms 2–14 (a zoom uniform in that
/// range): `uniform`, any tile of the world map equally likely (most of
/// them at sea or in empty land past zoom 6, where the answer is a 204),
/// and `near stores`, the tile holding a random store (what a user panning
/// where the stores are fetches). No request sends If-None-Match, so every
/// tile is computed; a last run sends the ETag each tile's first answer
/// carried, for the 304 latency.
struct TileBenchmark {
    var workspace: Workspace
    /// wrk's and pgbench's duration per run, in seconds.
    var seconds: Int
    /// How many addresses each mix draws from.
    var addressCount: Int
    var scriptsFolder: URL
    /// Whether PostGIS is measured (not in a smoke run, which measures nothing).
    var measuresPostGIS: Bool

    static let zooms = 2...14
    static let concurrencies = [1, 32]
    /// The seed of the addresses; wrk's and pgbench's draws from them are seeded too.
    static let seed: UInt64 = 0x7113_43
    /// How many addresses of each mix are first fetched once, for the share
    /// of empty tiles, the bytes of the others, and the ETags of the 304 run.
    static let probeCount = 500

    enum Mix: String, CaseIterable {
        case uniform
        case nearStores = "near-stores"

        var label: String {
            switch self {
            case .uniform: "uniform tiles"
            case .nearStores: "tiles near stores"
            }
        }
    }

    /// wrk's Lua for the uncached runs and for the 304 run.
    var uncachedScript: URL { scriptsFolder.appendingPathComponent("tiles.lua") }
    var revalidatingScript: URL { scriptsFolder.appendingPathComponent("tiles-304.lua") }

    func run(into report: inout Report) throws {
        let database = try workspace.catalog()
        let list = workspace.listName
        let catalog = try Catalog(path: database.path)
        let stores = try StoreDirectory.loading(list: list, from: catalog)
        var files: [Mix: URL] = [:]
        for mix in Mix.allCases {
            let file = workspace.path("tiles-\(mix.rawValue).txt")
            let lines = Self.addresses(mix, count: addressCount, stores: stores).map { "\($0.z)/\($0.x)/\($0.y)" }
            try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            files[mix] = file
        }

        var runs: [Mix: [Int: Wrk]] = [:]
        var probes: [Mix: [Probe]] = [:]
        let revalidation: Wrk
        let etagged: Int
        do {
            let server = try ServerProcess(
                carousel: workspace.carousel, database: database, constantBytes: 1000, log: workspace.path("serve-tiles.stderr"))
            defer { server.stop() }
            let prefix = "/lists/\(list)"
            // The first request builds the list's cluster index: this pass
            // is the warm-up too, so the timed runs compute tiles only.
            for mix in Mix.allCases {
                let addresses = try String(contentsOf: files[mix]!, encoding: .utf8).split(separator: "\n").prefix(Self.probeCount)
                probes[mix] = try probe(base: server.base, paths: addresses.map { "\(prefix)/tiles/\($0).mvt" })
                if let bad = probes[mix]!.first(where: { $0.status != 200 && $0.status != 204 }) {
                    throw BenchError("GET \(bad.path) answered \(bad.status)")
                }
            }
            try checkAgainstCLI(base: server.base, probes: probes[.nearStores]!)
            for mix in Mix.allCases {
                for connections in Self.concurrencies {
                    progress(
                        "tiles: wrk \(seconds) s on \(mix.label) at zooms \(Self.zooms.lowerBound)–\(Self.zooms.upperBound), \(connections) connection(s), no If-None-Match"
                    )
                    let run = try Wrk.run(
                        url: server.base, script: uncachedScript, scriptArguments: [files[mix]!.path, prefix],
                        seconds: seconds, connections: connections, samplingRSSOf: nil)
                    if run.errors > 0 { throw BenchError("tiles: \(run.errors) errors (socket or non-2xx) on \(mix.label)") }
                    runs[mix, default: [:]][connections] = run
                }
            }
            // The 304s: each tile that had content (a 204 carries no tag) with the tag its answer gave.
            let tagged = Mix.allCases.flatMap { probes[$0]! }.filter { $0.status == 200 }
            guard !tagged.isEmpty, tagged.allSatisfy({ !$0.tag.isEmpty }) else {
                throw BenchError("tiles: an answer of 200 came without an ETag")
            }
            etagged = tagged.count
            let tagFile = workspace.path("tiles-etags.txt")
            try (tagged.map { "\($0.path) \($0.tag)" }.joined(separator: "\n") + "\n").write(to: tagFile, atomically: true, encoding: .utf8)
            progress("tiles: wrk \(seconds) s revalidating \(tagged.count) tiles with If-None-Match, 1 connection")
            revalidation = try Wrk.run(
                url: server.base, script: revalidatingScript, scriptArguments: [tagFile.path],
                seconds: seconds, connections: 1, samplingRSSOf: nil)
            let unexpected = revalidation.output.split(separator: "\n").first { $0.hasPrefix("not 304: ") }
                .flatMap { Int($0.dropFirst("not 304: ".count)) }
            guard unexpected == 0, revalidation.errors == 0 else {
                throw BenchError("tiles: the revalidation run got answers other than 304: \(unexpected.map(String.init) ?? "none counted")")
            }
        }

        let peer = try postgisTiles(files: files)
        for mix in Mix.allCases {
            for connections in Self.concurrencies {
                let run = runs[mix]![connections]!
                let label = "tiles: \(mix.label), z\(Self.zooms.lowerBound)–\(Self.zooms.upperBound), uncached, \(connections) conn."
                let ours = "\(Self.tileRate(run.requestsPerSecond)) (p50 \(Format.milliseconds(run.p50Milliseconds)))"
                if let rate = peer?[mix]?[connections] {
                    let ratio = run.requestsPerSecond / rate
                    report.rows.append(
                        ReportRow(
                            "\(label): tiles/s vs PostGIS ST_AsMVT", ours: ours, peer: "\(Self.tileRate(rate)) (pgbench)",
                            ratio: Format.ratio(ratio), target: .atLeast(10, "10×"), measured: ratio))
                } else {
                    report.rows.append(ReportRow("\(label): tiles/s", ours: ours, peer: "—", ratio: "—"))
                }
                if connections == 1 {
                    report.rows.append(
                        ReportRow(
                            "\(label): p99 of one tile", ours: Format.milliseconds(run.p99Milliseconds), peer: "—",
                            target: .atMost(10, "10 ms"), measured: run.p99Milliseconds))
                }
            }
        }
        report.rows.append(
            ReportRow(
                "tiles: 304 for If-None-Match, 1 conn.: p99",
                ours: "\(Format.milliseconds(revalidation.p99Milliseconds)) (p50 \(Format.milliseconds(revalidation.p50Milliseconds)))",
                peer: "—", target: .atMost(1, "1 ms"), measured: revalidation.p99Milliseconds))

        let shares = Mix.allCases.map { mix -> String in
            let probed = probes[mix]!
            let full = probed.filter { $0.status == 200 }
            let meanBytes = full.isEmpty ? 0 : full.map(\.bytes).reduce(0, +) / full.count
            return "\(mix.label): \(full.count) of the first \(probed.count) have markers (mean \(Format.count(meanBytes)) bytes), the rest are 204"
        }
        report.notes.append(
            """
            tiles: `carousel serve` (this build, defaults) on 127.0.0.1 over the \(list) list (\(Format.count(stores.count)) stores); \
            \(Format.count(addressCount)) seeded tile addresses per mix, each a zoom uniform in \(Self.zooms.lowerBound)–\(Self.zooms.upperBound) \
            and either x and y uniform at that zoom (uniform: any tile of the world map) or the tile of a random store (near stores); \
            wrk -d\(seconds)s --latency at 1 and 32 connections (Benchmarks/scripts/tiles.lua: each request a random address of the list, \
            no If-None-Match, so every tile is computed; 204s count as answers); \(shares.joined(separator: "; ")); \
            3 tiles checked byte for byte against `carousel tiles`; the 304 run: wrk -c1 (Benchmarks/scripts/tiles-304.lua) on the \(etagged) \
            tiles of those with markers, each with the ETag its first answer carried, every answer checked to be 304; \
            the peer: \(peer == nil ? "skipped (PostgreSQL 15 with PostGIS is not installed, or this is a smoke run)" : """
            PostGIS 3 in a throwaway PostgreSQL 15 cluster, the same places as EPSG:3857 points under a GiST index, \
            `ST_AsMVT(ST_AsMVTGeom(geom, ST_TileEnvelope(z, x, y), 4096, 320))` of the points within the tile's envelope \
            widened by the same buffer as ours (320 of 4096), with the list position as feature id and id and name \
            (no clustering: PostGIS has none), pgbench -T\(seconds) at 1 and 32 clients over a Unix socket drawing from the \
            same addresses (Benchmarks/scripts/postgis-tiles.sh)
            """)
            """)
    }

    /// `count` tile addresses of `mix`, from the benchmark's seed.
    static func addresses(_ mix: Mix, count: Int, stores: StoreDirectory) -> [(z: Int, x: Int, y: Int)] {
        var random = SplitMix64(seed: seed &+ (mix == .uniform ? 0 : 1))
        return (0..<count).map { _ in
            let z = Int.random(in: zooms, using: &random)
            let size = 1 << z
            switch mix {
            case .uniform:
                return (z, Int.random(in: 0..<size, using: &random), Int.random(in: 0..<size, using: &random))
            case .nearStores:
                let store = stores.entry(at: Int.random(in: 0..<stores.count, using: &random))
                let (x, y) = tile(latitude: store.latitude, longitude: store.longitude, zoom: z)
                return (z, x, y)
            }
        }
    }

    /// The Web Mercator tile holding a point (latitudes past ±85.05° in the edge row, as maps draw them).
    static func tile(latitude: Double, longitude: Double, zoom: Int) -> (x: Int, y: Int) {
        let size = Double(1 << zoom)
        let sine = sin(latitude * .pi / 180)
        let x = (longitude + 180) / 360 * size
        let y = (0.5 - 0.25 * log((1 + sine) / (1 - sine)) / .pi) * size
        func clamped(_ value: Double) -> Int { value.isFinite ? min(max(Int(value.rounded(.down)), 0), (1 << zoom) - 1) : (value < 0 ? 0 : (1 << zoom) - 1) }
        return (clamped(x), clamped(y))
    }

    static func tileRate(_ perSecond: Double) -> String {
        perSecond >= 10_000 ? Format.rate(perSecond) : String(format: "%.0f/s", perSecond)
    }

    /// One GET's status, body size and ETag.
    struct Probe {
        var path: String
        var status: Int
        var bytes: Int
        var tag: String
    }

    /// GETs each path once, in order, through one curl (one kept-alive connection).
    func probe(base: String, paths: [String]) throws -> [Probe] {
        let config = workspace.path("tiles-probe.curl")
        let lines = paths.map { "url = \"\(base)\($0)\"\noutput = \"/dev/null\"" }
        try (lines.joined(separator: "\n") + "\n").write(to: config, atomically: true, encoding: .utf8)
        let output = workspace.path("tiles-probe.out")
        _ = try MeasuredProcess(
            executable: "/usr/bin/curl",
            arguments: ["-sS", "-K", config.path, "-w", "%{http_code} %{size_download} %header{etag}\\n"],
            stdoutPath: output.path, stderrPath: workspace.path("tiles-probe.stderr").path
        ).run()
        let answers = try String(contentsOf: output, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard answers.count == paths.count else { throw BenchError("curl answered \(answers.count) of \(paths.count) tiles") }
        return zip(paths, answers).map { path, line in
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            return Probe(
                path: path, status: Int(fields[0]) ?? 0, bytes: fields.count > 1 ? Int(fields[1]) ?? 0 : 0,
                tag: fields.count > 2 ? String(fields[2]) : "")
        }
    }

    /// A speed is never that of a wrong answer: three tiles with markers,
    /// over HTTP and from `carousel tiles` on the same catalog, must be the
    /// same bytes (the CLI's own tests compare them with supercluster).
    func checkAgainstCLI(base: String, probes: [Probe]) throws {
        let full = probes.filter { $0.status == 200 }
        guard !full.isEmpty else { throw BenchError("tiles: no tile near the stores had markers") }
        for (index, probe) in full.prefix(3).enumerated() {
            let parts = probe.path.dropLast(".mvt".count).split(separator: "/").suffix(3)
            let (z, x, y) = (String(parts[parts.startIndex]), String(parts[parts.startIndex + 1]), String(parts[parts.startIndex + 2]))
            let viaHTTP = workspace.path("tile-\(index)-http.mvt"), viaCLI = workspace.path("tile-\(index)-cli.mvt")
            _ = try MeasuredProcess(
                executable: "/usr/bin/curl", arguments: ["-sSf", "-o", viaHTTP.path, base + probe.path],
                stderrPath: workspace.path("tile-check.stderr").path
            ).run()
            _ = try MeasuredProcess(
                executable: workspace.carousel,
                arguments: [
                    "tiles", "--list", workspace.listName, "--zoom", z, "--x", x, "--y", y, "--output", viaCLI.path,
                    "--db", try workspace.catalog().path,
                ],
                stderrPath: workspace.path("tile-check.stderr").path
            ).run()
            guard try Data(contentsOf: viaHTTP) == Data(contentsOf: viaCLI) else {
                throw BenchError("tiles: \(probe.path) over HTTP differs from `carousel tiles` (\(viaHTTP.path), \(viaCLI.path))")
            }
        }
    }

    /// PostGIS tiles per second by pgbench clients, per mix, from
    /// `postgis-tiles.sh` on the same places and addresses; nil when there
    /// is no PostgreSQL 15 to start (or in a smoke run).
    func postgisTiles(files: [Mix: URL]) throws -> [Mix: [Int: Double]]? {
        guard measuresPostGIS, FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/15/bin/initdb") else { return nil }
        progress("tiles: PostGIS ST_AsMVT under pgbench, \(seconds) s per run at 1 and 32 clients, both mixes")
        let output = workspace.path("postgis-tiles.out")
        _ = try MeasuredProcess(
            executable: "bash",
            arguments: [scriptsFolder.appendingPathComponent("postgis-tiles.sh").path, workspace.dataFile.path, String(seconds)]
                + Mix.allCases.map { "\($0.rawValue)=\(files[$0]!.path)" },
            stdoutPath: output.path, stderrPath: workspace.path("postgis-tiles.stderr").path
        ).run()
        var rates: [Mix: [Int: Double]] = [:]
        // `MIX clients N: X tiles/s`
        for line in try String(contentsOf: output, encoding: .utf8).split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count >= 4, words[1] == "clients", let mix = Mix(rawValue: String(words[0])),
                let clients = Int(words[2].dropLast()), let rate = Double(words[3])
            else { continue }
            rates[mix, default: [:]][clients] = rate
        }
        guard Mix.allCases.allSatisfy({ mix in Self.concurrencies.allSatisfy { rates[mix]?[$0] != nil } }) else {
            throw BenchError("postgis-tiles.sh printed no rates: see \(output.path)")
        }
        return rates
    }
}
