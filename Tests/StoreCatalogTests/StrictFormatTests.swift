import Foundation
import StoreCatalog
import TestSupport
import Testing

/// Strict GeoJSON (RFC 7946) and JSON (RFC 8259), and CSV line endings: the
/// exact inputs an outside reliability pass found accepted, or misread.
@Suite("Strict formats")
struct StrictFormatTests {
    private static func feature(_ members: String) -> String {
        GeoJSONFormatTests.collection("{" + members + "}")
    }

    private static let point = #""type": "Feature", "geometry": {"type": "Point", "coordinates": [127, 37.5]}"#

    @Test(#"a Feature with "id":"a","id":"b" is refused, never stored as "ab""#)
    func duplicateFeatureIdIsRefused() throws {
        let rows = try readRows(Self.feature(Self.point + #", "id": "a", "id": "b", "properties": {"name": "A"}"#), as: .geojson)
        #expect(rows.stores.isEmpty)
        #expect(rows.issues.map(\.reason) == ["duplicate member 'id' in the Feature: give each member once"])
        #expect(rows.issues.map(\.line) == [2])
    }

    @Test("a name twice in a geometry, a nested property or the collection is refused")
    func duplicatesElsewhereAreRefused() throws {
        let geometry = try readRows(
            Self.feature(
                #""type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2], "coordinates": [3, 4]}, "properties": {"id": "a", "name": "A"}"#),
            as: .geojson)
        #expect(geometry.stores.isEmpty)
        #expect(geometry.issues.first?.reason.contains("duplicate member 'coordinates'") == true)

        let nested = fileError(Self.feature(Self.point + #", "properties": {"id": "a", "name": "A", "hours": {"mon": 1, "mon": 2}}"#), as: .geojson)
        #expect(nested?.reason.contains("duplicate member 'mon'") == true)

        let collection = fileError(#"{"type": "FeatureCollection", "type": "FeatureCollection", "features": []}"#, as: .geojson)
        #expect(collection?.reason.contains("duplicate member 'type'") == true)

        // Plain JSON rows: a key twice is the row's issue.
        let json = try readRows(#"[{"id": "a", "name": "A", "name": "B", "latitude": 1, "longitude": 2}]"#, as: .json)
        #expect(json.stores.isEmpty)
        #expect(json.issues.first?.reason.contains("duplicate column 'name'") == true)
    }

    @Test("coordinates given as strings are refused: numbers only as numbers")
    func stringCoordinatesAreRefused() throws {
        let rows = try readRows(
            Self.feature(
                #""type": "Feature", "geometry": {"type": "Point", "coordinates": ["127", "37.5"]}, "properties": {"id": "a", "name": "A"}"#),
            as: .geojson)
        #expect(rows.stores.isEmpty)
        #expect(rows.issues.map(\.reason) == ["coordinates[0] must be a number, found a string"])
    }

    @Test("positions of 5 or 100,000 numbers are refused; 2 or 3 are read", arguments: [2, 3, 5, 100_000])
    func positionsHoldTwoOrThreeNumbers(count: Int) throws {
        let numbers = ([127, 37.5] + Array(repeating: 1.0, count: count - 2)).map { String($0) }.joined(separator: ",")
        let rows = try readRows(
            Self.feature(
                #""type": "Feature", "geometry": {"type": "Point", "coordinates": [\#(numbers)]}, "properties": {"id": "a", "name": "A"}"#),
            as: .geojson)
        if count <= 3 {
            #expect(rows.stores.map(\.longitude) == [127])
        } else {
            #expect(rows.stores.isEmpty)
            #expect(rows.issues.map(\.reason) == ["a position has 2 or 3 numbers [longitude, latitude, altitude], found more than 3"])
        }
    }

    @Test("a FeatureCollection without type is refused")
    func collectionWithoutTypeIsRefused() {
        let error = fileError(#"{"features": [{"# + Self.point + #", "properties": {"id": "a", "name": "A"}}]}"#, as: .geojson)
        #expect(error?.reason == #"no "type" member: a GeoJSON FeatureCollection needs "type": "FeatureCollection""#)
    }

    @Test("invalid UTF-8 in a member name is refused with its line and column, as in a CSV header")
    func invalidUTF8InMemberNamesIsRefused() throws {
        // {"n\xFFme": …} in a JSON row, a GeoJSON property and a skipped member.
        let json = Array(#"[{"id": "a", "n"#.utf8) + [0xFF] + Array(#"me": "A", "latitude": 1, "longitude": 2}]"#.utf8)
        let jsonError = try #require(fileError(bytes: json, as: .json))
        #expect(jsonError.line == 1)
        #expect(jsonError.reason == "malformed JSON: the string at column 14 is not valid UTF-8: save the file as UTF-8")

        /// `text` as UTF-8 with each `§` replaced by `bytes`.
        func spliced(_ text: String, _ bytes: [UInt8]) -> [UInt8] {
            text.split(separator: "§", omittingEmptySubsequences: false).map { Array($0.utf8) }
                .joined(separator: bytes).map { $0 }
        }
        let geojson = spliced(Self.feature(Self.point + #", "properties": {"id": "a", "name": "A", "x§": 1}"#), [0xC3])
        #expect(fileError(bytes: geojson, as: .geojson)?.reason.contains("not valid UTF-8") == true)

        // A member the reader skips, holding a UTF-16 surrogate's bytes.
        let skipped = spliced(Self.feature(Self.point + #", "properties": {"id": "a", "name": "A"}, "foreign": "§""#), [0xED, 0xA0, 0x80])
        #expect(fileError(bytes: skipped, as: .geojson)?.reason.contains("not valid UTF-8") == true)

        // The CSV header's refusal, for comparison.
        let csv = Array("id,n".utf8) + [0xFF] + Array("me,latitude,longitude\na,A,1,2\n".utf8)
        #expect(fileError(bytes: csv)?.reason.contains("not valid UTF-8") == true)
    }

    @Test("a CSV with lone-CR line endings reads as lines, not one header with duplicate columns")
    func loneCRLineEndingsAreLineBreaks() throws {
        let rows = try readRows("id,name,latitude,longitude\ra,A,1,2\rb,B,3,4\r")
        #expect(rows.stores.map(\.id) == ["a", "b"])
        #expect(rows.lines == [2, 3])
        // Mixed endings, and a CR inside quotes stays data.
        let mixed = try readRows("id,name,latitude,longitude\r\na,\"A\rA\",1,2\rb,B,3,4\n\rc,C,5,6")
        #expect(mixed.stores.map(\.name) == ["A\rA", "B", "C"])
        #expect(mixed.lines == [2, 4, 6])
    }
}
