import GRDB
import Geo

/// The body of an import's transaction: replace or create the list, stream
/// the rows into the stores, the list's items and its spatial entries, and
/// judge the outcome.
struct ListImporter<Reader: StoreRowReader> {
    let list: String
    let reader: Reader
    let options: ImportOptions
    var pipeline = RowPipeline.Shape.standard
    var spatialMemoryLimit = SpatialIndexWriter.memoryLimit

    /// Imports the rows; returns the report and, when the list's change
    /// log will record this import as a first one, its stores gathered for
    /// the log as they were written (``ChangeLog/ImportedStores``).
    func run(_ db: Database) throws -> (report: ImportReport, imported: ChangeLog.ImportedStores?) {
        // A replace reads a whole list, and every store written is read
        // back into the indexes: through the page cache, not the map.
        try CatalogDatabase.readingUnmapped(db) { try importRows(db) }
    }

    private func importRows(_ db: Database) throws -> (report: ImportReport, imported: ChangeLog.ImportedStores?) {
        let former = try removeExistingList(db)
        // A key above the replaced list's too: a new list never takes a
        // replaced one's key, so nothing keyed by list key (a stored
        // cluster index, a reader's cache) can mistake one for the other.
        try db.execute(
            sql: "INSERT INTO lists (key, name, time_zone) SELECT max(coalesce(max(key), 0), ?) + 1, ?, ? FROM lists",
            arguments: [former ?? 0, list, options.timeZone])
        let listKey = db.lastInsertedRowID

        var stores = try StoreWriter(list: listKey, db)
        var items = try ListItemWriter(list: listKey, order: options.order, db)
        var entries = SpatialIndexWriter(list: listKey, limit: spatialMemoryLimit, db)
        var imported = try ChangeLog.ImportedStores.forImport(name: list, order: options.order, db)
        var issues = IssueLog(limit: options.issueLimit)
        var rejected = 0

        // The rows are read and validated on a second thread; this one
        // writes them in file order, so issues come out in file order too.
        // Past the limit the rest of the file is not read: a file of garbage
        // (or /dev/urandom) stops in bounded time.
        func write(_ batch: RowBatch) throws {
            try batch.withText { text in try write(batch, text: text) }
        }
        func write(_ batch: RowBatch, text: UnsafeBufferPointer<UInt8>) throws {
            let outcomes = try stores.write(batch, text: text)
            var next = outcomes.makeIterator()
            for row in batch.rows {
                switch row {
                case let .invalid(rowIssues):
                    issues.add(rowIssues)
                    rejected += 1
                    if rejected > options.issueLimit { throw TooManyIssues() }
                case let .store(store):
                    switch next.next()! {
                    case let .duplicate(firstLine):
                        issues.add(
                            ImportIssue(
                                line: store.line, column: "id",
                                reason: "duplicate id '\(batch.id(of: store))' (also on line \(firstLine))"))
                        rejected += 1
                        if rejected > options.issueLimit { throw TooManyIssues() }
                    case let .written(key):
                        let coordinate = Coordinate(latitude: store.latitude, longitude: store.longitude)
                        try items.append(store: key, coordinate: coordinate)
                        try entries.append(store: key, latitude: store.latitude, longitude: store.longitude)
                        imported?.append(store, of: batch, text: text, key: key)
                    }
                }
            }
        }

        let typed = AttributeTyping(reader, forced: options.columnTypes)
        let columns = typed.log
        do {
            try RowPipeline.read(typed, shape: pipeline) { batch in
                try write(batch)
            }
        } catch is TooManyIssues {
            throw CatalogError.rowsRejected(
                ImportReport(list: list, imported: 0, rejected: rejected, log: issues, stoppedEarly: true))
        }

        if rejected > 0 && !options.skipInvalid {
            // Thrown out of the transaction: everything above is rolled back.
            throw CatalogError.rowsRejected(
                ImportReport(list: list, imported: 0, rejected: rejected, log: issues, stoppedEarly: false))
        }
        // Past here the reading thread has ended: the column log is whole.
        if let unseen = columns.forced.subtracting(columns.seenForced).sorted().first {
            throw CatalogError.invalidArgument("no attribute column '\(unseen)' in the file to give a type")
        }
        // Rewritten stores are not as the log gathered them.
        if try columns.fixColumns(list: listKey, db) { imported?.abandon() }
        try items.finish()
        try entries.finish()
        var report = ImportReport(list: list, imported: entries.count, rejected: rejected, log: issues, stoppedEarly: false)
        report.columnTypes = columns.types
        for (name, type) in options.columnTypes where columns.seenForced.contains(HeaderName.folded(name)) {
            report.columnTypes[name] = type
        }
        return (report, imported)
    }

    /// Thrown out of the row loop once more rows than the limit are rejected.
    private struct TooManyIssues: Error {}

    /// With `replace`, deletes the list of the same name: its stores, items
    /// and index entries, which no other list shares (a store belongs to one
    /// list). Without, refuses. In the import's transaction, so a failed
    /// import leaves the list as it was. Returns the deleted list's key.
    private func removeExistingList(_ db: Database) throws -> Int64? {
        guard let existing = try Int64.fetchOne(db, sql: "SELECT key FROM lists WHERE name = ?", arguments: [list])
        else { return nil }
        guard options.replace else { throw CatalogError.listExists(list) }
        try Catalog.deleteRows(ofList: existing, db)
        return existing
    }
}
