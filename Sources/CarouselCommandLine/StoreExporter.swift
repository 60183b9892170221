import CarouselJSON
import CatalogServing
import StoreCatalog

/// Writes a list's stores in an import format, store by store, so that
/// `carousel import` reads them back to the same list (`carousel export`).
struct StoreExporter {
    let format: ImportFormat
    let output: StandardOutput

    /// The named fields, first in every row, as the importer's first alias
    /// of each: these always win over an attribute of another alias.
    static let fieldColumns = ["id", "name", "latitude", "longitude", "address", "category", "phone"]

    func export(list: String, from catalog: any CatalogEngine) async throws {
        switch format {
        case .csv: try await delimited(list, catalog, separator: ",")
        case .tsv: try await delimited(list, catalog, separator: "\t")
        case .json:
            var first = true
            try await catalog.forEachStore(list: list, offset: 0, limit: nil) { _, store in
                output.write(first ? "[\n" : ",\n")
                first = false
                output.write(Self.flatObject(store))
            }
            output.line(first ? "[]" : "\n]")
        case .jsonl:
            try await catalog.forEachStore(list: list, offset: 0, limit: nil) { _, store in output.line(Self.flatObject(store)) }
        case .geojson:
            var first = true
            output.write(#"{"type":"FeatureCollection","features":["#)
            try await catalog.forEachStore(list: list, offset: 0, limit: nil) { _, store in
                output.write(first ? "\n" : ",\n")
                first = false
                output.write(Self.feature(store))
            }
            output.line("\n]}")
        }
    }

    /// CSV (RFC 4180) or TSV: a header of the named fields and every
    /// attribute key of the list (sorted; found by a first pass, which
    /// keeps only the keys), then a row per store.
    private func delimited(_ list: String, _ catalog: any CatalogEngine, separator: Character) async throws {
        var keys = Set<String>()
        try await catalog.forEachStore(list: list, offset: 0, limit: nil) { _, store in keys.formUnion(store.attributes.keys) }
        let attributes = keys.sorted()
        let header = Self.fieldColumns + attributes
        output.line(header.map { Self.field($0, separator: separator) }.joined(separator: String(separator)))
        try await catalog.forEachStore(list: list, offset: 0, limit: nil) { _, store in
            var cells = [
                store.id, store.name, JSONNumber.exact(store.latitude), JSONNumber.exact(store.longitude),
                store.address ?? "", store.category ?? "", store.phone ?? "",
            ]
            // A cell is text: a number's digits, true/false, compact JSON
            // for an array or object; null and a missing value are empty.
            for key in attributes { cells.append(store.attributes[key]?.text ?? "") }
            output.line(cells.map { Self.field($0, separator: separator) }.joined(separator: String(separator)))
        }
    }

    /// A field, quoted (quotes doubled) when it holds the separator, a
    /// quote or a line break (RFC 4180 §2).
    static func field(_ text: String, separator: Character) -> String {
        guard text.contains(where: { $0 == separator || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `{"id","name","latitude","longitude",…,attributes…}`: attributes as
    /// members of the object itself, which is how the importer reads them.
    static func flatObject(_ store: Store) -> String {
        var text = "{\"id\":"
        AttributesJSON.appendQuoted(store.id, to: &text)
        text += ",\"name\":"
        AttributesJSON.appendQuoted(store.name, to: &text)
        text += ",\"latitude\":\(JSONNumber.exact(store.latitude)),\"longitude\":\(JSONNumber.exact(store.longitude))"
        appendOptionalFields(store, to: &text)
        for key in store.attributes.keys.sorted() {
            text += ","
            StoreOutput.appendMember(key, store.attributes[key]!, to: &text)
        }
        return text + "}"
    }

    /// A Point Feature: the id as the Feature's `id`, the rest in `properties`.
    static func feature(_ store: Store) -> String {
        var text = #"{"type":"Feature","id":"#
        AttributesJSON.appendQuoted(store.id, to: &text)
        text +=
            #","geometry":{"type":"Point","coordinates":["#
            + "\(JSONNumber.exact(store.longitude)),\(JSONNumber.exact(store.latitude))]},\"properties\":{\"name\":"
        AttributesJSON.appendQuoted(store.name, to: &text)
        appendOptionalFields(store, to: &text)
        for key in store.attributes.keys.sorted() {
            text += ","
            StoreOutput.appendMember(key, store.attributes[key]!, to: &text)
        }
        return text + "}}"
    }

    private static func appendOptionalFields(_ store: Store, to text: inout String) {
        for (key, value) in [("address", store.address), ("category", store.category), ("phone", store.phone)] {
            guard let value else { continue }
            text += ",\"\(key)\":"
            AttributesJSON.appendQuoted(value, to: &text)
        }
    }
}
