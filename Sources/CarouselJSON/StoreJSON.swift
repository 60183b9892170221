import StoreCatalog

/// Stores as JSON, the one encoding the CLI's `--json` and the server share:
/// `{"id","name","latitude","longitude"}`, then address, category and phone
/// when present, attributes when any, and `distanceMeters` after a distance
/// search. Written by hand: a 234,908-store list through JSONEncoder would
/// take seconds.
package enum StoreJSON {
    /// One store as a JSON object.
    package static func object(_ store: Store, distanceMeters: Double? = nil) -> String {
        var text = ""
        append(store, distanceMeters: distanceMeters, to: &text)
        return text
    }

    /// Stores as a JSON array, one store per line (`[]` when empty).
    package static func array(_ rows: [(store: Store, distanceMeters: Double?)]) -> String {
        guard !rows.isEmpty else { return "[]" }
        var text = "[\n"
        // About 170 bytes a store with a few attributes: grown once or twice, not per store.
        text.reserveCapacity(rows.count * 192)
        for (index, row) in rows.enumerated() {
            append(row.store, distanceMeters: row.distanceMeters, to: &text)
            text += index == rows.count - 1 ? "\n" : ",\n"
        }
        return text + "]"
    }

    /// `store`'s object without its closing brace, written ahead of time
    /// for ``array(openObjects:)``: a server holding its stores this way
    /// answers a distance search with copies.
    package static func openObject(_ store: Store) -> [UInt8] {
        Array(object(store).utf8.dropLast())
    }

    /// ``array(_:)``'s document, the same bytes, from objects written ahead
    /// by ``openObject(_:)``.
    package static func array(openObjects rows: [(object: [UInt8], distanceMeters: Double)]) -> [UInt8] {
        guard !rows.isEmpty else { return Array("[]".utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rows.reduce(4) { $0 + $1.object.count + 48 })
        bytes += "[\n".utf8
        for (index, row) in rows.enumerated() {
            bytes += row.object
            bytes += ",\"distanceMeters\":".utf8
            bytes += JSONNumber.exact(row.distanceMeters).utf8
            bytes += (index == rows.count - 1 ? "}\n" : "},\n").utf8
        }
        bytes += "]".utf8
        return bytes
    }

    /// Appends `{"id","name","latitude","longitude",…}` for `store`;
    /// coordinates exact, attribute values with their types (numbers as
    /// their digits).
    package static func append(_ store: Store, distanceMeters: Double?, to text: inout String) {
        text += "{\"id\":"
        AttributesJSON.appendQuoted(store.id, to: &text)
        text += ",\"name\":"
        AttributesJSON.appendQuoted(store.name, to: &text)
        text += ",\"latitude\":\(JSONNumber.exact(store.latitude)),\"longitude\":\(JSONNumber.exact(store.longitude))"
        // Three optional members, without an array of them to allocate per store.
        func appendOptional(_ key: String, _ value: String?) {
            guard let value else { return }
            text += key
            AttributesJSON.appendQuoted(value, to: &text)
        }
        appendOptional(",\"address\":", store.address)
        appendOptional(",\"category\":", store.category)
        appendOptional(",\"phone\":", store.phone)
        if !store.attributes.isEmpty {
            text += ",\"attributes\":"
            appendAttributes(store.attributes, to: &text)
        }
        if let distanceMeters {
            text += ",\"distanceMeters\":\(JSONNumber.exact(distanceMeters))"
        }
        text += "}"
    }

    /// `{"key":value,…}` by key, each value as its type (``AttributeValue``).
    package static func appendAttributes(_ attributes: [String: AttributeValue], to text: inout String) {
        text += "{"
        for (index, member) in attributes.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { text += "," }
            appendMember(member.key, member.value, to: &text)
        }
        text += "}"
    }

    /// `"key":value`, the value as its type.
    package static func appendMember(_ key: String, _ value: AttributeValue, to text: inout String) {
        AttributesJSON.appendQuoted(key, to: &text)
        text += ":"
        AttributesJSON.appendValue(value, to: &text)
    }

    /// `text` as a JSON string literal.
    package static func quoted(_ text: String) -> String {
        var literal = ""
        AttributesJSON.appendQuoted(text, to: &literal)
        return literal
    }
}
