import TextInput

/// One JSON object read as a row: its keys are the headers, its values the
/// fields, so JSON rows go through the same `ColumnLayout` and
/// `StoreRowValidator` as CSV rows.
///
/// Objects of one file nearly always share their keys, so the layout is
/// cached and rebuilt only when the keys change (compared as bytes; no
/// String is built for a key that has been seen).
package struct JSONObjectRow {
    /// The keys of the object, unescaped, one field each.
    package private(set) var keys = RawFields()
    /// The values, one field per key (see `JSONTokenizer.readValue`), then any
    /// columns a reader appends (GeoJSON coordinates).
    package var values = RawFields()
    /// What each value was, by key: attributes keep their JSON types.
    package private(set) var kinds: [JSONTokenizer.ValueKind] = []

    private var cachedKeys = RawFields()
    private var cachedVariant = 0
    private var cachedLayout: Result<ColumnLayout, ColumnLayout.Problem>?

    package init() {}

    /// Reads the members of an object whose `{` the tokenizer has consumed,
    /// through its `}`; the row starts at `line`.
    package mutating func read(
        from tokenizer: inout JSONTokenizer,
        line: Int
    ) throws(JSONTokenizer.Failure) {
        keys.removeAll()
        values.removeAll()
        kinds.removeAll(keepingCapacity: true)
        values.line = line
        var first = true
        while try tokenizer.nextMember(isFirst: &first, keys: &keys) {
            kinds.append(try tokenizer.readValue(into: &values))
            values.endField()
        }
    }

    /// Empties the row (an object whose `properties` are null).
    package mutating func removeAll(line: Int) {
        keys.removeAll()
        values.removeAll()
        kinds.removeAll(keepingCapacity: true)
        values.line = line
    }

    /// The layout of the current keys, made by `make` from the keys as
    /// Strings when the keys or the `variant` (what the reader appends) differ
    /// from the last object's.
    package mutating func layout(
        variant: Int = 0,
        make: ([String]) throws(ColumnLayout.Problem) -> ColumnLayout
    ) -> Result<ColumnLayout, ColumnLayout.Problem> {
        if let cachedLayout, cachedVariant == variant, cachedKeys == keys { return cachedLayout }
        // Keys are names, not data: a malformed byte shows as U+FFFD rather
        // than failing the row.
        let headers = (0..<keys.count).map { String(decoding: keys.field($0), as: UTF8.self) }
        let layout = Result { () throws(ColumnLayout.Problem) in try make(headers) }
        cachedKeys = keys
        cachedVariant = variant
        cachedLayout = layout
        return layout
    }

    /// Validates the row: a duplicate or empty key is the row's only issue.
    package func validated(
        _ layout: Result<ColumnLayout, ColumnLayout.Problem>,
        knownIssues: [ImportIssue] = [],
        checksCoordinates: Bool = true
    ) -> ImportRow {
        switch layout {
        case .success(let layout):
            return StoreRowValidator.validate(
                values, layout: layout, knownIssues: knownIssues, checksCoordinates: checksCoordinates, kinds: kinds
            )
        case .failure(let problem):
            return .invalid(knownIssues + [ImportIssue(line: values.line, column: nil, reason: "\(problem)")])
        }
    }
}
