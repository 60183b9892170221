import ArgumentParser
import CarouselEngine
import TestSupport
import Testing

@testable import carousel

/// The command line read without ArgumentParser: its grammar, and `focus`'s
/// plain reading checked against ArgumentParser's wherever it answers.
@Suite("Plain command lines")
struct PlainCommandLineTests {
    private func read(_ arguments: [String]) -> PlainCommandLine? {
        PlainCommandLine(arguments[...], options: ["list", "offset"], unconditional: ["offset"], flags: ["json"])
    }

    @Test func readsBothValueFormsAndFlagsInAnyOrder() throws {
        let line = try #require(read(["--offset", "-312.5", "--json", "--list=a=b"]))
        #expect(line.value("offset") == "-312.5")
        #expect(line.value("list") == "a=b")
        #expect(line.contains(flag: "json"))
        let empty = try #require(read([]))
        #expect(empty.value("list") == nil)
        #expect(!empty.contains(flag: "json"))
    }

    @Test(arguments: [
        ["places"], ["--list"], ["--list", ""], ["--list="], ["--list", "-x"], ["--list=-x"],
        ["--list", "a", "--list", "b"], ["--json", "--json"], ["--json=1"], ["--unknown", "1"],
        ["-h"], ["--help"], ["--"], ["--list", "a", "--"], ["--LIST", "a"], ["---list", "a"],
    ])
    func anythingElseIsLeftToArgumentParser(arguments: [String]) {
        #expect(read(arguments) == nil)
    }

    @Test func anUnconditionalValueMayLookLikeAnOption() {
        #expect(read(["--offset", "-5"])?.value("offset") == "-5")
        #expect(read(["--offset", "--json"])?.value("offset") == "--json")
        #expect(read(["--offset"]) == nil)
    }

    // MARK: - focus

    /// ArgumentParser's reading of `arguments`, as the CLI falls back to it
    /// (`Carousel.main`); nil where it reports an error.
    private func parsedByArgumentParser(_ arguments: [String]) -> Carousel.Focus.AtOffset? {
        let command = try? Carousel.parseSubcommandAlone(arguments) ?? Carousel.parseAsRoot(arguments)
        return (command as? Carousel.Focus)?.atOffset
    }

    @Test(arguments: [
        ["focus", "--list", "places", "--offset", "31300", "--db", "/tmp/c.sqlite", "--json"],
        ["focus", "--json", "--offset=-312", "--list=coffee"],
        ["focus", "--db=/a b/c=d.sqlite", "--offset", "1e3", "--list", "카페 목록"],
        ["focus", "--offset", "+0x1p4", "--list", "a"],
        ["focus", "--list", "a", "--offset", ".5"],
    ])
    func focusAtAnOffsetReadsAsArgumentParserReadsIt(arguments: [String]) throws {
        let plain = try #require(Carousel.Focus.AtOffset(commandLine: arguments))
        #expect(plain == parsedByArgumentParser(arguments))
        #expect(plain.layout == LayoutSpec())
    }

    @Test(arguments: [
        ["focus", "--list", "a"], ["focus", "--offset", "5"], ["--db", "x", "focus", "--list", "a", "--offset", "5"],
        ["focus", "--list", "a", "--offset", "nan"], ["focus", "--list", "a", "--offset", "1e309"],
        ["focus", "--list", "a", "--offset", "5", "--spacing", "12"], ["focus", "--list", "a", "--script", "s.json"],
        ["focus", "--list", "a", "--offset", "5", "--help"], ["snap", "--list", "a", "--offset", "5"],
        ["focus", "--list", "a", "--offset", " 5"], ["focus", "--list", "a", "--offset", "−5"],
    ])
    func everyOtherFocusLineGoesThroughArgumentParser(arguments: [String]) {
        #expect(Carousel.Focus.AtOffset(commandLine: arguments) == nil)
    }

    /// Random command lines near `focus`'s plain form: its options in any
    /// order and either value form, values that look like options, numbers
    /// in every spelling `Double` knows, and now and then another option, a
    /// repeat or a stray word. Wherever the plain reading answers,
    /// ArgumentParser accepts the same line and reads the same values.
    @Test func wheneverThePlainReadingAnswersArgumentParserAgrees() {
        let words = ["places", "a=b", "-x", "", "명동", "--json", "/tmp/c.sqlite", "focus", "help", "-"]
        let numbers = ["-312", "312", "3.5e2", "0x10", "nan", "inf", "1e309", "+5", "5 ", ".5", "1_000", "-0", "--5", "-h"]
        let others = ["--script", "--spacing", "--at", "--loop", "-h", "--", "--lis", "--db", "--list", "--offset", "--json"]
        var random = SplitMix64(seed: 0x0F0C_5A11)
        func option(_ name: String, _ value: String) -> [String] {
            Bool.random(using: &random) ? [name, value] : ["\(name)=\(value)"]
        }
        var answered = 0, agreed = 0
        for _ in 0..<1_200 {
            var parts: [[String]] = []
            if Int.random(in: 0..<10, using: &random) > 0 { parts.append(option("--list", words.randomElement(using: &random)!)) }
            if Int.random(in: 0..<10, using: &random) > 0 { parts.append(option("--offset", numbers.randomElement(using: &random)!)) }
            if Bool.random(using: &random) { parts.append(option("--db", words.randomElement(using: &random)!)) }
            if Bool.random(using: &random) { parts.append(["--json"]) }
            if Int.random(in: 0..<4, using: &random) == 0 {
                let other = others.randomElement(using: &random)!
                parts.append(Bool.random(using: &random) ? [other] : option(other, (words + numbers).randomElement(using: &random)!))
            }
            let arguments = ["focus"] + parts.shuffled(using: &random).joined()
            guard let plain = Carousel.Focus.AtOffset(commandLine: arguments) else { continue }
            answered += 1
            let parsed = parsedByArgumentParser(arguments)
            #expect(plain == parsed, "\(arguments)")
            if plain == parsed { agreed += 1 }
        }
        // Not a vacuous pass: a good share of the lines take the plain path.
        #expect(answered > 100, "only \(answered) of 1,200 lines were read plainly")
        #expect(agreed == answered)
    }
}
