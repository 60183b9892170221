import Foundation
import TestSupport
import Testing

/// End to end: what the commands print — exact JSON numbers, store indices
/// in loop mode, attributes that are numbers, escaped control characters,
/// names built from columns.
@Suite("Command output")
struct CommandOutputTests {
    typealias Workspace = CatalogCommandTests.Workspace

    static func lines(_ result: CarouselProcess.Result) throws -> [[String: Any]] {
        try result.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// Every number literal in a JSON text.
    static func numbers(in json: String) -> [String] {
        var found: [String] = []
        var current = ""
        var inString = false, escaped = false
        for character in json {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            if character == "\"" { inString = true }
            if character.isNumber || (current.isEmpty ? character == "-" : "-+.eE".contains(character)) {
                current.append(character)
            } else {
                if !current.isEmpty { found.append(current) }
                current = ""
            }
        }
        return found
    }

    @Test("--json numbers are exact: the shortest text that reads back to the same Double")
    func jsonNumbersAreExact() throws {
        let loop = Paths.sampleData.appendingPathComponent("scripts/loop.json").path
        let workspace = try Workspace()
        let csv = Paths.sampleData.appendingPathComponent("seoul-coffee.csv").path
        try #require(try workspace.run(["import", csv, "--list", "seoul"]).status == 0)
        let result = try workspace.run(["simulate", "--list", "seoul", "--script", loop, "--trace", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let numbers = Self.numbers(in: result.stdout)
        #expect(numbers.count > 100)
        for text in numbers {
            let value = try #require(Double(text), "\(text)")
            // Shortest round trip: Swift prints a Double so; a whole value prints without ".0".
            let shortest = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
            #expect(text == shortest, "\(text) is not the shortest form of \(value)")
        }
        // Frame times are thirds of 50 ms: exact, they cannot be rounded to 3 decimals.
        #expect(numbers.contains { $0.split(separator: ".").last.map { $0.count > 3 } == true })

        // Coordinates with every digit a Double holds survive import and output.
        let precise = try workspace.directory.write(
            "precise.csv", "id,name,latitude,longitude\np,P,-33.868819999999999,151.20929999999998\n"
        ).path
        try #require(try workspace.run(["import", precise, "--list", "precise"]).status == 0)
        let stores = try workspace.run(["stores", "--list", "precise", "--json"])
        // -33.868819999999999 is the Double -33.86882 (its shortest form).
        #expect(Double("-33.868819999999999") == Double("-33.86882"))
        #expect(stores.stdout.contains(#""latitude":-33.86882,"longitude":151.20929999999998}"#), "\(stores.stdout)")
    }

    @Test("tables keep rounding: the text trace shows 3 decimals at most")
    func tablesRound() throws {
        let workspace = try Workspace()
        let csv = Paths.sampleData.appendingPathComponent("seoul-coffee.csv").path
        try #require(try workspace.run(["import", csv, "--list", "seoul"]).status == 0)
        let loop = Paths.sampleData.appendingPathComponent("scripts/loop.json").path
        let table = try workspace.run(["simulate", "--list", "seoul", "--script", loop, "--trace"])
        #expect(table.lines.contains { $0.hasPrefix("1283.333  camera") }, "\(table.stdout)")
    }

    @Test("loop mode: index names the store, item the laid-out copy")
    func loopIndicesNameStores() throws {
        let workspace = try Workspace()
        let csv = Paths.sampleData.appendingPathComponent("seoul-coffee.csv").path
        try #require(try workspace.run(["import", csv, "--list", "seoul"]).status == 0)
        let loop = Paths.sampleData.appendingPathComponent("scripts/loop.json").path
        let result = try workspace.run(["simulate", "--list", "seoul", "--script", loop, "--trace", "--json"])
        let entries = try Self.lines(result)
        for entry in entries {
            for key in ["index", "focus"] {
                if let index = entry[key] as? Int { #expect((0..<44).contains(index), "\(entry)") }
            }
        }
        let releases = entries.filter { $0["type"] as? String == "release" }
        #expect(releases.count == 3)
        // Two copies lead the 44 stores: item 1 is store 43 (the last), item 44 is store 42.
        #expect(releases.map { $0["index"] as? Int } == [43, 42, 43])
        #expect(releases.map { $0["item"] as? Int } == [1, 44, 45])

        let text = try workspace.run(["simulate", "--list", "seoul", "--script", loop, "--trace"])
        let release = try #require(text.lines.first { $0.contains("release") })
        #expect(release.contains("  43  Haneul Coffee Sadang"), "\(release)")
    }

    @Test("attribute values that are numbers are JSON numbers; others stay strings")
    func numericAttributesStayNumbers() throws {
        let workspace = try Workspace()
        let file = try workspace.directory.write(
            "a.csv",
            """
            id,name,latitude,longitude,seats,rating,zip,code,big
            a,A,1,2,33,-4.5e1,007,+1,1e400

            """
        ).path
        try #require(try workspace.run(["import", file, "--list", "a"]).status == 0)
        let result = try workspace.run(["stores", "--list", "a", "--json"])
        #expect(result.stdout.contains(#""attributes":{"big":"1e400","code":"+1","rating":-4.5e1,"seats":33,"zip":"007"}"#), "\(result.stdout)")
    }

    @Test("control characters are escaped in tables and in JSON, never sent to the terminal")
    func controlCharactersAreEscaped() throws {
        let workspace = try Workspace()
        // ESC [2J clears the screen, ESC ]0; retitles the window, BEL rings.
        let name = "Evil\u{1B}[2J\u{1B}]0;pwned\u{07} Café\u{202E}"
        let file = try workspace.directory.write(
            "evil.json",
            """
            [{"id": "e1", "name": "\(name.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x202E ? String(format: "\\u%04x", $0.value) : String($0) }.joined())", "latitude": 1, "longitude": 2}]
            """
        ).path
        // A list name may not hold control characters at all; a store's name may.
        let refused = try workspace.run(["import", file, "--list", "evil\u{1B}[31m"])
        #expect(refused.status == 64 && refused.stderr.contains(#"U+001B, a control character"#), "\(refused.stderr)")
        #expect(!refused.stderr.contains("\u{1B}"))
        let imported = try workspace.run(["import", file, "--list", "evil"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stdout.contains("\u{1B}"))

        for arguments in [["stores", "--list", "evil"], ["lists"], ["near", "--lat", "1", "--lng", "2"], ["info"]] {
            let result = try workspace.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E }, "\(arguments)")
        }
        let table = try workspace.run(["stores", "--list", "evil"])
        // Escaped, then cut to the name column's 40 cells.
        #expect(table.stdout.contains(#"Evil\u{1B}[2J\u{1B}]0;pwned\u{7} Café\u…"#), "\(table.stdout)")

        let missing = try workspace.run(["stores", "--list", "gone\u{1B}[2J"])
        #expect(missing.stderr.contains(#"'gone\u{1B}[2J'"#) && !missing.stderr.contains("\u{1B}"), "\(missing.stderr)")

        let json = try workspace.run(["stores", "--list", "evil", "--json"])
        #expect(json.stdout.contains(#""name":"Evil\u001b[2J\u001b]0;pwned\u0007 Café"#))
        let decoded = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(decoded["name"] as? String == name)
    }

    @Test("import --name-format builds names from columns: the Korean sample's 상호명 and 지점명")
    func nameFormatBuildsNames() throws {
        let workspace = try Workspace()
        let korean = Paths.sampleData.appendingPathComponent("seoul-coffee-ko.csv").path
        let imported = try workspace.run(["import", korean, "--list", "ko", "--name-format", "{상호명} {지점명}"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let stores = try workspace.run(["stores", "--list", "ko", "--json"])
        let names = (try JSONSerialization.jsonObject(with: Data(stores.stdout.utf8)) as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names?.first == "하늘커피 강남역점")
        #expect(names?.count == 6 && names?.allSatisfy { $0.hasPrefix("하늘커피 ") && $0.hasSuffix("점") } == true, "\(names ?? [])")

        // Literal text and braces around the columns.
        let braces = try workspace.run(["import", korean, "--list", "ko2", "--name-format", "{{{지점명}}} of {상호명}"])
        #expect(braces.status == 0, "\(braces.stderr)")
        let first = try workspace.run(["stores", "--list", "ko2", "--limit", "1", "--json"])
        #expect(first.stdout.contains(#""name":"{강남역점} of 하늘커피""#), "\(first.stdout)")

        // A column no row has is a typo: nothing is imported.
        let typo = try workspace.run(["import", korean, "--list", "ko3", "--name-format", "{상호명} {지점}"])
        #expect(typo.status == 65)
        #expect(typo.stderr.contains("'지점'"), "\(typo.stderr)")
        #expect(try workspace.run(["lists", "--json"]).stdout.contains("ko3") == false)
    }
}
