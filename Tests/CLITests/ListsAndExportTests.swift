import Foundation
import TestSupport
import Testing

/// End to end: paging and streaming a list, renaming and deleting lists,
/// exporting in every format and importing back, `info`.
@Suite("Lists, paging and export")
struct ListsAndExportTests {
    typealias Workspace = CatalogCommandTests.Workspace

    /// `count` stores spread over the globe, seeded, with a long name every
    /// 97th and attributes of both kinds.
    static func generatedCSV(count: Int, seed: UInt64 = 11) -> String {
        var random = SplitMix64(seed: seed)
        var lines = ["id,name,latitude,longitude,population,note"]
        for i in 0..<count {
            let latitude = Double(random.next() % 1_800_000) / 10_000 - 90
            let longitude = Double(random.next() % 3_600_000) / 10_000 - 180
            let name = i % 97 == 0 ? "Place \(i) " + String(repeating: "long ", count: 20) + "end" : "Place \(i)"
            lines.append("p\(i),\(name),\(latitude),\(longitude),\(random.next() % 100_000),n\(i % 7)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func array(_ result: CarouselProcess.Result) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stderr)")
    }

    @Test("--offset and --limit page through a list, in list order or by distance")
    func pagingSlicesTheList() throws {
        let workspace = try Workspace()
        let file = try workspace.directory.write("g.csv", Self.generatedCSV(count: 500)).path
        try #require(try workspace.run(["import", file, "--list", "g"]).status == 0)

        let all = try Self.array(workspace.run(["stores", "--list", "g", "--json"])).compactMap { $0["id"] as? String }
        #expect(all.count == 500)
        let page = try Self.array(workspace.run(["stores", "--list", "g", "--offset", "120", "--limit", "30", "--json"]))
        #expect(page.compactMap { $0["id"] as? String } == Array(all[120..<150]))
        #expect(try Self.array(workspace.run(["stores", "--list", "g", "--offset", "600", "--json"])).isEmpty)

        let sorted = try Self.array(workspace.run(["stores", "--list", "g", "--sort", "distance", "--from", "-33.8,151.2", "--json"]))
        let distances = sorted.compactMap { $0["distanceMeters"] as? Double }
        #expect(distances.count == 500 && distances == distances.sorted())
        let sortedPage = try Self.array(
            workspace.run([
                "stores", "--list", "g", "--sort", "distance", "--from", "-33.8,151.2", "--offset", "10", "--limit", "5", "--json",
            ]))
        #expect(sortedPage.compactMap { $0["id"] as? String } == sorted[10..<15].compactMap { $0["id"] as? String })

        // Table: the position column is the list position; long names end in "…".
        let table = try workspace.run(["stores", "--list", "g", "--offset", "97", "--limit", "2"])
        #expect(table.lines.count == 4, "\(table.stdout)")
        #expect(table.lines[2].hasPrefix("97  p97  Place 97 long long"), "\(table.lines[2])")
        #expect(table.lines[2].contains("…") && !table.lines[2].contains("end"))
    }

    @Test("stores streams: a reader that stops after the first bytes gets the list's start at once")
    func storesStreams() throws {
        let workspace = try Workspace()
        let file = try workspace.directory.write("g.csv", Self.generatedCSV(count: 20_000)).path
        try #require(try workspace.run(["import", file, "--list", "g"]).status == 0)

        for (arguments, start) in [
            (["stores", "--list", "g", "--json"], "[\n{\"id\":\"p0\",\"name\":\"Place 0 long"),
            (["export", "g", "--format", "jsonl"], "{\"id\":\"p0\",\"name\":\"Place 0 long"),
            (["stores", "--list", "g"], "  #  id"),
        ] {
            let process = Process()
            process.executableURL = CarouselProcess.executable
            process.arguments = arguments + ["--db", workspace.db]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            let first = pipe.fileHandleForReading.readData(ofLength: 64)
            // The reader goes away, as `| head -c 64` does.
            try pipe.fileHandleForReading.close()
            process.waitUntilExit()
            #expect(String(decoding: first, as: UTF8.self).hasPrefix(start), "\(arguments): \(String(decoding: first, as: UTF8.self))")
            #expect(process.terminationStatus == 0, "a closed pipe ends the command quietly: \(arguments)")
        }
    }

    @Test("lists rename and delete; a store another list holds stays")
    func renameAndDelete() throws {
        let workspace = try Workspace()
        let file = try workspace.directory.write("g.csv", Self.generatedCSV(count: 10)).path
        let small = try workspace.directory.write("s.csv", "id,name,latitude,longitude\np1,Place 1,0,0\nq1,Q,1,1\n").path
        try #require(try workspace.run(["import", file, "--list", "g"]).status == 0)
        try #require(try workspace.run(["import", small, "--list", "s"]).status == 0)

        let renamed = try workspace.run(["lists", "rename", "g", "globe"])
        #expect(renamed.lines == ["Renamed list 'g' to 'globe' (10 stores)."])
        let renamedJSON = try workspace.run(["lists", "rename", "globe", "world", "--json"])
        #expect(renamedJSON.stdout == #"{"renamed":"globe","to":"world","count":10}"# + "\n")
        #expect(try workspace.run(["lists", "--json"]).stdout == #"[{"name":"s","count":2},{"name":"world","count":10}]"# + "\n")
        // Renamed in order and content: the same stores.
        #expect(try Self.array(workspace.run(["stores", "--list", "world", "--json"])).first?["id"] as? String == "p0")

        // p1 is in both lists, each its own store: "s"'s stays.
        let deleted = try workspace.run(["lists", "delete", "world", "--json"])
        #expect(deleted.stdout == #"{"deleted":"world","count":10,"removedStores":10}"# + "\n")
        #expect(try workspace.run(["lists", "--json"]).stdout == #"[{"name":"s","count":2}]"# + "\n")
        #expect(try Self.array(workspace.run(["near", "--lat", "0", "--lng", "0", "--limit", "50", "--json"])).count == 2)

        let text = try workspace.run(["lists", "delete", "s"])
        #expect(text.lines == ["Deleted list 's' (2 stores)."])
        #expect(try workspace.run(["info", "--json"]).stdout.contains(#""stores":0,"lists":[]"#))
    }

    /// Stores that stress every format: quotes, commas, line breaks, tabs,
    /// Hangul, negative and 17-digit coordinates, attributes that are
    /// numbers and strings that look like numbers, stores without some.
    static let trickyJSONL =
        [
            #"{"id": "t1", "name": "Quote \"q\", comma, and\nline", "latitude": -33.868819999999999, "longitude": 151.20929999999998, "address": "1\tTab St", "seats": 33, "zip": "007"}"#,
            #"{"id": "t2", "name": "하늘커피 강남역점", "latitude": 0.000001, "longitude": -179.99999999999997, "category": "카페", "rating": -4.5e1}"#,
            #"{"id": "t3", "name": "Plain", "latitude": 90, "longitude": -0.5, "phone": "02-111", "note": "a,b;\"c\""}"#,
            #"{"id": "t0", "name": "Last in file, id sorts first", "latitude": -90, "longitude": 180}"#,
        ].joined(separator: "\n") + "\n"

    @Test("export writes every format so that import gives back the same list", arguments: ["csv", "tsv", "json", "jsonl", "geojson"])
    func exportRoundTrips(format: String) throws {
        let workspace = try Workspace()
        let source = try workspace.directory.write("tricky.jsonl", Self.trickyJSONL).path
        try #require(try workspace.run(["import", source, "--list", "tricky"]).status == 0)
        let original = try workspace.run(["stores", "--list", "tricky", "--json"])

        let file = workspace.directory.path("out.\(format)").path
        let exported = try workspace.run(["export", "tricky", "--format", format, "--output", file])
        #expect(exported.status == 0 && exported.stdout.isEmpty, "\(exported.stderr)")
        let imported = try workspace.run(["import", file, "--list", "back"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let back = try workspace.run(["stores", "--list", "back", "--json"])
        // Ids, names, coordinates, fields, attributes and order, byte for byte.
        #expect(back.stdout == original.stdout)
        #expect(try Self.array(back).compactMap { $0["id"] as? String } == ["t1", "t2", "t3", "t0"])

        // Standard output gives the same bytes; exporting the copy gives them again.
        let toStdout = try workspace.run(["export", "tricky", "--format", format])
        #expect(toStdout.stdout == (try String(contentsOfFile: file, encoding: .utf8)))
        #expect(try workspace.run(["export", "back", "--format", format]).stdout == toStdout.stdout)
    }

    @Test("export infers the format from --output, and a failed export leaves no file")
    func exportOutputFile() throws {
        let workspace = try Workspace()
        let source = try workspace.directory.write("tricky.jsonl", Self.trickyJSONL).path
        try #require(try workspace.run(["import", source, "--list", "tricky"]).status == 0)
        let file = workspace.directory.path("stores.geojson").path
        #expect(try workspace.run(["export", "tricky", "-o", file]).status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix(#"{"type":"FeatureCollection","features":["#))

        let missing = workspace.directory.path("nope.csv").path
        let failed = try workspace.run(["export", "nope", "--output", missing])
        #expect(failed.status == 66)
        #expect(!FileManager.default.fileExists(atPath: missing))
        let contents = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.url.path)
        #expect(!contents.contains { $0.contains("partial") }, "\(contents)")
    }

    @Test("info names the database, its schema version, size and lists")
    func info() throws {
        let workspace = try Workspace()
        let csv = Paths.sampleData.appendingPathComponent("seoul-coffee.csv").path
        try #require(try workspace.run(["import", csv, "--list", "seoul"]).status == 0)
        let text = try workspace.run(["info"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.lines.first?.hasSuffix("catalog.sqlite") == true, "\(text.stdout)")
        #expect(text.lines.contains("stores    44 in 1 list"))
        #expect(text.lines.contains { $0.hasPrefix("schema    version ") })
        #expect(text.lines.contains("seoul      44"))

        let json = try #require(try JSONSerialization.jsonObject(with: Data(workspace.run(["info", "--json"]).stdout.utf8)) as? [String: Any])
        #expect((json["path"] as? String)?.hasSuffix("catalog.sqlite") == true)
        #expect((json["schemaVersion"] as? Int).map { $0 >= 2 } == true)
        #expect(json["schemaVersion"] as? Int == json["latestSchemaVersion"] as? Int)
        #expect((json["bytes"] as? Int).map { $0 > 0 } == true)
        #expect(json["stores"] as? Int == 44)
        #expect(json["lists"] as? NSArray == [["name": "seoul", "count": 44]] as NSArray)
    }
}
