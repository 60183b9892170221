import Geo

/// An import into another catalog (the PostgreSQL one): the same reading,
/// validation, attribute typing and judging as ``Catalog/importList(named:from:options:)``,
/// so the report is the same; the other catalog writes the stores and
/// finds the repeated ids itself.
///
/// Used as: create it (which checks the list name and options), take the
/// valid rows from `next()` (each with its line) and stage them, ask the
/// staged rows for their repeated ids, then `finish(duplicates:…)`.
///
/// Why the other catalog finds the repeated ids: kept here, the ids of a
/// file cost about 100 bytes a store in memory, so an import's memory grew
/// with the file; staged in the database, it does not.
package struct ForeignImport<Reader: StoreRowReader> {
    private var typed: AttributeTyping<Reader>
    private let list: String
    private let options: ImportOptions
    /// The rows rejected while reading, in file order: at most
    /// ``duplicateLimit`` of them, as reading stops past the issue limit.
    private var rejectedRows: [(line: Int, issues: [ImportIssue])] = []
    /// The rows rejected in all and their issues, once judged.
    private var judged: (rejected: Int, issues: IssueLog)?

    package init(list: String, reader: Reader, options: ImportOptions) throws {
        try options.check(list: list)
        self.list = list
        self.options = options
        typed = AttributeTyping(reader, forced: options.columnTypes)
    }

    /// How many of the repeated ids (the first ones in file order) the
    /// judging needs at most: one past the issue limit, where the SQLite
    /// import stops.
    package var duplicateLimit: Int { options.issueLimit + 1 }

    /// The next valid row to stage, in file order, with its line; `nil` at
    /// the end of the file, or once more rows than the issue limit were
    /// rejected (the SQLite import stops reading there too). Ids are not
    /// checked for repeats here.
    package mutating func next() throws -> (store: Store, line: Int)? {
        while rejectedRows.count < duplicateLimit, let row = try typed.next() {
            switch row {
            case let .invalid(rowIssues):
                rejectedRows.append((rowIssues.first?.line ?? 0, rowIssues))
            case let .valid(store, line):
                // As `RowBatch.append`: a reader bug is a reported row.
                guard store.coordinate.isValid else {
                    rejectedRows.append(
                        (line, [ImportIssue(line: line, column: nil, reason: "coordinates \(store.coordinate) are out of range")]))
                    continue
                }
                return (store, line)
            }
        }
        return nil
    }

    /// The columns whose type was guessed wrong while streaming, and the
    /// type each must take: the stores written must be fixed with
    /// `AttributeColumnFix.apply(_:_:)` before the commit.
    package var columnsToFix: [String: AttributeType] { typed.log.columnsToFix }

    /// Judges an import whose staged rows held `duplicates` (the first
    /// ``duplicateLimit`` repeated ids in file order: each row after the
    /// first with its id) as the SQLite import judges, row by row in file
    /// order: each rejected row, invalid or repeated, counts once, and past
    /// the issue limit the import stops with ``ImportReport/stoppedEarly``.
    /// Throws ``CatalogError/rowsRejected(_:)`` as the SQLite import does;
    /// otherwise the staged rows but the repeated ones are to be written,
    /// and ``report(imported:)`` says what was done.
    ///
    /// When the import is not refused, `duplicates` holds every repeated
    /// row: each is a rejected row, and there are at most as many as the
    /// issue limit, one fewer than ``duplicateLimit``.
    package mutating func judge(duplicates: [RepeatedRow]) throws {
        var issues = IssueLog(limit: options.issueLimit)
        var rejected = 0
        var invalid = rejectedRows.makeIterator(), repeated = duplicates.makeIterator()
        var nextInvalid = invalid.next(), nextRepeated = repeated.next()
        while true {
            let rowIssues: [ImportIssue]
            if let row = nextInvalid, nextRepeated.map({ row.line < $0.line }) ?? true {
                rowIssues = row.issues
                nextInvalid = invalid.next()
            } else if let row = nextRepeated {
                rowIssues = [
                    ImportIssue(line: row.line, column: "id", reason: "duplicate id '\(row.id)' (also on line \(row.firstLine))")
                ]
                nextRepeated = repeated.next()
            } else {
                break
            }
            issues.add(rowIssues)
            rejected += 1
            if rejected > options.issueLimit {
                throw CatalogError.rowsRejected(
                    ImportReport(list: list, imported: 0, rejected: rejected, log: issues, stoppedEarly: true))
            }
        }
        if rejected > 0 && !options.skipInvalid {
            throw CatalogError.rowsRejected(
                ImportReport(list: list, imported: 0, rejected: rejected, log: issues, stoppedEarly: false))
        }
        if let unseen = typed.log.forced.subtracting(typed.log.seenForced).sorted().first {
            throw CatalogError.invalidArgument("no attribute column '\(unseen)' in the file to give a type")
        }
        judged = (rejected, issues)
    }

    /// The report of a judged import (``judge(duplicates:)``) that wrote
    /// `imported` stores.
    package func report(imported: Int) -> ImportReport {
        let (rejected, issues) = judged ?? (0, IssueLog(limit: options.issueLimit))
        let columns = typed.log
        var report = ImportReport(list: list, imported: imported, rejected: rejected, log: issues, stoppedEarly: false)
        report.columnTypes = columns.types
        for (name, type) in options.columnTypes where columns.seenForced.contains(HeaderName.folded(name)) {
            report.columnTypes[name] = type
        }
        return report
    }
}

/// A staged row of a ``ForeignImport`` whose id an earlier row of the file
/// already has.
package struct RepeatedRow: Sendable {
    package var line: Int
    package var id: String
    /// The line of the first row with that id.
    package var firstLine: Int

    package init(line: Int, id: String, firstLine: Int) {
        self.line = line
        self.id = id
        self.firstLine = firstLine
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
