import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `carousel` binary on a `postgres://` URL prints what it prints on a
/// SQLite file: every command written against `CatalogEngine`, run on the
/// same files into both, compared byte for byte (stdout and exit status).
///
/// Synchronous on purpose: the binary is run with `Process`, whose wait is
/// not safe on the concurrency runtime's threads (see `PostgresCluster`).
@Suite("The CLI on PostgreSQL", .serialized)
struct CLIOnPostgresTests {
    static let world = Paths.geoNames.appendingPathComponent("geonames-world.csv").path
    static let korea = Paths.geoNames.appendingPathComponent("geonames-kr.csv").path

    /// Runs `arguments` against both catalogs and expects the same output.
    static func expectSame(_ arguments: [String], sqlite: String, postgres: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let a = try CarouselProcess.run(arguments + ["--db", sqlite])
        let b = try CarouselProcess.run(arguments + ["--db", postgres])
        let line = arguments.joined(separator: " ")
        #expect(a.status == b.status, "\(line): exit status", sourceLocation: sourceLocation)
        #expect(a.stdout == b.stdout, "\(line): output", sourceLocation: sourceLocation)
        // Errors name the catalog; past that, the same words.
        let errorA = a.stderr.replacingOccurrences(of: sqlite, with: "DB")
        let errorB = b.stderr.replacingOccurrences(of: postgres, with: "DB")
        #expect(errorA == errorB, "\(line): error", sourceLocation: sourceLocation)
    }

    @Test func everyCommandOnTheInterfaceAnswersAsOnSQLite() throws {
        guard let cluster = try PostgresCluster.startIfAvailable() else { return }
        defer { cluster.stop() }
        try cluster.createDatabase("cli")
        let postgres = cluster.url("cli")
        let directory = try TemporaryDirectory()
        let sqlite = directory.path("catalog.sqlite").path
        func same(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
            try Self.expectSame(arguments, sqlite: sqlite, postgres: postgres, sourceLocation: sourceLocation)
        }
        func same(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws {
            try same(arguments, sourceLocation: sourceLocation)
        }

        try same("import", Self.world, "--list", "world", "--json")
        try same("import", Self.korea, "--list", "kr", "--order", "name")
        try same("import", Self.korea, "--list", "kr", "--json")  // exists: refused
        try same("import", Self.korea, "--list", "kr", "--replace", "--order", "distance", "--from", "37.5665,126.978")
        try same("lists")
        try same("lists", "--json")
        // Not the same failure twice: both imported.
        let lists = try CarouselProcess.run(["lists", "--json", "--db", postgres])
        #expect(lists.stdout == #"[{"name":"kr","count":311},{"name":"world","count":30000}]"# + "\n")

        try same("stores", "--list", "world", "--json")
        try same("stores", "--list", "kr", "--offset", "300", "--limit", "20")
        try same("stores", "--list", "world", "--sort", "distance", "--from", "-33.86,151.2", "--offset", "10", "--limit", "40", "--json")
        try same("stores", "--list", "nowhere")

        // Points as users draw them: uniform over the globe, and the poles
        // and the antimeridian.
        var random = SplitMix64(seed: 26)
        for _ in 0..<12 {
            // Uniform over the sphere's area, not over latitude.
            let latitude = asin(Double.random(in: -1...1, using: &random)) * 180 / .pi
            let longitude = Double.random(in: -180...180, using: &random)
            try same("near", "--lat", "\(latitude)", "--lng", "\(longitude)", "--limit", "15", "--json")
            try same("near", "--lat", "\(latitude)", "--lng", "\(longitude)", "--list", "kr", "--limit", "5", "--json")
        }
        try same("near", "--lat", "90", "--lng", "0", "--limit", "3", "--json")
        try same("near", "--lat", "-16", "--lng", "180", "--within-km", "1500", "--json")
        try same("near", "--lat", "37.5", "--lng", "127", "--within-km", "0", "--json")
        try same("near", "--lat", "37.5", "--lng", "127", "--list", "nowhere")

        try same("bbox", "--south", "33", "--west", "124", "--north", "39", "--east", "132", "--list", "kr", "--json")
        try same("bbox", "--south", "-50", "--west", "170", "--north", "10", "--east", "-170", "--json")
        try same("bbox", "--south", "-90", "--west", "-180", "--north", "90", "--east", "180")

        try same("focus", "--list", "kr", "--offset", "1234")
        try same("focus", "--list", "kr", "--offset", "1e9", "--json")
        try same("focus", "--list", "world", "--offset", "-50", "--card-width", "120", "--json")

        // Clusters: markers (across the antimeridian, with a store
        // selected), the leaves of a cluster, the zoom a store leaves them.
        try same("clusters", "--list", "world", "--zoom", "2", "--south", "-60", "--west", "-180", "--north", "80", "--east", "180", "--json")
        try same("clusters", "--list", "world", "--zoom", "4", "--south", "-50", "--west", "150", "--north", "10", "--east", "-150", "--json")
        try same("clusters", "--list", "kr", "--zoom", "9", "--south", "33", "--west", "124", "--north", "39", "--east", "132", "--selected", "7")
        let markers = try CarouselProcess.run(
            ["clusters", "--list", "world", "--zoom", "2", "--south", "-60", "--west", "-180", "--north", "80", "--east", "180", "--json", "--db", sqlite])
        let clusterID = try #require(markers.stdout.firstMatch(of: /"id":(\d+)/)?.1)
        try same("clusters", "--list", "world", "--leaves", String(clusterID), "--limit", "5", "--offset", "2", "--json")
        try same("clusters", "--list", "world", "--uncluster-zoom", "77", "--json")
        try same("clusters", "--list", "world", "--uncluster-zoom", "30000")

        // Search: text (accents, case, Korean), category, attributes,
        // areas, opening hours in each store's zone, pages and cursors.
        let shops = try directory.write(
            "shops.csv",
            """
            id,name,latitude,longitude,address,category,opening_hours,timezone,seats
            k1,하늘커피 강남역점,37.4979,127.0276,서울 강남구 강남대로 396,카페,Mo-Su 07:00-23:00,Asia/Seoul,33
            k2,하늘커피 역삼점,37.5007,127.0365,서울 강남구 테헤란로 152,카페,Mo-Fr 22:00-02:00,Asia/Seoul,46
            p1,Café Mocha,48.8698,2.3316,12 Rue de la Paix,Café,Mo-Fr 08:00-18:00,Europe/Paris,20
            p2,100% Straße,48.8606,2.3376,,Bakery,,,
            n1,Night Owl,40.7128,-74.006,,Café,Fr-Mo 20:00-04:00; Dec 25 off,,12

            """)
        try same("import", shops.path, "--list", "shops", "--timezone", "America/New_York")
        for arguments in [
            ["--text", "cafe"], ["--text", "강남"], ["--text", "STRASSE"], ["--category", "카페", "--where", "seats=46"],
            ["--near", "48.86,2.34", "--within-km", "5"], ["--bbox", "37.4,127.0,37.6,127.1"],
            ["--open-at", "2026-11-24T01:30:00+09:00"], ["--open-at", "2026-11-23T17:30:00Z"],
            ["--open-at", "2026-12-25T02:00:00-05:00"], ["--near", "37.5,127.03", "--limit", "2"], [],
        ] {
            try same(["search", "--list", "shops", "--json"] + arguments)
            try same(["search", "--list", "shops"] + arguments)
        }
        // Not the same empty answer twice.
        let korean = try CarouselProcess.run(["search", "--list", "shops", "--text", "강남", "--json", "--db", postgres])
        #expect(korean.stdout.contains(#""id":"k1""#) && korean.stdout.contains(#""id":"k2""#), "\(korean.stdout)")
        let firstPage = try CarouselProcess.run(
            ["search", "--list", "shops", "--near", "37.5,127.03", "--limit", "2", "--json", "--db", sqlite])
        let cursor = try #require(firstPage.stdout.firstMatch(of: /"next":"([^"]+)"/)?.1)
        try same("search", "--list", "shops", "--near", "37.5,127.03", "--limit", "2", "--cursor", String(cursor), "--json")
        try same("search", "--list", "world", "--text", "san", "--limit", "30", "--json")
        try same("search", "--list", "nowhere", "--text", "x")

        // The view model over either engine: the camera framing a store,
        // a scroll script's timeline, where it leaves the carousel.
        try same("camera", "--list", "kr", "--index", "5", "--json")
        try same("camera", "--list", "kr", "--index", "5", "--framing", "fit", "--neighbors", "2", "--uncluster")
        try same("camera", "--list", "kr", "--index", "400")
        let script = try directory.write(
            "script.json",
            """
            {"initialIndex": 0, "events": [
              {"at": 0, "drag": {"by": 180, "durationMs": 150, "velocity": 1.1}},
              {"at": 1400, "offset": 936}, {"at": 2000, "scrollTo": 2, "animated": true},
              {"at": 2600, "tapMarker": 5}, {"at": 4000, "end": true}]}
            """)
        try same("simulate", "--list", "kr", "--script", script.path, "--json")
        try same("simulate", "--list", "kr", "--script", script.path)
        try same("focus", "--list", "kr", "--script", script.path, "--at", "2500")

        for format in ["csv", "tsv", "json", "jsonl", "geojson"] {
            try same("export", "world", "--format", format)
        }
        try same("export", "nowhere", "--format", "csv")
        // Where and what schema differ; what the catalog holds does not.
        let infoA = try CarouselProcess.run(["info", "--db", sqlite]), infoB = try CarouselProcess.run(["info", "--db", postgres])
        #expect(infoA.status == 0 && infoB.status == 0)
        #expect(infoA.lines.dropFirst(3) == infoB.lines.dropFirst(3))
        #expect(infoB.lines.first?.hasPrefix("database  postgresql://") == true, "\(infoB.stdout)")

        // Tokens: made on each, listed and revoked alike (a token itself is
        // random, and its times are now).
        for (name, scope) in [("reader", "read"), ("importer", "write")] {
            let a = try CarouselProcess.run(["tokens", "create", name, "--scope", scope, "--db", sqlite])
            let b = try CarouselProcess.run(["tokens", "create", name, "--scope", scope, "--db", postgres])
            #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
            #expect(a.stdout.hasPrefix("crsl_") && b.stdout.hasPrefix("crsl_") && a.stdout.count == b.stdout.count)
        }
        try same("tokens", "create", "reader")
        func tokenNames(_ db: String) throws -> [String] {
            try CarouselProcess.run(["tokens", "list", "--json", "--db", db]).stdout.matches(of: /"name":"([^"]+)","scope":"([a-z]+)"/)
                .map { "\($0.1) \($0.2)" }
        }
        #expect(try tokenNames(sqlite) == ["importer write", "reader read"])
        #expect(try tokenNames(postgres) == tokenNames(sqlite))
        try same("tokens", "revoke", "reader")
        try same("tokens", "revoke", "reader")
        #expect(try tokenNames(postgres) == ["importer write"])

        try same("lists", "rename", "kr", "korea", "--json")
        try same("lists", "rename", "korea", "world")  // taken: refused
        try same("lists", "delete", "korea", "--json")
        try same("lists", "delete", "korea")
        try same("lists", "--json")
    }

    /// `carousel serve --db postgres://…` serves the catalog (its lists,
    /// its readiness at the PostgreSQL schema) with the pool size asked
    /// for, and stops on SIGTERM with status 0.
    @Test func serveOnAURLAnswersAndStopsOnSIGTERM() throws {
        guard let cluster = try PostgresCluster.startIfAvailable() else { return }
        defer { cluster.stop() }
        try cluster.createDatabase("served")
        let url = cluster.url("served")
        #expect(try CarouselProcess.run(["import", Self.korea, "--list", "kr", "--db", url]).status == 0)
        let directory = try TemporaryDirectory()
        let log = directory.path("serve.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = CarouselProcess.executable
        process.arguments = ["serve", "--db", url, "--port", "0", "--db-connections", "2"]
        process.standardError = handle
        process.standardOutput = handle
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var text = ""
        var port: Int?
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, port == nil {
            text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            port = text.firstMatch(of: /on http:\/\/127\.0\.0\.1:(\d+)\//).flatMap { Int($0.1) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let served = try #require(port, "\(text)")
        #expect(text.contains("carousel serving postgresql://postgres@"), "\(text)")
        func get(_ path: String) throws -> String {
            let data = try Data(contentsOf: URL(string: "http://127.0.0.1:\(served)\(path)")!)
            return String(decoding: data, as: UTF8.self)
        }
        #expect(try get("/lists") == #"[{"name":"kr","count":311}]"#)
        #expect(try get("/readyz").hasPrefix(#"{"status":"ready""#))
        #expect(try get("/stores/near?lat=37.5&lng=127&limit=1&list=kr").contains(#""distanceMeters""#))
        kill(process.processIdentifier, SIGTERM)
        let stopBy = Date().addingTimeInterval(30)
        while process.isRunning, Date() < stopBy { Thread.sleep(forTimeInterval: 0.05) }
        try handle.close()
        #expect(!process.isRunning)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    /// `demo` (a SQLite catalog of its own) refuses a URL in one line, the
    /// password masked; an unreachable database is one line too, for a
    /// command and for the server; a URL that does not parse is a usage error.
    @Test func demoRefusesAURLAndAnUnreachableOneIsOneLineWithoutThePassword() throws {
        let url = "postgresql://carousel:hunter2@127.0.0.1:1/catalog"
        for arguments in [["demo"]] {
            let result = try CarouselProcess.run(arguments + ["--db", url])
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains("does not work on a PostgreSQL catalog yet"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("hunter2"), "\(arguments)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments)")
        }
        for command in ["lists", "serve"] {
            let unreachable = try CarouselProcess.run([command, "--db", url])
            #expect(unreachable.status == 74, "\(command)")
            #expect(
                unreachable.stderr.hasPrefix("Error: cannot connect to postgresql://carousel:***@127.0.0.1:1/catalog"), "\(command): \(unreachable.stderr)")
            #expect(!unreachable.stderr.contains("hunter2"))
            #expect(unreachable.stderr.split(separator: "\n").count == 1, "\(command)")
        }
        let malformed = try CarouselProcess.run(["lists", "--db", "postgres://carousel:hunter2@host:port/db"])
        #expect(malformed.status == 64)
        #expect(malformed.stderr.hasPrefix("Error: not a PostgreSQL URL"), "\(malformed.stderr)")
        #expect(!malformed.stderr.contains("hunter2"))
    }
}
