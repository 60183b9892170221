import Geo

/// An import into another catalog (the PostgreSQL one): the same reading,
/// validation, attribute typing and judging as ``Catalog/importList(named:from:options:)``,
/// so the report is the same; the other catalog only writes the stores.
///
/// Used as: create it (which checks the list name and options), take the
/// stores from `next()` (each valid one with its line; invalid rows and
/// repeated ids are logged), then `finish`.
package struct ForeignImport<Reader: StoreRowReader> {
    private var typed: AttributeTyping<Reader>
    private let list: String
    private let options: ImportOptions
    private var issues: IssueLog
    private var rejected = 0
    /// The line of each id this import has written: duplicates are told
    /// with the first line, as the SQLite importer tells them.
    private var lines: [String: Int] = [:]

    package init(list: String, reader: Reader, options: ImportOptions) throws {
        try options.check(list: list)
        self.list = list
        self.options = options
        typed = AttributeTyping(reader, forced: options.columnTypes)
        issues = IssueLog(limit: options.issueLimit)
    }

    /// The next store to write, in file order, with its line; `nil` at the
    /// end of the file. Invalid rows and repeated ids are logged here, and
    /// past the issue limit this throws `CatalogError.rowsRejected` with
    /// `stoppedEarly`, as the SQLite import does.
    package mutating func next() throws -> (store: Store, line: Int)? {
        while let row = try typed.next() {
            switch row {
            case let .invalid(rowIssues):
                try reject(rowIssues)
            case let .valid(store, line):
                // As `RowBatch.append`: a reader bug is a reported row.
                guard store.coordinate.isValid else {
                    try reject([
                        ImportIssue(line: line, column: nil, reason: "coordinates \(store.coordinate) are out of range")
                    ])
                    continue
                }
                if let first = lines[store.id] {
                    try reject([
                        ImportIssue(line: line, column: "id", reason: "duplicate id '\(store.id)' (also on line \(first))")
                    ])
                    continue
                }
                lines[store.id] = line
                return (store, line)
            }
        }
        return nil
    }

    private mutating func reject(_ rowIssues: [ImportIssue]) throws {
        issues.add(rowIssues)
        rejected += 1
        if rejected > options.issueLimit {
            throw CatalogError.rowsRejected(
                ImportReport(list: list, imported: 0, rejected: rejected, log: issues, stoppedEarly: true))
        }
    }

    /// The columns whose type was guessed wrong while streaming, and the
    /// type each must take: the stores written must be fixed with
    /// `AttributeColumnFix.apply(_:_:)` before the commit.
    package var columnsToFix: [String: AttributeType] { typed.log.columnsToFix }

    /// The report once every row is read and `imported` stores written; it
    /// throws as the SQLite import does when rows were rejected without
    /// `skipInvalid`, or a forced column never appeared.
    package func finish(imported: Int) throws -> ImportReport {
        if rejected > 0 && !options.skipInvalid {
            throw CatalogError.rowsRejected(
                ImportReport(list: list, imported: 0, rejected: rejected, log: issues, stoppedEarly: false))
        }
        let columns = typed.log
        if let unseen = columns.forced.subtracting(columns.seenForced).sorted().first {
            throw CatalogError.invalidArgument("no attribute column '\(unseen)' in the file to give a type")
        }
        var report = ImportReport(list: list, imported: imported, rejected: rejected, log: issues, stoppedEarly: false)
        report.columnTypes = columns.types
        for (name, type) in options.columnTypes where columns.seenForced.contains(HeaderName.folded(name)) {
            report.columnTypes[name] = type
        }
        return report
    }
}

/// The rewrite of a column whose type was guessed wrong while streaming,
/// in either catalog.
package enum AttributeColumnFix {
    /// A store's attributes with the `columnsToFix` rewritten, or `nil` if
    /// unchanged.
    package static func apply(
        _ attributes: [String: AttributeValue], _ fixes: [String: AttributeType]
    ) -> [String: AttributeValue]? {
        var attributes = attributes
        var changed = false
        for (key, type) in fixes {
            guard let value = attributes[key] else { continue }
            switch (type, value) {
            case (.text, .number), (.text, .bool):
                attributes[key] = .string(value.text!)
                changed = true
            case (.boolean, .string(let text)):
                attributes[key] = AttributeType.booleanValue(text.utf8).map(AttributeValue.bool) ?? value
                changed = true
            default: break
            }
        }
        return changed ? attributes : nil
    }
}

extension AttributesJSON {
    /// A store's attributes as the JSON text the SQLite catalog stores
    /// (`nil` when there are none), for another catalog to store the same.
    package static func text(_ attributes: [String: AttributeValue]) -> String? {
        guard !attributes.isEmpty else { return nil }
        var bytes: [UInt8] = []
        append(attributes, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

}
