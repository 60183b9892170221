import Foundation
import StoreCatalog
import TestSupport
import Testing

@Suite("CSV and TSV import")
struct CSVFormatTests {
    static let header = "id,name,latitude,longitude\n"

    @Test func readsStoresWithTheirLinesAndAttributes() throws {
        let rows = try readRows("id,name,latitude,longitude,seats\nhc-1,Gangnam,37.4979,127.0276,33\nhc-2,Jongno,37.5704,126.9921,\n")
        #expect(
            rows == [
                .valid(Store(id: "hc-1", name: "Gangnam", latitude: 37.4979, longitude: 127.0276, attributes: ["seats": "33"]), line: 2),
                // An empty value is no attribute at all.
                .valid(Store(id: "hc-2", name: "Jongno", latitude: 37.5704, longitude: 126.9921), line: 3),
            ])
    }

    @Test func quotedFieldsHoldCommasDoubledQuotesAndLineBreaks() throws {
        let csv =
            "id,name,latitude,longitude,address\n"
            + "a,\"Haneul \"\"Blue\"\" Coffee\",37.5,127.0,\"Gangnam-daero 396, 1F\"\n"
            + "b,\"Two\nLines\",37.6,127.1,\"x\"\n"
            + "c,Third,37.7,127.1,y\n"
        let rows = try readRows(csv)
        #expect(rows.stores.map(\.name) == ["Haneul \"Blue\" Coffee", "Two\nLines", "Third"])
        #expect(rows.stores[0].address == "Gangnam-daero 396, 1F")
        // A row spanning lines keeps the line where it starts; the next row
        // knows the line break was inside.
        #expect(rows.lines == [2, 3, 5])
    }

    @Test func crlfBomNoTrailingNewlineAndBlankLinesAreHandled() throws {
        let text = "id,name,latitude,longitude\r\n\r\na,A,1,2\r\n\nb,B,3,4"
        let rows = try readRows(bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        #expect(rows.stores.map(\.id) == ["a", "b"])
        #expect(rows.stores.map(\.longitude) == [2, 4])
        #expect(rows.lines == [3, 5])
    }

    @Test func valuesAndHeadersAreTrimmed() throws {
        let rows = try readRows(" ID , Name ,lat,lng\n  a  ,  \"  Spaced  \"  , 37.5 ,\t127.0\u{3000}\n")
        #expect(rows.stores == [Store(id: "a", name: "Spaced", latitude: 37.5, longitude: 127)])
    }

    @Test func tsvUsesTabsAndTheSameQuoting() throws {
        let rows = try readRows("id\tname\tlatitude\tlongitude\tnote\na\t\"Tab\there\"\t37.5\t127\t\"x, y\"\n", as: .tsv)
        #expect(rows.stores == [Store(id: "a", name: "Tab\there", latitude: 37.5, longitude: 127, attributes: ["note": "x, y"])])
    }

    @Test func wrongColumnCountIsARowIssue() throws {
        let rows = try readRows(Self.header + "a,A,1,2\nb,B,1\nc,C,1,2,3\n")
        #expect(
            rows.issues == [
                ImportIssue(line: 3, column: nil, reason: "expected 4 fields, found 3"),
                ImportIssue(line: 4, column: nil, reason: "expected 4 fields, found 5"),
            ])
        #expect(rows.stores.map(\.id) == ["a"])
    }

    @Test func unterminatedQuoteIsReportedWhereItOpenedAndEndsTheFile() throws {
        let rows = try readRows(Self.header + "a,A,1,2\nb,\"Open,1,2\nc,C,1,2\n")
        #expect(rows.count == 2)
        #expect(rows.stores.map(\.id) == ["a"])
        let issue = try #require(rows.issues.first)
        #expect(issue.line == 3)
        #expect(issue.column == nil)
        #expect(issue.reason.hasPrefix("unterminated quote"))
    }

    @Test func textAfterAClosingQuoteIsAnIssueOfThatColumn() throws {
        let rows = try readRows(Self.header + "a,\"A\"x,1,2\n")
        #expect(rows.issues.map(\.column) == ["name"])
        #expect(rows.issues.first?.reason.contains("after the closing quote") == true)
    }

    @Test func invalidUTF8IsARowIssueWithItsColumn() throws {
        let bytes = Array((Self.header + "a,").utf8) + [0x43, 0xC3, 0x28] + Array(",1,2\nb,B,1,2\n".utf8)
        let rows = try readRows(bytes: bytes)
        #expect(rows.issues == [ImportIssue(line: 2, column: "name", reason: "invalid UTF-8: save the file as UTF-8")])
        #expect(rows.stores.map(\.id) == ["b"])
    }

    @Test func headerOnlyFileHasNoRows() throws {
        #expect(try readRows(Self.header).isEmpty)
    }

    @Test func blankLinesOnlyIsAnEmptyFile() throws {
        let error = try #require(fileError("\n\r\n\n"))
        #expect(error.reason.hasPrefix("empty file"))
    }

    @Test func missingRequiredColumnsAreOneFileErrorListingTheAliases() throws {
        let error = try #require(fileError("id,name,longitude\na,A,1\n"))
        #expect(error.line == 1)
        #expect(error.reason == "no latitude column (looked for latitude, lat, y, 위도)")

        let both = try #require(fileError("id,title\n"))
        #expect(both.reason.contains("no latitude column") && both.reason.contains("no longitude column (looked for longitude, lng, lon, long, x, 경도)"))
    }

    @Test func duplicateHeaderNamesAreAFileError() throws {
        let error = try #require(fileError("id,name,lat,lng,Name\n"))
        #expect(error.reason.contains("duplicate column 'Name'"))
    }

    @Test func unnamedColumnIsAFileError() throws {
        let error = try #require(fileError("id,name,lat,lng,\n"))
        #expect(error.reason.contains("column 5 has no name"))
    }

    @Test func koreanGeoNamesGiveAllStoresWithAttributes() throws {
        let rows = try readRows(Paths.geoNames.appendingPathComponent("geonames-kr.csv"), as: .csv)
        #expect(rows.count == 311)
        #expect(rows.issues.isEmpty)
        let heunghae = try #require(rows.stores.first)
        #expect(
            heunghae
                == Store(
                    id: "gn1832015", name: "Heunghae", latitude: 36.10945, longitude: 129.34517,
                    attributes: ["name_ko": "흥해", "population": "36080"]
                ))
    }

    @Test func allGeoNamesPlacesAreValid() throws {
        let rows = try readRows(Paths.geoNames.appendingPathComponent("geonames-world.csv"), as: .csv)
        #expect(rows.count == 30_000)
        #expect(rows.issues.isEmpty)
        #expect(rows.stores.allSatisfy { $0.attributes.keys.allSatisfy { ["country", "population"].contains($0) } })
    }
}
