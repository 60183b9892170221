import CarouselJSON
import StoreCatalog
import Testing

/// `StoreJSON`, the stores' one JSON encoding (the CLI's `--json` and every
/// server answer), written as bytes: pinned to the exact text, and the same
/// through each of its forms.
@Suite struct StoreJSONTests {
    /// Every member a store can have: escapes in strings, attribute values
    /// of each type nested, members sorted by name.
    static let full = Store(
        id: "a\"b\\c", name: "Café\n\u{1}☕", latitude: 37.5665, longitude: -0.5,
        address: "1 Main St", category: "coffee", phone: "+82 2-123",
        attributes: [
            "z": .null, "b": true, "a": .number(AttributeValue.Number(12)), "s": .string("x\ty"),
            "list": .array([.number(AttributeValue.Number("4.50")!), .string("q")]),
            "obj": .object(["y": false, "x": 3]),
        ])
    static let plain = Store(id: "p1", name: "Plain", latitude: 10, longitude: 20)

    static let fullText =
        #"{"id":"a\"b\\c","name":"Café\n\u0001☕","latitude":37.5665,"longitude":-0.5,"#
        + #""address":"1 Main St","category":"coffee","phone":"+82 2-123","#
        + #""attributes":{"a":12,"b":true,"list":[4.50,"q"],"obj":{"x":3,"y":false},"s":"x\ty","z":null}"#
    static let plainText = #"{"id":"p1","name":"Plain","latitude":10,"longitude":20"#

    @Test func aStoreIsWrittenExactlyWithEveryMemberItHas() {
        #expect(StoreJSON.object(Self.full) == Self.fullText + "}")
        #expect(StoreJSON.object(Self.full, distanceMeters: 1234.5) == Self.fullText + #","distanceMeters":1234.5}"#)
        #expect(StoreJSON.object(Self.plain) == Self.plainText + "}")
        var text = "prefix "
        StoreJSON.append(Self.plain, distanceMeters: 7, to: &text)
        #expect(text == "prefix " + Self.plainText + #","distanceMeters":7}"#)
    }

    @Test func anArrayIsOneStorePerLineAndItsBytesAreItsText() {
        let rows: [(store: Store, distanceMeters: Double?)] = [(Self.full, nil), (Self.plain, 0.25)]
        let expected = "[\n" + Self.fullText + "},\n" + Self.plainText + #","distanceMeters":0.25}"# + "\n]"
        #expect(StoreJSON.array(rows) == expected)
        var bytes = Array("x".utf8)
        StoreJSON.appendArray(rows, to: &bytes)
        #expect(bytes == Array(("x" + expected).utf8))
        #expect(StoreJSON.array([]) == "[]")
    }

    @Test func openObjectsWithTheirDistancesAreTheSameArray() {
        // Packed end to end, as the server holds them.
        var packed: [UInt8] = []
        StoreJSON.appendOpenObject(Self.full, to: &packed)
        let split = packed.count
        StoreJSON.appendOpenObject(Self.plain, to: &packed)
        let rows = [(object: packed[..<split], distanceMeters: 3.0), (packed[split...], 4.5)]
        #expect(StoreJSON.array(openObjects: rows) == Array(StoreJSON.array([(Self.full, 3), (Self.plain, 4.5)]).utf8))
    }
}
