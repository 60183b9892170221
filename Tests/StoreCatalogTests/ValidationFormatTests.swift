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

    /// Issue 42: a NUL (U+0000) in any text value is its row's issue, with
    /// the row's line, in every format; a column named with one is the
    /// header's error. Neither catalog can keep one (PostgreSQL's text and
    /// jsonb cannot hold it), so both refuse it here alike.
    @Test func aNULInAnyTextValueIsTheRowsIssue() throws {
        let nul = "holds U+0000 (NUL), which no text value may hold"
        let csv = try readRows(
            "id,name,latitude,longitude,address,note\na,A\u{0}B,1,2,,\nb,B,1,2,x\u{0},\nc,C,1,2,,n\u{0}o\nd,D,1,2,,ok\n")
        #expect(
            csv.issues == [
                ImportIssue(line: 2, column: "name", reason: nul), ImportIssue(line: 3, column: "address", reason: nul),
                ImportIssue(line: 4, column: "note", reason: nul),
            ])
        #expect(csv.count == 4)
        // An id's own check names a NUL among the invisible characters.
        #expect(try Self.issues("a\u{0}b,A,1,2").map(\.reason) == ["the id holds U+0000, a control character"])

        let jsonl = try readRows(
            [
                #"{"id":"a","name":"A\u0000","latitude":1,"longitude":2}"#,
                #"{"id":"b","name":"B","latitude":1,"longitude":2,"tags":{"k":["x\u0000"]}}"#,
                #"{"id":"c","name":"C","latitude":1,"longitude":2,"tags":{"k\u0000":1}}"#,
                #"{"id":"d","name":"D","latitude":1,"longitude":2,"category":"c\u0000"}"#,
                #"{"id":"e","name":"E","latitude":1,"longitude":2,"tags":{"k":["x"]}}"#,
            ].joined(separator: "\n"), as: .jsonl)
        #expect(jsonl.issues.map(\.line) == [1, 2, 3, 4])
        #expect(jsonl.issues.allSatisfy { $0.reason == nul })
        #expect(
            try readRows(#"{"id":"a","name":"A","latitude":1,"longitude":2,"n\u0000te":1}"#, as: .jsonl).issues.map(\.reason)
                == ["the name of column 5 holds U+0000 (NUL)"])
        #expect(fileError("id,name,latitude,longitude,n\u{0}te\na,A,1,2,x\n")?.reason == "the name of column 5 holds U+0000 (NUL) in the header row")
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
