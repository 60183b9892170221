import Foundation
import TestSupport
import Testing

/// End to end: numbers as people type them, and every user error as one
/// line with the exit status of its kind.
@Suite("Command-line input and errors")
struct CommandLineInputTests {
    typealias Workspace = CatalogCommandTests.Workspace

    /// Stores on both sides of the equator and of the prime meridian.
    static let worldCSV = """
        id,name,latitude,longitude
        syd,Sydney,-33.8688,151.2093
        scl,Santiago,-33.4489,-70.6693
        nyc,New York,40.7128,-74.006
        sel,Seoul,37.5665,126.978

        """

    static func workspaceWithWorld() throws -> Workspace {
        let workspace = try Workspace()
        let file = try workspace.directory.write("world.csv", worldCSV).path
        let imported = try workspace.run(["import", file, "--list", "world"])
        try #require(imported.status == 0, "\(imported.stderr)")
        return workspace
    }

    static func ids(_ result: CarouselProcess.Result) throws -> [String] {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stderr)")
        return array.compactMap { $0["id"] as? String }
    }

    @Test("a subcommand parsed alone (the start-up fast path) answers, helps and fails exactly as from the root")
    func subcommandFastPathMatchesRoot() throws {
        let workspace = try Self.workspaceWithWorld()
        // `--db` first: parsed from the root. `--db` last: the subcommand alone.
        func both(_ arguments: [String]) throws -> (CarouselProcess.Result, CarouselProcess.Result) {
            (try CarouselProcess.run(["--db", workspace.db] + arguments), try workspace.run(arguments))
        }
        for arguments in [
            ["near", "--lat", "-33.86", "--lng", "151.2", "--limit", "2", "--json"],
            ["focus", "--list", "world", "--offset", "700"],
            ["lists", "--json"],
            ["focus", "--list", "world", "--offset", "abc"],
            ["near", "--lat", "95", "--lng", "0"],
            ["lists", "rename", "nowhere", "globe"],
        ] {
            let (root, alone) = try both(arguments)
            #expect(root.status == alone.status, "\(arguments)")
            #expect(root.stdout == alone.stdout, "\(arguments)")
            #expect(root.stderr == alone.stderr, "\(arguments)")
        }
        let help = try workspace.run(["focus", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: carousel focus"))
    }

    @Test("negative coordinates as typed: near, bbox, stores --from, import --from")
    func negativeCoordinatesOnEveryCommand() throws {
        let workspace = try Self.workspaceWithWorld()

        let near = try workspace.run(["near", "--lat", "-33.86", "--lng", "151.2", "--limit", "1", "--json"])
        #expect(try Self.ids(near) == ["syd"])
        let west = try workspace.run(["near", "--lat", "-33.4", "--lng", "-70.6", "--limit", "1", "--json"])
        #expect(try Self.ids(west) == ["scl"])

        // The southern and western hemispheres: Santiago alone.
        let box = try workspace.run(["bbox", "--south", "-40", "--west", "-80", "--north", "-30", "--east", "-60", "--json"])
        #expect(try Self.ids(box) == ["scl"])

        let stores = try workspace.run(["stores", "--list", "world", "--sort", "distance", "--from", "-33.8,151.2", "--json"])
        #expect(try Self.ids(stores).first == "syd")

        let file = try workspace.directory.write("again.csv", Self.worldCSV).path
        let ordered = try workspace.run(["import", file, "--list", "from-nyc", "--order", "distance", "--from", "40.7,-74.0"])
        #expect(ordered.status == 0, "\(ordered.stderr)")
        #expect(try Self.ids(workspace.run(["stores", "--list", "from-nyc", "--json"])).first == "nyc")
    }

    @Test("a negative --limit or --offset is refused as negative, not as a missing value")
    func negativeCountsAreRefusedAsSuch() throws {
        let workspace = try Self.workspaceWithWorld()
        for arguments in [
            ["near", "--lat", "0", "--lng", "0", "--limit", "-3"],
            ["stores", "--list", "world", "--limit", "-3"],
            ["stores", "--list", "world", "--offset", "-1"],
            ["snap", "--count", "-3", "--offset", "0", "--velocity", "0"],
        ] {
            let result = try workspace.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains("cannot be negative"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Missing value"))
        }
    }

    /// A mistake, the exit status of its kind, and words the line must hold.
    struct Mistake: Sendable, CustomStringConvertible {
        var arguments: [String]
        var status: Int32
        var says: String
        var description: String { arguments.joined(separator: " ") }
    }

    static let mistakes: [Mistake] = [
        // The command line (64).
        Mistake(arguments: ["stors", "--list", "world"], status: 64, says: "did you mean 'stores'?"),
        Mistake(arguments: ["lists", "renam", "a", "b"], status: 64, says: "did you mean 'rename'?"),
        Mistake(arguments: ["near", "--lat", "1", "--lng", "2", "--bogus"], status: 64, says: "Unknown option '--bogus'"),
        Mistake(arguments: ["near", "--lng", "2"], status: 64, says: "--lat"),
        Mistake(arguments: ["near", "--lat", "abc", "--lng", "2"], status: 64, says: "'abc'"),
        Mistake(arguments: ["near", "--lat", "91", "--lng", "2"], status: 64, says: "--lat must be in -90...90"),
        Mistake(arguments: ["stores", "--list", "world", "--sort", "distance", "--from", "1,2,3"], status: 64, says: "is not LAT,LNG"),
        Mistake(arguments: ["stores", "--list", "world", "--sort", "distance"], status: 64, says: "needs --from LAT,LNG"),
        Mistake(arguments: ["bbox", "--south", "10", "--west", "0", "--north", "-10", "--east", "1"], status: 64, says: "south"),
        Mistake(arguments: ["focus", "--list", "world", "--at", "5"], status: 64, says: "--at MS needs --script FILE"),
        Mistake(arguments: ["snap", "--count", "3", "--offset", "0", "--velocity", "1", "--viewport", "-5"], status: 64, says: "viewport"),
        Mistake(arguments: ["export", "world", "--format", "xml"], status: 64, says: "unknown --format 'xml'"),
        Mistake(arguments: ["import", "world.csv", "--list", "world"], status: 64, says: "--replace"),
        Mistake(arguments: ["import", "world.csv", "--list", "x", "--name-format", "{name"], status: 64, says: "is not closed"),
        Mistake(arguments: ["lists", "rename", "world", "taken"], status: 64, says: "a list of that name exists"),
        // Bad data (65).
        Mistake(arguments: ["import", "bad.csv", "--list", "bad"], status: 65, says: "nothing imported"),
        Mistake(arguments: ["simulate", "--list", "world", "--script", "broken.json"], status: 65, says: "broken.json:3:5: not valid JSON"),
        Mistake(
            arguments: ["simulate", "--list", "world", "--script", "huge.json"], status: 65,
            says: "huge.json: event 1: at: number 1e400 is too large for a Double"),
        Mistake(arguments: ["simulate", "--list", "world", "--script", "late.json"], status: 65, says: "late.json"),
        // Missing input (66).
        Mistake(arguments: ["import", "nope.csv", "--list", "x"], status: 66, says: "no such file: nope.csv"),
        Mistake(arguments: ["stores", "--list", "nope"], status: 66, says: "no list named 'nope'"),
        Mistake(arguments: ["lists", "delete", "nope"], status: 66, says: "no list named 'nope'"),
        Mistake(arguments: ["export", "nope", "--format", "csv"], status: 66, says: "no list named 'nope'"),
        Mistake(arguments: ["simulate", "--list", "world", "--script", "nope.json"], status: 66, says: "no such file"),
    ]

    @Test("every mistake is one line on stderr, with the exit status of its kind", arguments: mistakes)
    func everyMistakeIsOneLine(mistake: Mistake) throws {
        let workspace = try Self.workspaceWithWorld()
        let directory = workspace.directory
        try directory.write("world.csv", Self.worldCSV)
        try directory.write("bad.csv", "id,name,latitude,longitude\na,A,95,0\n")
        try directory.write("broken.json", "{\"events\": [\n  {\"at\": 0, \"end\": true}\n    oops\n]}\n")
        try directory.write("huge.json", #"{"events": [{"at": 1e400, "end": true}]}"#)
        try directory.write("late.json", #"{"events": [{"at": 10, "end": true}, {"at": 5, "offset": 0}]}"#)
        _ = try workspace.run(["import", directory.path("world.csv").path, "--list", "taken"])

        let result = try CarouselProcess.run(
            mistake.arguments + ["--db", workspace.db], directory: directory.url)
        #expect(result.status == mistake.status, "\(mistake): \(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: "), "\(mistake): \(result.stderr)")
        #expect(result.stderr.hasSuffix("\n") && result.stderr.filter { $0 == "\n" }.count == 1, "one line: \(result.stderr)")
        #expect(result.stderr.contains(mistake.says), "\(mistake): \(result.stderr)")
        for leak in ["Usage:", "Help:", "NSCocoaErrorDomain", "numberIsNotRepresentable", "WAL", "Fatal error", "Backtrace"] {
            #expect(!result.stderr.contains(leak), "\(mistake): \(result.stderr)")
        }
    }

    @Test("a file that is not a catalog, or a folder that does not exist, is one line without internals")
    func databaseProblemsAreOneLine() throws {
        let directory = try TemporaryDirectory("carousel-cli")
        let text = try directory.write("notes.sqlite", "not a database\n").path
        let notCatalog = try CarouselProcess.run(["lists", "--db", text])
        #expect(notCatalog.status == 65)
        #expect(notCatalog.stderr == "Error: \(text) is not a carousel database (file is not a database); pass another --db\n")

        let nowhere = directory.path("missing/folder/catalog.sqlite").path
        let missing = try CarouselProcess.run(["lists", "--db", nowhere])
        #expect(missing.status == 74)
        #expect(missing.stderr.filter { $0 == "\n" }.count == 1 && missing.stderr.contains(nowhere), "\(missing.stderr)")
        #expect(!missing.stderr.contains("WAL"))
    }

    @Test("--help shows usage and exits 0; the root help lists the exit statuses")
    func helpShowsUsage() throws {
        let help = try CarouselProcess.run(["near", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: carousel near"))
        let root = try CarouselProcess.run(["--help"])
        #expect(root.stdout.contains("64  wrong command line") && root.stdout.contains("66  missing input"))
    }
}
