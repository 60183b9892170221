import GRDB

/// Types the attribute values of an import's rows as they stream by: the
/// types ``ImportOptions/columnTypes`` forces, and for CSV and TSV, whose
/// cells are text, a type per column decided over the whole column.
///
/// A column's type is only known at the end of the file, and the file is
/// never held, so each cell is written as the type it looks (a number
/// literal as a number, `true`/`false` as a boolean) while this records
/// what each column has held; once the file is read, ``fixColumns(list:_:)``
/// rewrites, in the import's transaction, only the stores of the columns
/// whose guess was wrong (a column of numbers with one `7A` goes back to
/// text, digits intact; one of `TRUE`/`False` becomes booleans). A column
/// of one type, the common case, costs no second pass.
struct AttributeTyping<Base: StoreRowReader>: StoreRowReader {
    private var base: Base
    private let infers: Bool
    /// Forced types by folded header.
    private let forced: [String: AttributeType]
    let log: AttributeColumnLog

    init(_ base: Base, forced: [String: AttributeType]) {
        self.base = base
        infers = base.cellsAreText
        var folded: [String: AttributeType] = [:]
        for (name, type) in forced { folded[HeaderName.folded(name)] = type }
        self.forced = folded
        log = AttributeColumnLog(forced: Set(folded.keys))
    }

    mutating func next() throws(ImportFileError) -> ImportRow? {
        guard let row = try base.next() else { return nil }
        guard case .valid(var store, let line) = row, infers || !forced.isEmpty, !store.attributes.isEmpty else {
            return row
        }
        var forcedKeys: Set<String> = []
        if !forced.isEmpty {
            var issues: [ImportIssue] = []
            for (key, value) in store.attributes {
                let folded = HeaderName.folded(key)
                guard let type = forced[folded] else { continue }
                forcedKeys.insert(key)
                log.sawForced(folded)
                guard let typed = Self.value(value, as: type) else {
                    issues.append(ImportIssue(line: line, column: key, reason: Self.misfit(value, type)))
                    continue
                }
                store.attributes[key] = typed
            }
            // By column: a dictionary's order would change from run to run.
            guard issues.isEmpty else { return .invalid(issues.sorted { ($0.column ?? "") < ($1.column ?? "") }) }
        }
        // Only a valid row's cells count towards their columns' types (a
        // row the writer later finds a duplicate id in still does: its
        // values can only make a column text, never lose a digit).
        if infers {
            // Each value replaced where it is, by index: no key hashed again,
            // and no copy of the dictionary (assigning by key while
            // iterating it copied it once a row). With the log's one lookup
            // a cell below, the 234,908 places' import went 661 → 640 ms
            // (`perf stat -r 7 carousel import`; `perf record` had put
            // dictionary lookups and hashing at 9 % of the reading thread).
            var attributes = store.attributes
            store.attributes = [:]
            var index = attributes.startIndex
            while index != attributes.endIndex {
                let (key, value) = attributes[index]
                if !forcedKeys.contains(key), case .string(let text) = value, let type = AttributeType.of(text.utf8) {
                    attributes.values[index] = log.observe(key, text: text, type: type)
                }
                attributes.formIndex(after: &index)
            }
            store.attributes = attributes
        }
        return .valid(store, line: line)
    }

    /// `value` as `type`, or nil when it does not fit; null fits every type.
    static func value(_ value: AttributeValue, as type: AttributeType) -> AttributeValue? {
        switch (value, type) {
        case (.null, _): return .null
        case (.string(let text), _): return type.value(text)
        case (_, .text): return value.text.map(AttributeValue.string)
        case (.number(let number), .number): return .number(number)
        case (.number(let number), .integer): return number.isInteger ? .number(number) : nil
        case (.bool, .boolean): return value
        default: return nil
        }
    }

    /// Why `value` does not fit `type`.
    private static func misfit(_ value: AttributeValue, _ type: AttributeType) -> String {
        let shown = value.text ?? "null"
        let quoted = shown.count > 40 ? "'\(shown.prefix(40))…'" : "'\(shown)'"
        let expected =
            switch type {
            case .integer: "an integer (digits, optionally after '-', no leading zero)"
            case .number: "a number (as JSON writes one: -12, 4.5, 1e5)"
            case .boolean: "true or false"
            case .text: "text"
            }
        return "not \(expected): \(quoted) (the column's type is \(type))"
    }
}

/// What each CSV column has held, for ``AttributeTyping``. Written by the
/// import's reading thread only, and read by the writing thread after the
/// reading thread has ended (`RowPipeline.read` joins it first).
final class AttributeColumnLog: @unchecked Sendable {
    struct Column {
        /// The narrowest type holding every value so far.
        var type: AttributeType
        /// Values written as numbers, or as booleans (from `true`/`false`),
        /// before the column's type was known.
        var wroteNumbers = false
        var wroteBooleans = false
        /// `TRUE`, `False`…: kept as strings until the column is known to
        /// be boolean, so a text column keeps their spelling.
        var keptBooleanSpellings = false

        /// Records a cell of `type`; returns the value to write now.
        mutating func observe(text: String, type: AttributeType) -> AttributeValue {
            self.type = self.type.joined(with: type)
            switch type {
            case .integer, .number:
                wroteNumbers = true
                return .number(AttributeValue.Number(checked: text))
            case .boolean:
                guard text == "true" || text == "false" else {
                    keptBooleanSpellings = true
                    return .string(text)
                }
                wroteBooleans = true
                return .bool(text == "true")
            case .text:
                return .string(text)
            }
        }
    }

    private(set) var columns: [String: Column] = [:]
    /// Folded names of the forced columns, and those seen in the file.
    let forced: Set<String>
    private(set) var seenForced: Set<String> = []

    init(forced: Set<String>) {
        self.forced = forced
    }

    func sawForced(_ folded: String) {
        if !seenForced.contains(folded) { seenForced.insert(folded) }
    }

    /// Records a cell of `type` in column `key`; returns the value to write
    /// now.
    func observe(_ key: String, text: String, type: AttributeType) -> AttributeValue {
        // One lookup, the column updated in place.
        columns[key, default: Column(type: type)].observe(text: text, type: type)
    }

    /// The type of every inferred column, by header.
    var types: [String: AttributeType] { columns.mapValues(\.type) }

    /// The columns whose values need rewriting, with their type.
    var columnsToFix: [String: AttributeType] {
        var fixes: [String: AttributeType] = [:]
        for (key, column) in columns {
            switch column.type {
            case .text where column.wroteNumbers || column.wroteBooleans: fixes[key] = .text
            case .boolean where column.keptBooleanSpellings: fixes[key] = .boolean
            default: break
            }
        }
        return fixes
    }

    /// Rewrites the attributes of the list's stores for ``columnsToFix``:
    /// one pass over the list's stores, a store at a time (memory does not
    /// grow with the list), in the import's transaction. Only the
    /// `attributes` column changes, which no index covers, so the scan is
    /// not disturbed by its own updates. Returns whether it rewrote any
    /// store.
    func fixColumns(list: Int64, _ db: Database) throws -> Bool {
        let fixes = columnsToFix
        guard !fixes.isEmpty else { return false }
        var rewrote = false
        let select = RawStatement(
            try db.makeStatement(sql: "SELECT key, attributes FROM stores WHERE list = ? AND attributes IS NOT NULL"), in: db)
        let update = RawStatement(try db.makeStatement(sql: "UPDATE stores SET attributes = ? WHERE key = ?"), in: db)
        select.bind(list, at: 1)
        var bytes: [UInt8] = []
        while try select.step() {
            let attributes = try select.withUTF8(1, AttributesJSON.decode(utf8:)) ?? [:]
            guard let fixed = AttributeColumnFix.apply(attributes, fixes) else { continue }
            rewrote = true
            bytes.removeAll(keepingCapacity: true)
            AttributesJSON.append(fixed, to: &bytes)
            update.reset()
            let key = select.int64(0)
            try bytes.withUnsafeBufferPointer { buffer in
                // Borrowed bytes: the step runs while they are valid.
                update.bind(borrowingUTF8: buffer[...], at: 1)
                update.bind(key, at: 2)
                try update.step()
            }
            update.reset()
        }
        select.reset()
        return rewrote
    }
}
