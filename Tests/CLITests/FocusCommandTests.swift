import Foundation
import TestSupport
import Testing

/// `carousel focus`, both forms, over the sample stores.
@Suite("carousel focus")
struct FocusCommandTests {
    let catalog: SampleCatalog
    var db: String { catalog.db }

    init() throws {
        catalog = try SampleCatalog()
    }

    private func focus(_ arguments: [String]) throws -> CarouselProcess.Result {
        try CarouselProcess.run(["focus", "--db", db, "--list", "coffee"] + arguments)
    }

    private func script(_ name: String) -> String {
        Paths.sampleData.appendingPathComponent("scripts/\(name).json").path
    }

    @Test func atAnOffsetItIsTheNearestCardWithItsPeekingNeighbours() throws {
        // Centred cards, page 312: at 312 card 1 is centred, and cards 0 and 2
        // peek 33 pt of 300 each side: fraction 0.11, scale 0.7 + 0.3 · 0.11 = 0.733.
        let result = try focus(["--offset", "312", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.lines.first)
        #expect(line.hasPrefix(#"{"index":1,"store":{"id":"hc-002","name":"Haneul Coffee Garosu-gil","latitude":37.5206,"longitude":127.023,"#), "\(line)")
        #expect(
            line.hasSuffix(
                #""visible":[{"index":0,"fraction":0.11,"scale":0.733},{"index":1,"fraction":1,"scale":1},{"index":2,"fraction":0.11,"scale":0.733}]}"#),
            "\(line)")
        #expect(result.lines.count == 1)
    }

    @Test func aCardPastHalfWayIsFocusedNeverTheLastVisibleOne() throws {
        // The visibleItemsInvalidationHandler article's off-by-one: at 160 cards 0, 1 (and 2) show; round(160 / 312) = 1.
        let result = try focus(["--offset", "160", "--json"])
        #expect(result.stdout.hasPrefix(#"{"index":1,"#), "\(result.stdout)")
        let leading = try focus(["--offset", "150", "--json"])
        #expect(leading.stdout.hasPrefix(#"{"index":0,"#), "\(leading.stdout)")
    }

    @Test func afterAScriptItIsWhereTheCarouselRests() throws {
        let end = try focus(["--script", script("gentle-swipe"), "--json"])
        #expect(end.status == 0, "\(end.stderr)")
        #expect(end.stdout.hasPrefix(#"{"index":1,"store":{"id":"hc-002","#), "\(end.stdout)")
        // At 600 ms the finger has only dragged 120 · 100 / 250 = 48 pt: still card 0.
        let during = try focus(["--script", script("gentle-swipe"), "--at", "600", "--json"])
        #expect(during.stdout.hasPrefix(#"{"index":0,"store":{"id":"hc-001","#), "\(during.stdout)")
    }

    @Test func humanOutputNamesTheStoreAndListsTheVisibleCards() throws {
        let result = try focus(["--offset", "312"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.first == "Focused at offset 312: #1 Haneul Coffee Garosu-gil (hc-002), 37.5206, 127.023")
        #expect(result.lines.contains { $0.contains("Haneul Coffee Gangnam Station") && $0.hasSuffix("0.11  0.733") }, "\(result.stdout)")
    }

    /// `focus --list L --offset X [--db P] [--json]` is read without
    /// ArgumentParser (`PlainCommandLineTests`); with `--db` before the
    /// subcommand the same line goes through ArgumentParser. Both print the
    /// same, errors included.
    @Test(arguments: [
        ["--list", "coffee", "--offset", "312", "--json"], ["--offset=-40", "--list=coffee"],
        ["--list", "coffee", "--offset", "1e9"], ["--list", "no such list", "--offset", "0", "--json"],
    ])
    func thePlainReadingPrintsWhatArgumentParsersDoes(arguments: [String]) throws {
        let plain = try CarouselProcess.run(["focus"] + arguments + ["--db", db])
        let parsed = try CarouselProcess.run(["--db", db, "focus"] + arguments)
        #expect(plain.status == parsed.status)
        #expect(plain.stdout == parsed.stdout)
        #expect(plain.stderr == parsed.stderr)
        #expect(!(plain.stdout + plain.stderr).isEmpty)
    }

    @Test(arguments: [
        ([String](), "give --offset X or --script FILE"),
        (["--offset", "0", "--script", "x.json"], "give either --offset X or --script FILE, not both"),
        (["--offset", "0", "--at", "5"], "--at MS needs --script FILE"),
        (["--at", "5"], "--at MS needs --script FILE"),
        (["--offset", "nan"], "--offset must be a finite number"),
    ])
    func badFlagsAreOneClearError(arguments: [String], message: String) throws {
        let result = try focus(arguments)
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: \(message)"), "\(result.stderr)")
    }
}
