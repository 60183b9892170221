import Foundation
import StoreCatalog

/// Stores as every command prints them: a JSON array, one store per line
/// (`{"id","name","latitude","longitude"}`, then address, category
/// and phone when present, attributes when any, distanceMeters for a
/// distance search), or a text table.
struct StoreOutput {
    struct Row {
        var store: Store
        var distanceMeters: Double?
    }

    var rows: [Row]
    /// Show each store's 0-based list position (a list in carousel order).
    var showsPositions = false

    init(_ stores: [Store], showsPositions: Bool = false) {
        rows = stores.map { Row(store: $0) }
        self.showsPositions = showsPositions
    }

    init(_ found: [StoreDistance]) {
        rows = found.map { Row(store: $0.store, distanceMeters: $0.distanceMeters) }
    }

    /// Prints JSON or a table to standard output.
    func print(json: Bool) {
        Swift.print(json ? self.json() : table())
    }

    /// The JSON document, written by hand: `stores --json` of a 234,908-store
    /// list would spend seconds in JSONEncoder.
    func json() -> String {
        guard !rows.isEmpty else { return "[]" }
        var text = "[\n"
        for (index, row) in rows.enumerated() {
            Self.appendJSON(row.store, distanceMeters: row.distanceMeters, to: &text)
            text += index == rows.count - 1 ? "\n" : ",\n"
        }
        return text + "]"
    }

    /// One store as a JSON object, as in the arrays above (`focus` prints one).
    static func jsonObject(_ store: Store) -> String {
        var text = ""
        appendJSON(store, distanceMeters: nil, to: &text)
        return text
    }

    /// Appends `{"id","name","latitude","longitude",…}` for `store`.
    private static func appendJSON(_ store: Store, distanceMeters: Double?, to text: inout String) {
        text += "{\"id\":"
        AttributesJSON.appendQuoted(store.id, to: &text)
        text += ",\"name\":"
        AttributesJSON.appendQuoted(store.name, to: &text)
        text += ",\"latitude\":\(store.latitude),\"longitude\":\(store.longitude)"
        for (key, value) in [("address", store.address), ("category", store.category), ("phone", store.phone)] {
            guard let value else { continue }
            text += ",\"\(key)\":"
            AttributesJSON.appendQuoted(value, to: &text)
        }
        if let attributes = AttributesJSON.encode(store.attributes) {
            text += ",\"attributes\":" + attributes
        }
        if let distanceMeters {
            text += ",\"distanceMeters\":\(distanceMeters)"
        }
        text += "}"
    }

    /// `text` as a JSON string literal, for the hand-written documents
    /// (their keys in the order the README documents).
    static func quoted(_ text: String) -> String {
        var literal = ""
        AttributesJSON.appendQuoted(text, to: &literal)
        return literal
    }

    /// The human table; "No stores." when there are none.
    func table() -> String {
        guard !rows.isEmpty else { return "No stores." }
        let showsDistance = rows.contains { $0.distanceMeters != nil }
        var table = TextTable(
            (showsPositions ? [TextTable.Column(title: "#", alignment: .right)] : [])
                + [
                    TextTable.Column(title: "id"), TextTable.Column(title: "name"),
                    TextTable.Column(title: "latitude", alignment: .right),
                    TextTable.Column(title: "longitude", alignment: .right),
                ]
                + (showsDistance ? [TextTable.Column(title: "distance", alignment: .right)] : []))
        for (index, row) in rows.enumerated() {
            table.append(
                (showsPositions ? [String(index)] : [])
                    + [row.store.id, row.store.name, String(row.store.latitude), String(row.store.longitude)]
                    + (showsDistance ? [Self.distance(row.distanceMeters ?? 0)] : []))
        }
        return table.render()
    }

    /// `850 m` below a kilometre, `12.35 km` above.
    static func distance(_ meters: Double) -> String {
        meters < 1000 ? "\(Int(meters.rounded())) m" : String(format: "%.2f km", meters / 1000)
    }
}
