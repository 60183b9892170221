import Foundation
import StoreCatalog
import TestSupport
import Testing

@Suite("Row validation")
struct ValidationFormatTests {
    /// The issues of the one row `id,name,latitude,longitude`.
    static func issues(_ row: String) throws -> [ImportIssue] {
        try readRows("id,name,latitude,longitude\n" + row + "\n").issues
    }

    @Test func nonNumericCoordinateSaysWhatItFound() throws {
        #expect(try Self.issues("a,A,abc,127") == [ImportIssue(line: 2, column: "latitude", reason: "not a number: 'abc'")])
        #expect(try Self.issues("a,A,37.5,127°E").map(\.reason) == ["not a number: '127°E'"])
        #expect(try Self.issues("a,A,\"37,5\",127").map(\.reason) == ["not a number: '37,5'"])
    }

    @Test(arguments: ["NaN", "nan", "Inf", "-inf", "+Infinity", "1e400", "-1e999"])
    func nonFiniteCoordinatesAreRejected(text: String) throws {
        // `Double("nan")` and `Double("inf")` parse: these must not slip in.
        let issues = try Self.issues("a,A,\(text),127")
        #expect(issues == [ImportIssue(line: 2, column: "latitude", reason: "not a finite number: '\(text)'")])
    }

    @Test(arguments: ["0x1p3", "1_000", "1.2.3", "--1", "e5", ".", "1e", "+", "1 2"])
    func onlyPlainDecimalsAreNumbers(text: String) throws {
        #expect(try Self.issues("a,A,1,\(text)").map(\.reason) == ["not a number: '\(text)'"])
    }

    @Test func coordinatesOutOfRangeAreRejected() throws {
        #expect(try Self.issues("a,A,90.0001,0").map(\.reason) == ["latitude out of range -90...90: '90.0001'"])
        #expect(try Self.issues("a,A,0,-180.5").map(\.reason) == ["longitude out of range -180...180: '-180.5'"])
        #expect(try Self.issues("a,A,-90,180").isEmpty)
    }

    @Test func emptyOrBlankRequiredValuesAreRejected() throws {
        #expect(try Self.issues("  ,A,1,2") == [ImportIssue(line: 2, column: "id", reason: "id is empty")])
        #expect(try Self.issues("a,\" \",1,2") == [ImportIssue(line: 2, column: "name", reason: "name is empty")])
        #expect(try Self.issues("a,A,,2").map(\.reason) == ["latitude is empty"])
    }

    @Test func everyProblemOfARowIsReported() throws {
        let issues = try Self.issues(",,abc,NaN")
        #expect(issues.map(\.column) == ["id", "name", "latitude", "longitude"])
        #expect(issues.allSatisfy { $0.line == 2 })
    }

    @Test func issuesNameTheColumnAsWritten() throws {
        let rows = try readRows("ID,Title,Y,X\na,A,1,200\n")
        #expect(rows.issues == [ImportIssue(line: 2, column: "X", reason: "longitude out of range -180...180: '200'")])
    }

    @Test func decimalsParseExactlyLikeTheStandardLibrary() throws {
        // The fast path (Clinger) and the fallback must both round correctly.
        var random = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let value = Double.random(in: -180...180, using: &random)
            let digits = Int.random(in: 0...17, using: &random)
            var text = String(format: "%.\(digits)f", value)
            if Int.random(in: 0..<5, using: &random) == 0 { text += "e\(Int.random(in: -30...30, using: &random))" }
            let parsed = Array(text.utf8).withUnsafeBufferPointer(DecimalNumber.parse)
            #expect(parsed == Double(text), "seed 7, text \(text)")
        }
        for text in ["00012.5000", ".5", "5.", "+1", "-0", "123456789012345678901234567890", "0.000000000000000000000000001"] {
            #expect(Array(text.utf8).withUnsafeBufferPointer(DecimalNumber.parse) == Double(text), "\(text)")
        }
    }

    @Test func badStoresSampleReportsEachMistakeOnItsLine() throws {
        let rows = try readRows(Paths.sampleData.appendingPathComponent("bad-stores.csv"), as: .csv)
        #expect(
            rows.issues == [
                ImportIssue(line: 3, column: "latitude", reason: "not a number: 'abc'"),
                ImportIssue(line: 4, column: "longitude", reason: "longitude out of range -180...180: '190.5'"),
                ImportIssue(line: 5, column: "name", reason: "name is empty"),
                ImportIssue(line: 6, column: "latitude", reason: "not a finite number: 'NaN'"),
                ImportIssue(line: 7, column: nil, reason: "expected 8 fields, found 4"),
            ])
        // The duplicate id is the importer's to find: the reader passes both.
        #expect(rows.stores.map(\.id) == ["hc-901", "hc-901"])
        #expect(rows.lines == [2, 3, 4, 5, 6, 7, 8])
    }
}
