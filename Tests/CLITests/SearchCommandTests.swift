import Foundation
import TestSupport
import Testing

/// `carousel search` end to end: filters, ranking, pages, and one-line
/// errors for what cannot be searched.
@Suite("Search command")
struct SearchCommandTests {
    static let csv = """
        id,name,latitude,longitude,address,category,opening_hours,timezone,seats
        k1,하늘커피 강남역점,37.4979,127.0276,서울 강남구 강남대로 396,카페,Mo-Su 07:00-23:00,Asia/Seoul,33
        k2,하늘커피 역삼점,37.5007,127.0365,서울 강남구 테헤란로 152,카페,Mo-Fr 22:00-02:00,Asia/Seoul,46
        p1,Café Mocha,48.8698,2.3316,12 Rue de la Paix,Café,Mo-Fr 08:00-18:00,Europe/Paris,20
        p2,100% Straße,48.8606,2.3376,,Bakery,,,

        """

    func workspace() throws -> CatalogCommandTests.Workspace {
        let workspace = try CatalogCommandTests.Workspace()
        let file = try workspace.write("stores.csv", Self.csv)
        let imported = try workspace.run(["import", file, "--list", "l"])
        #expect(imported.status == 0, "\(imported.stderr)")
        return workspace
    }

    func ids(_ result: CarouselProcess.Result) throws -> [String] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return (document["stores"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test("text, category, attributes, area and opening time, as JSON")
    func filters() throws {
        let workspace = try workspace()
        #expect(try ids(workspace.run(["search", "--list", "l", "--text", "cafe", "--json"])) == ["p1"])
        #expect(try ids(workspace.run(["search", "--list", "l", "--text", "강남", "--json"])) == ["k1", "k2"])
        #expect(try ids(workspace.run(["search", "--list", "l", "--text", "strasse", "--json"])) == ["p2"])
        #expect(try ids(workspace.run(["search", "--list", "l", "--text", "%", "--json"])) == ["p2"])
        #expect(try ids(workspace.run(["search", "--list", "l", "--category", "카페", "--where", "seats=46", "--json"])) == ["k2"])
        #expect(try ids(workspace.run(["search", "--list", "l", "--near", "48.86,2.34", "--within-km", "5", "--json"])) == ["p2", "p1"])
        #expect(try ids(workspace.run(["search", "--list", "l", "--bbox", "37.4,127.0,37.6,127.1", "--json"])) == ["k2", "k1"])
        // Tuesday 2026-11-24 01:30 in Seoul is Monday 17:30 in Paris: the
        // Monday-night store in Seoul and the Paris café are open.
        #expect(try ids(workspace.run(["search", "--list", "l", "--open-at", "2026-11-24T01:30:00+09:00", "--json"])) == ["k2", "p1"])
        // An hour later in UTC terms: Seoul's night has ended, Paris has closed.
        #expect(try ids(workspace.run(["search", "--list", "l", "--open-at", "2026-11-23T17:30:00Z", "--json"])) == [])
    }

    @Test("a page ends with the cursor of the next, and the cursor continues it")
    func pages() throws {
        let workspace = try workspace()
        let first = try workspace.run(["search", "--list", "l", "--near", "37.5,127.03", "--limit", "3", "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        let next = try #require(document["next"] as? String)
        #expect(try ids(first) == ["k1", "k2", "p1"])
        let second = try workspace.run(["search", "--list", "l", "--near", "37.5,127.03", "--limit", "3", "--cursor", next, "--json"])
        #expect(try ids(second) == ["p2"])
        #expect(second.stdout.hasSuffix(",\"next\":null}\n"))
    }

    @Test(
        "what cannot be searched is one line naming the flag",
        arguments: [
            (["--text", ""], "--text is empty"),
            (["--text", String(repeating: "x", count: 10_000)], "longer than 200"),
            (["--where", "seats"], "--where takes KEY=VALUE"),
            (["--near", "37.5,127", "--bbox", "37,126,38,128"], "not both"),
            (["--open-at", "2026-13-45"], "--open-at takes an ISO 8601 instant"),
            (["--within-km", "3"], "--within-km goes with --near"),
            (["--limit", "0"], "--limit must be 1...1000"),
            (["--cursor", "garbage"], "--cursor is not a cursor"),
            (["--bbox", "1,2,3"], "--bbox takes S,W,N,E"),
        ] as [([String], String)])
    func refusals(arguments: [String], words: String) throws {
        let workspace = try workspace()
        CatalogCommandTests.expectUserError(try workspace.run(["search", "--list", "l"] + arguments), mentioning: words)
    }
}
