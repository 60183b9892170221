/// Which input column feeds which `Store` field, resolved once per header
/// (CSV) or per key set (JSON objects) from the aliases of `StoreField`.
package struct ColumnLayout: Sendable {
    /// A header the layout cannot be built from.
    package enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Two columns with the same name (case-insensitively): which one
        /// would the store get?
        case duplicate(String)
        /// A column without a name: its values could not be kept.
        case unnamed(column: Int)
        /// A column whose name holds a NUL (U+0000): no catalog can keep it
        /// as an attribute's name (PostgreSQL's jsonb cannot hold one).
        case nulInName(column: Int)

        package var description: String {
            switch self {
            case .duplicate(let name): "duplicate column '\(name)' (names are compared ignoring case)"
            case .unnamed(let column): "column \(column) has no name"
            case .nulInName(let column): "the name of column \(column) holds U+0000 (NUL)"
            }
        }
    }

    /// The headers as written (trimmed): issue columns and attribute keys.
    package private(set) var headers: [String]
    /// `fieldColumns[field.rawValue]`: the column feeding the field.
    private var fieldColumns: [Int?]
    /// The columns kept as `Store.attributes`, in header order.
    package private(set) var attributeColumns: [Int]
    /// `scheduleColumns[column]`: whether the column holds opening hours or
    /// a time zone, which the import checks; decided here, once per header,
    /// since folding a header (trimmed by Unicode whitespace, lowercased)
    /// for every cell was 7 % of the CPU time of an import of the 234,908
    /// places (on the reading thread; the writing thread sets the pace).
    package private(set) var scheduleColumns: [ScheduleColumns.Column?]

    /// Resolves `headers`; fields in `excluded` are left unassigned and their
    /// aliases kept as attributes (GeoJSON takes coordinates from geometry).
    package init(headers rawHeaders: [String], excluding excluded: Set<StoreField> = []) throws(Problem) {
        headers = rawHeaders.map(HeaderName.cleaned)
        fieldColumns = Array(repeating: nil, count: StoreField.allCases.count)
        attributeColumns = []
        scheduleColumns = []

        var seen = Set<String>(minimumCapacity: headers.count)
        var bestRank = Array(repeating: Int.max, count: StoreField.allCases.count)
        for (column, header) in headers.enumerated() {
            guard !header.isEmpty else { throw .unnamed(column: column + 1) }
            guard !header.utf8.contains(0) else { throw .nulInName(column: column + 1) }
            guard seen.insert(header.lowercased()).inserted else { throw .duplicate(header) }
            guard let (field, rank) = StoreField.matching(header), !excluded.contains(field) else { continue }
            // The first alias in alias order wins, wherever it stands in the header.
            if rank < bestRank[field.rawValue] {
                bestRank[field.rawValue] = rank
                fieldColumns[field.rawValue] = column
            }
        }
        let fed = Set(fieldColumns.compactMap { $0 })
        attributeColumns = headers.indices.filter { !fed.contains($0) }
        scheduleColumns = headers.map(ScheduleColumns.column(named:))
    }

    /// The column feeding `field`, if any.
    package func column(of field: StoreField) -> Int? {
        fieldColumns[field.rawValue]
    }

    /// The required fields no column feeds.
    package var missingRequiredFields: [StoreField] {
        StoreField.allCases.filter { $0.isRequired && column(of: $0) == nil }
    }

    /// Adds a column that is not a header of the input (GeoJSON's geometry
    /// coordinates, the Feature's own `id`) and feeds `field` from it unless a
    /// header already does; such a column is never an attribute.
    package mutating func appendColumn(_ name: String, feeding field: StoreField) {
        headers.append(name)
        scheduleColumns.append(nil)
        if fieldColumns[field.rawValue] == nil {
            fieldColumns[field.rawValue] = headers.count - 1
        }
    }
}
