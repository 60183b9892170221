import GRDB

/// The body of an import's transaction: replace or create the list, stream
/// the rows into the stores, the list's items and its spatial entries, and
/// judge the outcome.
struct ListImporter<Reader: StoreRowReader> {
    let list: String
    let reader: Reader
    let options: ImportOptions
    var pipeline = RowPipeline.Shape.standard

    func run(_ db: Database) throws -> ImportReport {
        let formerStores = try removeExistingList(db)
        try db.execute(sql: "INSERT INTO lists (name) VALUES (?)", arguments: [list])
        let listKey = db.lastInsertedRowID

        var stores = try StoreWriter(db)
        var items = try ListItemWriter(list: listKey, order: options.order, db)
        var entries: [SpatialIndex.Entry] = []
        var issues: [ImportIssue] = []
        var rejected = 0

        // The rows are read and validated on a second thread; this one
        // writes them in file order, so issues come out in file order too.
        try RowPipeline.read(reader, shape: pipeline) { batch in
            let outcomes = try batch.withText { text in try stores.write(batch, text: text) }
            var next = outcomes.makeIterator()
            for row in batch.rows {
                switch row {
                case let .invalid(rowIssues):
                    issues += rowIssues
                    rejected += 1
                case let .store(store):
                    switch next.next()! {
                    case let .duplicate(firstLine):
                        issues.append(ImportIssue(
                            line: store.line, column: "id",
                            reason: "duplicate id '\(batch.id(of: store))' (also on line \(firstLine))"))
                        rejected += 1
                    case let .written(key):
                        let coordinate = Coordinate(latitude: store.latitude, longitude: store.longitude)
                        try items.append(store: key, coordinate: coordinate)
                        entries.append(SpatialIndex.Entry(store: key, latitude: store.latitude, longitude: store.longitude))
                    }
                }
            }
        }

        if rejected > 0 && !options.skipInvalid {
            // Thrown out of the transaction: everything above is rolled back.
            throw CatalogError.rowsRejected(ImportReport(list: list, imported: 0, rejected: rejected, issues: issues))
        }
        try items.finish()
        try SpatialIndex.insert(&entries, list: listKey, db)
        try removeUnlisted(formerStores, keeping: entries, db)
        return ImportReport(list: list, imported: entries.count, rejected: rejected, issues: issues)
    }

    /// With `replace`, drops the list of the same name (its items and index
    /// entries) and returns the keys of its stores; without, refuses.
    private func removeExistingList(_ db: Database) throws -> [Int64] {
        guard let existing = try Int64.fetchOne(db, sql: "SELECT key FROM lists WHERE name = ?", arguments: [list])
        else { return [] }
        guard options.replace else { throw CatalogError.listExists(list) }
        let stores = try Int64.fetchAll(db, sql: "SELECT store FROM list_items WHERE list = ?", arguments: [existing])
        // One pass over the index (it is keyed by place, not by list): a few
        // milliseconds per 100,000 entries, and no per-row index to maintain.
        try db.execute(sql: "DELETE FROM spatial_index WHERE list = ?", arguments: [existing])
        try db.execute(sql: "DELETE FROM list_items WHERE list = ?", arguments: [existing])
        try db.execute(sql: "DELETE FROM lists WHERE key = ?", arguments: [existing])
        return stores
    }

    /// Deletes the replaced list's stores that no list holds any more: a store
    /// lives as long as some list does.
    private func removeUnlisted(_ formerStores: [Int64], keeping entries: [SpatialIndex.Entry], _ db: Database) throws {
        guard !formerStores.isEmpty else { return }
        let kept = Set(entries.lazy.map(\.store))
        for store in formerStores where !kept.contains(store) {
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT latitude, longitude FROM stores WHERE key = ?"), arguments: [store])
            guard let row else { continue }
            if try !SpatialIndex.isListed(store: store, at: Coordinate(latitude: row[0], longitude: row[1]), db) {
                try db.execute(sql: "DELETE FROM stores WHERE key = ?", arguments: [store])
            }
        }
    }
}
