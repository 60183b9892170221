import ArgumentParser
import Testing

@testable import CarouselCommandLine

/// `--db PATH` before the subcommand is read as if it came after it
/// (`Carousel.parseSubcommandAlone`), so every order a user types takes the
/// same path: the same command with the same values as the root's parse.
@Suite struct CommandLineOrderTests {
    /// The focus command the root parse reads from `arguments`.
    private func parsedFromRoot(_ arguments: [String]) -> Carousel.Focus.AtOffset? {
        (try? Carousel.parseAsRoot(arguments) as? Carousel.Focus)?.atOffset
    }

    @Test(arguments: [
        ["--db", "/tmp/c.sqlite", "focus", "--list", "places", "--offset", "31300", "--json"],
        ["--db=/a b/c=d.sqlite", "focus", "--json", "--offset=-312", "--list=coffee"],
        ["focus", "--db", "/tmp/c.sqlite", "--offset", "1e3", "--list", "카페 목록"],
        ["focus", "--list", "a", "--offset", ".5", "--spacing", "20"],
    ])
    func focusReadsTheSameInEveryOrder(arguments: [String]) throws {
        let alone = try #require(Carousel.parseSubcommandAlone(arguments) as? Carousel.Focus)
        #expect(alone.atOffset != nil)
        #expect(alone.atOffset == parsedFromRoot(arguments))
    }

    @Test func aLeadingDatabaseMovesAfterTheSubcommand() {
        #expect(Carousel.subcommandFirst(["--db", "x", "lists", "--json"])! == ("lists", ["--db", "x", "--json"]))
        #expect(Carousel.subcommandFirst(["--db=x", "near", "--lat", "1"])! == ("near", ["--db=x", "--lat", "1"]))
        #expect(Carousel.subcommandFirst(["lists"])! == ("lists", []))
    }

    @Test(arguments: [
        ["--db", "x"], ["--db", "a", "lists", "--db", "b"], ["--db=a", "lists", "--db=b"], ["--json", "lists"],
        ["--db", "x", "--json", "lists"], [],
    ])
    func otherLeadingOptionsGoThroughTheRoot(arguments: [String]) {
        #expect(Carousel.subcommandFirst(arguments) == nil)
    }

    @Test(arguments: [
        ["--db", "x", "focus", "--list", "a", "--help"], ["--db", "x", "focus", "--list", "a", "--offset", "nan"],
        ["--db", "x", "focus", "--list", "a", "--offset", "5", "--bogus"],
    ])
    func helpAndErrorsAreLeftToTheRoot(arguments: [String]) {
        #expect(Carousel.parseSubcommandAlone(arguments) == nil)
    }
}
