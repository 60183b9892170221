import StoreCatalog

/// Stores as JSON, the one encoding the CLI's `--json` and the server share:
/// `{"id","name","latitude","longitude"}`, then address, category and phone
/// when present, attributes when any, and `distanceMeters` after a distance
/// search. Written by hand: a 234,908-store list through JSONEncoder would
/// take seconds.
package enum StoreJSON {
    /// One store as a JSON object.
    package static func object(_ store: Store, distanceMeters: Double? = nil) -> String {
        var bytes: [UInt8] = []
        append(store, distanceMeters: distanceMeters, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Stores as a JSON array, one store per line (`[]` when empty).
    package static func array(_ rows: [(store: Store, distanceMeters: Double?)]) -> String {
        var bytes: [UInt8] = []
        appendArray(rows, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``array(_:)`` appended to UTF-8 bytes: what the server sends, with
    /// no String in between. The bytes are the one implementation: built
    /// as a String, a nearest answer's ten stores were 10.5 % of the
    /// server's samples on the SQLite path, most of it String growth
    /// (docs/benchmarks/2026-11-27.md, "JSON answers as bytes").
    package static func appendArray(_ rows: [(store: Store, distanceMeters: Double?)], to bytes: inout [UInt8]) {
        guard !rows.isEmpty else {
            bytes += "[]".utf8
            return
        }
        // About 170 bytes a store with a few attributes: grown once or twice, not per store.
        bytes.reserveCapacity(bytes.count + rows.count * 192)
        bytes += "[\n".utf8
        for (index, row) in rows.enumerated() {
            append(row.store, distanceMeters: row.distanceMeters, to: &bytes)
            bytes += (index == rows.count - 1 ? "\n" : ",\n").utf8
        }
        bytes.append(0x5D)  // ]
    }

    /// `store`'s object without its closing brace, appended to `bytes`:
    /// written ahead of time for ``array(openObjects:)``, a server holding
    /// its stores this way answers a distance search with copies.
    package static func appendOpenObject(_ store: Store, to bytes: inout [UInt8]) {
        append(store, distanceMeters: nil, to: &bytes)
        bytes.removeLast()
    }

    /// ``array(_:)``'s document, the same bytes, from objects written ahead
    /// by ``appendOpenObject(_:to:)``.
    package static func array(openObjects rows: [(object: ArraySlice<UInt8>, distanceMeters: Double)]) -> [UInt8] {
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
        var bytes: [UInt8] = []
        append(store, distanceMeters: distanceMeters, to: &bytes)
        text += String(decoding: bytes, as: UTF8.self)
    }

    /// ``append(_:distanceMeters:to:)-(_,_,String)`` to UTF-8 bytes.
    package static func append(_ store: Store, distanceMeters: Double?, to bytes: inout [UInt8]) {
        bytes += #"{"id":"#.utf8
        AttributesJSON.appendQuoted(store.id, to: &bytes)
        bytes += #","name":"#.utf8
        AttributesJSON.appendQuoted(store.name, to: &bytes)
        bytes += #","latitude":"#.utf8
        bytes += JSONNumber.exact(store.latitude).utf8
        bytes += #","longitude":"#.utf8
        bytes += JSONNumber.exact(store.longitude).utf8
        // Three optional members, without an array of them to allocate per store.
        func appendOptional(_ key: String, _ value: String?) {
            guard let value else { return }
            bytes += key.utf8
            AttributesJSON.appendQuoted(value, to: &bytes)
        }
        appendOptional(#","address":"#, store.address)
        appendOptional(#","category":"#, store.category)
        appendOptional(#","phone":"#, store.phone)
        if !store.attributes.isEmpty {
            bytes += #","attributes":"#.utf8
            // Members sorted by key, as ``appendAttributes(_:to:)`` writes them.
            AttributesJSON.append(store.attributes, to: &bytes)
        }
        if let distanceMeters {
            bytes += #","distanceMeters":"#.utf8
            bytes += JSONNumber.exact(distanceMeters).utf8
        }
        bytes.append(0x7D)  // }
    }

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
