import Foundation
import TestSupport
import Testing

/// End to end: the built `carousel` binary's catalog commands, as a user runs
/// them (the README's CLI contract).
@Suite("Catalog commands")
struct CatalogCommandTests {
    static let header = "id,name,latitude,longitude,address,category,phone,seats"
    static let seoulCSV = """
        \(header)
        s1,Gangnam,37.4979,127.0276,"396 Gangnam-daero, Seoul",cafe,02-111,33
        s2,Jamsil,37.5133,127.1001,,,,
        s3,Hongdae,37.5563,126.9236,,cafe,,12
        s4,Itaewon,37.5345,126.9946,,,,

        """

    /// A temporary folder with a database path in it.
    struct Workspace {
        let directory: TemporaryDirectory
        var db: String { directory.path("catalog.sqlite").path }

        init() throws { directory = try TemporaryDirectory("carousel-cli") }

        /// Runs `carousel arguments… --db <db>`.
        func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CarouselProcess.Result {
            try CarouselProcess.run(arguments + ["--db", db], environment: environment)
        }

        @discardableResult
        func write(_ name: String, _ contents: String) throws -> String {
            try directory.write(name, contents).path
        }
    }

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// A user error: exit 1, and a one-line reason first on stderr, no crash.
    static func expectUserError(_ result: CarouselProcess.Result, mentioning text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status != 0, sourceLocation: sourceLocation)
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("Error: ") && first.contains(text), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Backtrac"), sourceLocation: sourceLocation)
    }

    @Test("import then lists, stores, near and bbox, in JSON")
    func importAndQueryAsJSON() throws {
        let workspace = try Workspace()
        let file = try workspace.write("seoul.csv", Self.seoulCSV)

        let imported = try workspace.run(["import", file, "--list", "seoul", "--json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            try Self.json(imported.stdout) as? NSDictionary
                == [
                    "list": "seoul", "imported": 4, "rejected": 0, "errors": [Any](), "errorCount": 0,
                    "errorCounts": [String: Int](), "stoppedEarly": false,
                    "columnTypes": ["seats": "integer"],
                ] as NSDictionary)

        let lists = try workspace.run(["lists", "--json"])
        #expect(try Self.json(lists.stdout) as? NSArray == [["name": "seoul", "count": 4]] as NSArray)

        let stores = try workspace.run(["stores", "--list", "seoul", "--json"])
        let storeArray = try #require(try Self.json(stores.stdout) as? [[String: Any]])
        #expect(storeArray.map { $0["id"] as? String } == ["s1", "s2", "s3", "s4"])
        #expect(
            storeArray[0] as NSDictionary == [
                "id": "s1", "name": "Gangnam", "latitude": 37.4979, "longitude": 127.0276,
                "address": "396 Gangnam-daero, Seoul", "category": "cafe", "phone": "02-111",
                // An attribute that is a number stays a number in JSON.
                "attributes": ["seats": 33],
            ] as NSDictionary)
        // Absent fields and empty attributes are left out, not null.
        #expect(
            storeArray[1] as NSDictionary == [
                "id": "s2", "name": "Jamsil", "latitude": 37.5133, "longitude": 127.1001,
            ] as NSDictionary)

        let near = try workspace.run(["near", "--lat", "37.55", "--lng", "126.93", "--limit", "2", "--json"])
        let nearArray = try #require(try Self.json(near.stdout) as? [[String: Any]])
        #expect(nearArray.map { $0["id"] as? String } == ["s3", "s4"])
        let distances = nearArray.compactMap { $0["distanceMeters"] as? Double }
        #expect(distances.count == 2 && distances[0] < distances[1] && distances[0] > 0)

        let within = try workspace.run(["near", "--lat", "37.55", "--lng", "126.93", "--within-km", "1", "--json"])
        #expect((try Self.json(within.stdout) as? [[String: Any]])?.map { $0["id"] as? String } == ["s3"])

        let box = try workspace.run([
            "bbox", "--south", "37.49", "--west", "127.0", "--north", "37.52", "--east", "127.2", "--list", "seoul", "--json",
        ])
        #expect(Set((try Self.json(box.stdout) as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []) == ["s1", "s2"])
    }

    @Test("human output: tables and a short import summary")
    func humanOutput() throws {
        let workspace = try Workspace()
        let file = try workspace.write("seoul.csv", Self.seoulCSV)

        let imported = try workspace.run(["import", file, "--list", "seoul"])
        #expect(imported.lines == ["Imported 4 stores into 'seoul'."])

        let lists = try workspace.run(["lists"])
        #expect(lists.lines == ["list   stores", "-----  ------", "seoul       4"])

        let stores = try workspace.run(["stores", "--list", "seoul", "--sort", "distance", "--from", "37.5563,126.9236"])
        // Nearest first, each with its list position.
        #expect(stores.lines.first == "#  id  name     latitude  longitude  distance")
        #expect(stores.lines.dropFirst(2).first?.hasPrefix("2  s3  Hongdae") == true)
        #expect(stores.lines.dropFirst(2).first?.hasSuffix("0 m") == true)

        let near = try workspace.run(["near", "--lat", "0", "--lng", "0", "--within-km", "10"])
        #expect(near.lines == ["No stores."])
        // 1e308 km overflows to infinity in meters: no bound, not an error.
        let everywhere = try workspace.run(["near", "--lat", "-33.8", "--lng", "151.2", "--within-km", "1e308", "--limit", "1", "--json"])
        #expect(everywhere.status == 0, "\(everywhere.stderr)")
        #expect(everywhere.stdout == (try workspace.run(["near", "--lat", "-33.8", "--lng", "151.2", "--limit", "1", "--json"])).stdout)
    }

    @Test("bad rows: nothing imported, every issue listed (20, then a count), exit 1")
    func invalidRowsAreReported() throws {
        let workspace = try Workspace()
        var csv = Self.header + "\n"
        for index in 0..<25 { csv += "bad\(index),Bad,north,127,,,,\n" }
        csv += "ok,Fine,37.5,127,,,,\nok,Again,37.5,127,,,,\n"
        let file = try workspace.write("bad.csv", csv)

        let human = try workspace.run(["import", file, "--list", "bad"])
        Self.expectUserError(human, mentioning: "nothing imported into 'bad': 26 invalid rows")
        #expect(human.stdout.contains("line 2, column latitude"))
        #expect(human.stdout.contains("… and 6 more"))
        #expect(!human.stdout.contains("line 22,"))

        let json = try workspace.run(["import", file, "--list", "bad", "--json"])
        #expect(json.status != 0)
        let document = try #require(try Self.json(json.stdout) as? [String: Any])
        #expect(document["imported"] as? Int == 0)
        #expect(document["rejected"] as? Int == 26)
        let errors = try #require(document["errors"] as? [[String: Any]])
        #expect(errors.count == 26)
        #expect(
            errors.last as NSDictionary? == [
                "line": 28, "column": "id", "reason": "duplicate id 'ok' (also on line 27)",
            ] as NSDictionary)
        #expect(try workspace.run(["lists", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")

        let skipped = try workspace.run(["import", file, "--list", "bad", "--skip-invalid", "--json"])
        #expect(skipped.status == 0)
        #expect((try Self.json(skipped.stdout) as? [String: Any])?["imported"] as? Int == 1)
    }

    @Test("an existing list needs --replace, which swaps it")
    func replaceIsExplicit() throws {
        let workspace = try Workspace()
        let file = try workspace.write("seoul.csv", Self.seoulCSV)
        _ = try workspace.run(["import", file, "--list", "seoul"])
        let smaller = try workspace.write("two.csv", "id,name,lat,lng\ns9,Seongsu,37.5445,127.0557\ns2,Jamsil,37.5133,127.1001\n")

        Self.expectUserError(try workspace.run(["import", smaller, "--list", "seoul"]), mentioning: "use --replace")
        let replaced = try workspace.run(["import", smaller, "--list", "seoul", "--replace", "--order", "name"])

        #expect(replaced.status == 0, "\(replaced.stderr)")
        let ids = (try Self.json(try workspace.run(["stores", "--list", "seoul", "--json"]).stdout) as? [[String: Any]])?
            .map { $0["id"] as? String }
        #expect(ids == ["s2", "s9"])
    }

    @Test("--order distance sorts by distance from --from, and needs it")
    func orderByDistance() throws {
        let workspace = try Workspace()
        let file = try workspace.write("seoul.csv", Self.seoulCSV)

        Self.expectUserError(try workspace.run(["import", file, "--list", "l", "--order", "distance"]), mentioning: "--from")
        let result = try workspace.run(["import", file, "--list", "l", "--order", "distance", "--from", "37.5563,126.9236"])

        #expect(result.status == 0, "\(result.stderr)")
        let ids = (try Self.json(try workspace.run(["stores", "--list", "l", "--json"]).stdout) as? [[String: Any]])?
            .map { $0["id"] as? String }
        #expect(ids == ["s3", "s4", "s1", "s2"])
    }

    @Test("user errors are one clear line and a non-zero exit, never a crash")
    func userErrors() throws {
        let workspace = try Workspace()
        let file = try workspace.write("seoul.csv", Self.seoulCSV)

        Self.expectUserError(
            try workspace.run(["import", workspace.directory.path("missing.csv").path, "--list", "x"]),
            mentioning: "no such file")
        Self.expectUserError(
            try workspace.run(["import", try workspace.write("notes.txt", "x"), "--list", "x"]),
            mentioning: "--format")
        Self.expectUserError(try workspace.run(["stores", "--list", "nowhere"]), mentioning: "no list named 'nowhere'")
        Self.expectUserError(try workspace.run(["near", "--lat", "95", "--lng", "0"]), mentioning: "--lat")
        Self.expectUserError(try workspace.run(["near", "--lat", "1", "--lng", "0", "--limit", "0"]), mentioning: "--limit")
        Self.expectUserError(
            try workspace.run(["bbox", "--south", "10", "--west", "0", "--north", "5", "--east", "1"]),
            mentioning: "south")
        Self.expectUserError(
            try workspace.run(["near", "--lat", "1", "--lng", "0", "--list", "nowhere"]),
            mentioning: "no list named")

        let garbage = try workspace.write("garbage.sqlite", String(repeating: "not a database\n", count: 300))
        let corrupt = try CarouselProcess.run(["lists", "--db", garbage])
        Self.expectUserError(corrupt, mentioning: "is not a carousel database")

        _ = try workspace.run(["import", file, "--list", "seoul"])
        let bumped = try Process.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["sqlite3", workspace.db, "PRAGMA user_version = 99"])
        bumped.waitUntilExit()
        #expect(bumped.terminationStatus == 0)
        Self.expectUserError(try workspace.run(["lists"]), mentioning: "written by a newer carousel (schema 99")
    }

    @Test("without --db: $CAROUSEL_DB, else $XDG_DATA_HOME/carousel/carousel.sqlite")
    func defaultDatabaseLocation() throws {
        let workspace = try Workspace()
        let file = try workspace.write("seoul.csv", Self.seoulCSV)

        let xdg = workspace.directory.path("xdg").path
        let viaXDG = try CarouselProcess.run(["import", file, "--list", "seoul"], environment: ["XDG_DATA_HOME": xdg])
        #expect(viaXDG.status == 0, "\(viaXDG.stderr)")
        #expect(FileManager.default.fileExists(atPath: xdg + "/carousel/carousel.sqlite"))

        let explicit = workspace.directory.path("env.sqlite").path
        let viaEnvironment = try CarouselProcess.run(
            ["import", file, "--list", "env"], environment: ["CAROUSEL_DB": explicit, "XDG_DATA_HOME": xdg])
        #expect(viaEnvironment.status == 0)
        let lists = try CarouselProcess.run(["lists", "--json"], environment: ["CAROUSEL_DB": explicit])
        #expect(try Self.json(lists.stdout) as? NSArray == [["name": "env", "count": 4]] as NSArray)
    }

    @Test("--db works before the subcommand too, as a global option")
    func databaseOptionBeforeSubcommand() throws {
        let workspace = try Workspace()
        let file = try workspace.write("seoul.csv", Self.seoulCSV)
        let imported = try CarouselProcess.run(["--db", workspace.db, "import", file, "--list", "seoul"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let lists = try CarouselProcess.run(["--db", workspace.db, "lists", "--json"])
        #expect(try Self.json(lists.stdout) as? NSArray == [["name": "seoul", "count": 4]] as NSArray)
    }

    @Test("the binary copied alone into an empty folder creates and migrates a database")
    func binaryCarriesItsMigrations() throws {
        let folder = try TemporaryDirectory("carousel-alone")
        let binary = folder.path("carousel")
        try CarouselProcess.copyExecutable(to: binary)
        try folder.write("stores.csv", Self.seoulCSV)

        let process = Process()
        process.executableURL = binary
        process.arguments = ["import", "stores.csv", "--list", "seoul", "--db", "catalog.sqlite"]
        process.currentDirectoryURL = folder.url
        process.environment = ["PATH": "/usr/bin:/bin"]
        try process.run()
        process.waitUntilExit()

        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path("catalog.sqlite").path))
        let contents = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(!contents.contains { $0.hasSuffix(".resources") || $0 == "Migrations" })
    }
}
