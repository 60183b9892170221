import CarouselJSON
import CatalogServing
import Foundation
import StoreCatalog

/// Stores as every command prints them, written as they come: a JSON array,
/// one store per line (`{"id","name","latitude","longitude"}`, then
/// address, category and phone when present, attributes when any,
/// distanceMeters for a distance search), or a text table.
///
/// Nothing is held but the table's sizing sample, so a 234,908-store list
/// prints in flat memory and its first row reaches the reader at once.
struct StoreOutput {
    /// The widest store name or id a table shows before cutting it with "…".
    static let maximumNameWidth = 40
    static let maximumIdWidth = 24

    private let json: Bool
    private let output: StandardOutput
    private let showsPositions: Bool
    private let showsDistance: Bool
    private var table: StreamingTable?
    private var count = 0

    /// - Parameters:
    ///   - showsPositions: a `#` column with each store's list position
    ///     (tables only: JSON is in list order or says the distance).
    ///   - showsDistance: a distance column (tables) or `distanceMeters` (JSON).
    init(json: Bool, showsPositions: Bool = false, showsDistance: Bool = false, output: StandardOutput = .shared) {
        self.json = json
        self.output = output
        self.showsPositions = showsPositions
        self.showsDistance = showsDistance
        if !json {
            table = StreamingTable(
                (showsPositions ? [StreamingTable.Column(title: "#", alignment: .right)] : [])
                    + [
                        StreamingTable.Column(title: "id", maximumWidth: Self.maximumIdWidth),
                        StreamingTable.Column(title: "name", maximumWidth: Self.maximumNameWidth),
                        StreamingTable.Column(title: "latitude", alignment: .right),
                        StreamingTable.Column(title: "longitude", alignment: .right),
                    ]
                    + (showsDistance ? [StreamingTable.Column(title: "distance", alignment: .right)] : []),
                output: output)
        }
    }

    /// Writes one store (at list `position`, `distanceMeters` away).
    mutating func write(_ store: Store, position: Int? = nil, distanceMeters: Double? = nil) {
        defer { count += 1 }
        if json {
            output.write(count == 0 ? "[\n" : ",\n")
            var text = ""
            Self.appendJSON(store, distanceMeters: showsDistance ? distanceMeters : nil, to: &text)
            output.write(text)
            output.flushFirstLines()
        } else {
            table?.append(
                (showsPositions ? [position.map(String.init) ?? ""] : [])
                    + [store.id, store.name, String(store.latitude), String(store.longitude)]
                    + (showsDistance ? [distanceMeters.map(Self.distance) ?? ""] : []))
        }
    }

    /// Closes the array or prints the rest of the table; "No stores." or
    /// `[]` when there were none.
    mutating func finish() {
        if json {
            output.line(count == 0 ? "[]" : "\n]")
        } else if count == 0 {
            output.line("No stores.")
        } else {
            table?.finish()
        }
    }

    /// Prints `stores` whole (the result of a bounded query).
    static func print(_ stores: [Store], json: Bool) {
        var output = StoreOutput(json: json)
        for store in stores { output.write(store) }
        output.finish()
    }

    /// Prints stores found by distance, with their distance.
    static func print(_ found: [StoreDistance], json: Bool) {
        var output = StoreOutput(json: json, showsDistance: true)
        for item in found { output.write(item.store, distanceMeters: item.distanceMeters) }
        output.finish()
    }

    /// One store as a JSON object, as in the arrays above (`focus` prints one).
    static func jsonObject(_ store: Store) -> String {
        var text = ""
        appendJSON(store, distanceMeters: nil, to: &text)
        return text
    }

    /// Appends `{"id","name","latitude","longitude",…}` for `store` (CarouselJSON's
    /// encoding, which the server shares).
    static func appendJSON(_ store: Store, distanceMeters: Double?, to text: inout String) {
        StoreJSON.append(store, distanceMeters: distanceMeters, to: &text)
    }

    /// `{"key":value,…}` by key, each value as its type (CarouselJSON).
    static func appendAttributes(_ attributes: [String: AttributeValue], to text: inout String) {
        StoreJSON.appendAttributes(attributes, to: &text)
    }

    /// `"key":value`, the value as its type (CarouselJSON).
    static func appendMember(_ key: String, _ value: AttributeValue, to text: inout String) {
        StoreJSON.appendMember(key, value, to: &text)
    }

    /// `text` as a JSON string literal, for the hand-written documents.
    static func quoted(_ text: String) -> String {
        var literal = ""
        AttributesJSON.appendQuoted(text, to: &literal)
        return literal
    }

    /// `850 m` below a kilometre, `12.35 km` above.
    static func distance(_ meters: Double) -> String {
        meters < 1000 ? "\(Int(meters.rounded())) m" : String(format: "%.2f km", meters / 1000)
    }
}
