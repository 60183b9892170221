import Foundation
import TestSupport
import Testing

/// Attribute types end to end: import, `stores --json`, export and import
/// again, in every format; `--column-type` and `--timezone`.
@Suite("Attribute types in the CLI")
struct AttributeTypeCommandTests {
    typealias Workspace = CatalogCommandTests.Workspace

    /// Values of every JSON type, a 23-digit code, and strings that look
    /// like numbers or are empty.
    static let typedJSONL =
        [
            #"{"id":"a","name":"A","latitude":1,"longitude":2,"code":12345678901234567890123,"price":4.50,"open":true,"none":null,"tags":["wifi",1],"meta":{"floor":2},"zip":"02134","empty":""}"#,
            #"{"id":"b","name":"B","latitude":3,"longitude":4,"code":1,"price":-1e5,"open":false,"zip":"7A"}"#,
        ].joined(separator: "\n") + "\n"

    @Test("JSON formats give back every type exactly, through export and import", arguments: ["json", "jsonl", "geojson"])
    func jsonFormatsRoundTrip(format: String) throws {
        let workspace = try Workspace()
        let source = try workspace.write("typed.jsonl", Self.typedJSONL)
        try #require(try workspace.run(["import", source, "--list", "typed"]).status == 0)
        let original = try workspace.run(["stores", "--list", "typed", "--json"])
        #expect(
            original.stdout.contains(
                #""attributes":{"code":12345678901234567890123,"empty":"","meta":{"floor":2},"none":null,"open":true,"price":4.50,"tags":["wifi",1],"zip":"02134"}"#
            ), "\(original.stdout)")

        let file = workspace.directory.path("out.\(format)").path
        #expect(try workspace.run(["export", "typed", "--format", format, "--output", file]).status == 0)
        let imported = try workspace.run(["import", file, "--list", "back"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try workspace.run(["stores", "--list", "back", "--json"]).stdout == original.stdout)
    }

    @Test("CSV and TSV type each column over the whole column, and round-trip", arguments: ["csv", "tsv"])
    func delimitedRoundTrip(format: String) throws {
        let workspace = try Workspace()
        let separator = format == "csv" ? "," : "\t"
        let rows = [
            ["id", "name", "latitude", "longitude", "seats", "rating", "zip", "flag", "code"],
            ["a", "A", "1", "2", "33", "4.5", "02134", "TRUE", "12345678901234567890123"],
            ["b", "B", "3", "4", "", "4", "12345", "false", "7A"],
        ]
        let source = try workspace.write("in.\(format)", rows.map { $0.joined(separator: separator) }.joined(separator: "\n") + "\n")
        try #require(try workspace.run(["import", source, "--list", "t"]).status == 0)
        let original = try workspace.run(["stores", "--list", "t", "--json"])
        #expect(
            original.stdout.contains(#""attributes":{"code":"12345678901234567890123","flag":true,"rating":4.5,"seats":33,"zip":"02134"}"#),
            "\(original.stdout)")
        #expect(original.stdout.contains(#""attributes":{"code":"7A","flag":false,"rating":4,"zip":"12345"}"#))

        let file = workspace.directory.path("out.\(format)").path
        #expect(try workspace.run(["export", "t", "--format", format, "--output", file]).status == 0)
        #expect(try workspace.run(["import", file, "--list", "back"]).status == 0)
        #expect(try workspace.run(["stores", "--list", "back", "--json"]).stdout == original.stdout)
    }

    @Test("--column-type forces a type; a bad one is a one-line error, a misfit a row issue")
    func columnTypes() throws {
        let workspace = try Workspace()
        let source = try workspace.write("z.csv", "id,name,lat,lng,zip\na,A,1,2,12345\n")
        #expect(try workspace.run(["import", source, "--list", "z", "--column-type", "zip=text"]).status == 0)
        #expect(try workspace.run(["stores", "--list", "z", "--json"]).stdout.contains(#""attributes":{"zip":"12345"}"#))

        CatalogCommandTests.expectUserError(
            try workspace.run(["import", source, "--list", "y", "--column-type", "zip=date"]),
            mentioning: "--column-type zip: unknown type 'date'; use one of integer, number, boolean, text")
        CatalogCommandTests.expectUserError(
            try workspace.run(["import", source, "--list", "y", "--column-type", "zip"]), mentioning: "--column-type needs NAME=TYPE")
        let misfit = try workspace.run(["import", source, "--list", "y", "--column-type", "zip=boolean"])
        #expect(misfit.status == 65)
        #expect(misfit.stdout.contains("line 2, column zip: not true or false: '12345' (the column's type is boolean)"), "\(misfit.stdout)")
    }

    @Test("--timezone is checked and stored; bad hours are row issues")
    func timeZones() throws {
        let workspace = try Workspace()
        let source = try workspace.write(
            "h.csv", "id,name,lat,lng,hours\na,A,37.5,127,Mo-Su 09:00-18:00\n")
        CatalogCommandTests.expectUserError(
            try workspace.run(["import", source, "--list", "h", "--timezone", "Asia/Nowhere"]),
            mentioning: "--timezone: unknown time zone 'Asia/Nowhere'")
        #expect(try workspace.run(["import", source, "--list", "h", "--timezone", "Asia/Seoul"]).status == 0)
        let open = try workspace.run(["search", "--list", "h", "--open-at", "2026-11-24T10:00:00+09:00", "--json"])
        #expect(open.stdout.contains(#""id":"a""#), "\(open.stdout) \(open.stderr)")
        let closed = try workspace.run(["search", "--list", "h", "--open-at", "2026-11-24T20:00:00+09:00", "--json"])
        #expect(!closed.stdout.contains(#""id":"a""#))

        let bad = try workspace.write("bad.csv", "id,name,lat,lng,hours\na,A,37.5,127,Mo-Su 09:00-18:00\nb,B,37.5,127,sometimes\n")
        let rejected = try workspace.run(["import", bad, "--list", "bad"])
        #expect(rejected.status == 65)
        #expect(rejected.stdout.contains("line 3, column hours: invalid opening hours at character"), "\(rejected.stdout)")
    }
}
