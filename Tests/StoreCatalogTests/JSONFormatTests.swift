import Foundation
import StoreCatalog
import TestSupport
import Testing

@Suite("JSON and JSON Lines import")
struct JSONFormatTests {
    @Test func arrayOfObjectsGivesStoresWithTheLineOfEachBrace() throws {
        let json = """
            [
              {"id": "a", "name": "Gangnam", "latitude": 37.4979, "longitude": 127.0276, "seats": 33},
              {
                "storeId": "b", "title": "Jongno", "lat": "37.5704", "lng": "126.9921",
                "phone": "02-1234", "open": true, "closed": null
              }
            ]
            """
        let rows = try readRows(json, as: .json)
        #expect(
            rows == [
                .valid(Store(id: "a", name: "Gangnam", latitude: 37.4979, longitude: 127.0276, attributes: ["seats": 33]), line: 2),
                // Coordinates may come as strings; attributes keep their
                // JSON types, null included.
                .valid(
                    Store(
                        id: "b", name: "Jongno", latitude: 37.5704, longitude: 126.9921, phone: "02-1234",
                        attributes: ["open": true, "closed": .null]), line: 3),
            ])
    }

    @Test func stringEscapesIncludingSurrogatePairsAreDecoded() throws {
        let json = #"[{"id":"\u0061\/1","name":"\"Q\" \\ \t\u00E9\uD83D\uDE00\u3000x","lat":1,"lng":2}]"#
        let store = try #require(try readRows(json, as: .json).stores.first)
        #expect(store.id == "a/1")
        // Only the ideographic space at the end would have been trimmed; it is inside.
        #expect(store.name == "\"Q\" \\ \té😀\u{3000}x")
    }

    @Test func nestedExtrasAreKeptAsJSONValues() throws {
        let json = """
            [{"id": "a", "name": "A", "lat": 1, "lng": 2,
              "schedule": {"mon": ["08:00", "22:00"], "note": "say \\"hi\\"\\n"},
              "tags": [ 1, 2.5e3, false, null, {} ]}]
            """
        let store = try #require(try readRows(json, as: .json).stores.first)
        #expect(store.attributes["schedule"] == .object(["mon": .array(["08:00", "22:00"]), "note": "say \"hi\"\n"]))
        #expect(store.attributes["tags"] == .array([1, .number(.init("2.5e3")!), false, .null, .object([:])]))
        #expect(store.attributes["tags"]?.text == "[1,2.5e3,false,null,{}]")
    }

    @Test func missingAndInvalidFieldsAreRowIssues() throws {
        let json = #"[{"id": "a", "lat": 1, "lng": 200}, {"id": "b", "name": "B", "lat": 1, "lng": 2}]"#
        let rows = try readRows(json, as: .json)
        #expect(
            rows.issues == [
                ImportIssue(line: 1, column: nil, reason: "no name (looked for name, title, store_name, 상호명)"),
                ImportIssue(line: 1, column: "lng", reason: "longitude out of range -180...180: '200'"),
            ])
        #expect(rows.stores.map(\.id) == ["b"])
    }

    @Test func aNonObjectElementIsARowIssue() throws {
        let rows = try readRows(#"[ "x", {"id":"a","name":"A","lat":1,"lng":2}, [1] ]"#, as: .json)
        #expect(rows.issues.map(\.reason) == ["expected a store object, found a string", "expected a store object, found an array"])
        #expect(rows.stores.count == 1)
    }

    @Test func duplicateKeysAreARowIssue() throws {
        let rows = try readRows(#"[{"id":"a","name":"A","Name":"B","lat":1,"lng":2}]"#, as: .json)
        #expect(rows.issues.map(\.reason) == ["duplicate column 'Name' (names are compared ignoring case)"])
    }

    @Test func malformedArrayIsAFileErrorWithItsLine() throws {
        let error = try #require(fileError("[\n{\"id\": \"a\",\n \"name\" \"A\"}\n]", as: .json))
        #expect(error.line == 3)
        #expect(error.column == 9)
        #expect(error.reason == "malformed JSON: expected ':' after a member name, found '\"'")
        #expect(error.description.hasSuffix(":3:9: malformed JSON: expected ':' after a member name, found '\"'"))
    }

    @Test(arguments: [
        ("[{\"id\": 01}]", "expected ',' or '}' after a member, found '1'"),
        ("[{\"id\": \"a\"},]", "expected a value, found ']'"),
        ("[{\"id\": tru}]", "expected 'true', found '}'"),
        ("[{\"id\": \"\\uD800x\"}]", "lone UTF-16 surrogate in a \\u escape: characters above U+FFFF need a \\uD8xx\\uDCxx pair"),
        ("[{\"id\": \"a\"}] x", "expected nothing after the array, found 'x'"),
        ("[{\"id\": \"a", "unterminated string: the file ends before its closing quote"),
    ])
    func malformedJSONIsNamedPrecisely(json: String, reason: String) throws {
        let error = try #require(fileError(json, as: .json))
        #expect(error.reason == "malformed JSON: \(reason)")
    }

    @Test func anObjectWhereAnArrayIsExpectedPointsToTheRightFormat() throws {
        let error = try #require(fileError(#"{"type": "FeatureCollection"}"#, as: .json))
        #expect(error.reason.contains("found an object"))
        #expect(error.likelyFormat == .geojson)
        #expect((error.line, error.column) == (1, 1))
    }

    @Test func jsonLinesSkipBlankLinesAndResumeAfterAMalformedLine() throws {
        let lines = """
            {"id": "a", "name": "A", "lat": 1, "lng": 2}

            {"id": "b", "name": "B", "lat": 1
            {"id": "c", "name": "C\\n", "lat": 3, "lng": 4}   
            not json
            {"id": "d", "name": "D", "lat": 5, "lng": 6} {"id": "e"}
            {"id": "f", "name": "F", "lat": 7, "lng": 8}
            """
        let rows = try readRows(lines + "\r\n", as: .jsonl)
        #expect(rows.stores.map(\.id) == ["a", "c", "f"])
        #expect(rows.stores[1].name == "C")
        #expect(
            rows.issues == [
                ImportIssue(line: 3, column: nil, reason: "malformed JSON at column 34: expected ',' or '}' after a member, found the end of the line"),
                ImportIssue(line: 5, column: nil, reason: "malformed JSON at column 2: expected 'null', found 'o'"),
                ImportIssue(line: 6, column: nil, reason: "malformed JSON at column 46: expected the end of the line after the object, found '{'"),
            ])
        #expect(rows.lines == [1, 3, 4, 5, 6, 7])
    }

    @Test func aRawLineBreakInsideAJSONLinesStringSpoilsOnlyItsLines() throws {
        // The break splits the object over lines 1 and 2; line 3 is read afresh.
        let text = "{\"id\": \"a\", \"name\": \"A\nB\", \"lat\": 1, \"lng\": 2}\n{\"id\": \"c\", \"name\": \"C\", \"lat\": 1, \"lng\": 2}\n"
        let rows = try readRows(text, as: .jsonl)
        #expect(rows.issues.map(\.line) == [1, 2])
        #expect(rows.issues.first?.reason == "malformed JSON at column 23: line break inside a string: write it as \\n")
        #expect(rows.stores.map(\.id) == ["c"])
        #expect(rows.lines == [1, 2, 3])
    }

    @Test func invalidUTF8InAJSONValueIsARowIssueWithItsKey() throws {
        let bytes = Array(#"[{"id":"a","name":""#.utf8) + [0xFF] + Array(#"","lat":1,"lng":2}]"#.utf8)
        let rows = try readRows(bytes: bytes, as: .json)
        #expect(rows.issues == [ImportIssue(line: 1, column: "name", reason: "invalid UTF-8: save the file as UTF-8")])
    }
}
