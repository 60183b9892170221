import Foundation
import TestSupport
import Testing

/// `carousel snap`, run as a user runs it.
@Suite("carousel snap")
struct SnapCommandTests {
    /// Runs `carousel snap arguments… --json` and decodes its one object.
    private func snap(_ arguments: [String]) throws -> [String: Any] {
        let result = try CarouselProcess.run(["snap"] + arguments + ["--json"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(result.lines.count == 1, "one JSON document: \(result.stdout)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any], "\(result.stdout)")
    }

    @Test func defaultLayoutIsGroupPagingCentredOneCardPerSwipe() throws {
        // Page 312; p = 350 + 1.2 · 0.99 / 0.01 = 468.8; single from card 1 → 2.
        let result = try snap(["--count", "10", "--offset", "350", "--velocity", "1.2"])
        #expect(abs(try #require(result["projected"] as? Double) - 468.8) < 1e-9)
        #expect(result["targetOffset"] as? Double == 624)
        #expect(result["index"] as? Int == 2)
        #expect(result["motion"] as? String == "decelerate")
        #expect(Set(result.keys) == ["projected", "targetOffset", "index", "item", "motion"])
        #expect(result["item"] as? Int == 2, "without a loop the item is the index")
    }

    @Test func rtlTakesTheFlippedOffsetAndMirrorsTheTarget() throws {
        // The same swipe on a right-to-left carousel: maxOffset 9 · 312 = 2808,
        // released at 2808 − 350 = 2458 with −1.2 pt/ms (toward later cards).
        let result = try snap(["--count", "10", "--offset", "2458", "--velocity", "-1.2", "--rtl"])
        #expect(abs(try #require(result["projected"] as? Double) - (2808 - 468.8)) < 1e-9)
        #expect(result["targetOffset"] as? Double == 2184)  // 2808 − 624
        #expect(result["index"] as? Int == 2)
        #expect(result["motion"] as? String == "decelerate")
    }

    @Test func keysComeInTheDocumentedOrder() throws {
        let result = try CarouselProcess.run(["snap", "--count", "3", "--offset", "0", "--velocity", "0", "--json"])
        #expect(result.stdout == #"{"projected":0,"targetOffset":0,"index":0,"item":0,"motion":"decelerate"}"# + "\n")
    }

    @Test func startIndexLimitsSingleToTheNextCard() throws {
        // A hard fling from card 0 that already travelled past card 1 still stops at card 1.
        let result = try snap(["--count", "10", "--offset", "350", "--velocity", "5", "--start-index", "0"])
        #expect(result["index"] as? Int == 1)
        #expect(result["targetOffset"] as? Double == 312)
    }

    @Test func reverseFlingAnimatesToTheTargetAsTheReverseSnapArticleWants() throws {
        let result = try snap([
            "--axis", "vertical", "--viewport", "540", "--item-length", "540", "--spacing", "0",
            "--behavior", "continuousGroupLeadingBoundary", "--deceleration", "fast",
            "--count", "30", "--offset", "1920", "--velocity", "-0.1",
        ])
        #expect(result["index"] as? Int == 4)
        #expect(result["targetOffset"] as? Double == 2160)
        #expect(result["motion"] as? String == "animate")
    }

    @Test func pagingMovesOneViewportFromTheStartPage() throws {
        let result = try snap([
            "--behavior", "paging", "--viewport", "200", "--item-length", "90", "--spacing", "10",
            "--count", "10", "--offset", "400", "--velocity", "10",
        ])
        #expect(result["targetOffset"] as? Double == 600)
        #expect(result["index"] as? Int == 6)
    }

    @Test func snapAndDecelerationFlagsOverrideTheBehavior() throws {
        // nearest + normal: p = 350 + 1.2 · 499 = 948.8 → card 3 (936), where single would stop at 2.
        let result = try snap([
            "--snap", "nearest", "--deceleration", "normal",
            "--count", "10", "--offset", "350", "--velocity", "1.2",
        ])
        #expect(result["index"] as? Int == 3)
        #expect(result["targetOffset"] as? Double == 936)
        // A custom rate: p = 350 + 2 · 0.5 / 0.5 = 352.
        let custom = try snap(["--deceleration", "0.5", "--count", "10", "--offset", "350", "--velocity", "2"])
        #expect(custom["projected"] as? Double == 352)
    }

    @Test func loopIndexNamesTheDataItemAndItemCountsTheCopies() throws {
        // 5 items + 2 copies each end: 9 laid-out items, offsets up to 8 · 312.
        // Item 8 is the second copy after the end: data item (8 − 2) mod 5 = 1.
        let result = try snap(["--loop", "--count", "5", "--offset", "2490", "--velocity", "3"])
        #expect(result["index"] as? Int == 1)
        #expect(result["item"] as? Int == 8)
        #expect(result["targetOffset"] as? Double == 2496)
    }

    @Test func emptyCarouselRestsNowhere() throws {
        let result = try CarouselProcess.run(["snap", "--count", "0", "--offset", "0", "--velocity", "1", "--json"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""index":null"#))
    }

    @Test func humanOutputIsALabelledBlock() throws {
        let result = try CarouselProcess.run(["snap", "--count", "10", "--offset", "350", "--velocity", "1.2"])
        #expect(result.status == 0)
        #expect(result.lines.count == 4)
        #expect(result.lines.contains("target offset  624"))
        #expect(result.lines.contains("motion         decelerate"))
    }

    @Test(arguments: [
        (["--viewport", "-390"], "viewport must be a number of points in 0.001...1000000000"),
        (["--spacing", "-1"], "spacing must be a number of points in 0...1000000000"),
        (["--min-scale", "2"], "minScale must be in [0, 1]"),
        (["--item-fraction", "1.5"], "itemFraction must be a fraction"),
        (["--item-length", "300", "--item-fraction", "0.8"], "exclusive"),
        (["--loop-padding", "3"], "--loop-padding only applies with --loop"),
        (["--start-index", "10"], "--start-index must be an item in 0...9"),
        (["--deceleration", "slow"], "deceleration must be normal, fast or a rate in (0, 1)"),
        (["--behavior", "sideways"], "The value 'sideways' is invalid for '--behavior"),
    ])
    func badValueIsOneClearErrorAndAFailingExit(extra: [String], message: String) throws {
        let result = try CarouselProcess.run(["snap", "--count", "10", "--offset", "0", "--velocity", "1"] + extra)
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        let firstLine = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.hasPrefix("Error: ") && firstLine.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"), "never a crash")
    }

    @Test(arguments: [("--offset", "nan"), ("--velocity", "inf")])
    func nonFiniteNumberIsRejected(flag: String, value: String) throws {
        var arguments = ["snap", "--count", "10", "--offset", "0", "--velocity", "1"]
        arguments[try #require(arguments.firstIndex(of: flag)) + 1] = value
        let result = try CarouselProcess.run(arguments)
        #expect(result.status != 0)
        #expect(result.stderr == "Error: \(flag) must be a finite number (got \(value))\n")
    }
}
