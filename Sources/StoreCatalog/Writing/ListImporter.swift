import GRDB

/// The body of an import's transaction: replace or create the list, stream
/// the rows into the stores, the list's items and its spatial entries, and
/// judge the outcome.
struct ListImporter<Reader: StoreRowReader> {
    let list: String
    let reader: Reader
    let options: ImportOptions
    var pipeline = RowPipeline.Shape.standard
    var spatialMemoryLimit = SpatialIndexWriter.memoryLimit

    func run(_ db: Database) throws -> ImportReport {
        // Every page this import reads would otherwise stay mapped, and
        // mapped pages count as resident: an import updating every store of
        // a 234,908-store catalog touched all 48 MB of it and peaked at
        // 90 MB instead of 41. Read through SQLite's page cache (2 MB,
        // bounded) instead; lookups map the file again afterwards.
        try db.execute(sql: "PRAGMA mmap_size = 0")
        defer { try? db.execute(sql: "PRAGMA mmap_size = \(CatalogDatabase.mmapSize)") }

        let former = try detachExistingList(db)
        // A key above the detached list's, whose items stay until the end.
        try db.execute(
            sql: "INSERT INTO lists (key, name) SELECT max(coalesce(max(key), 0), ?) + 1, ? FROM lists",
            arguments: [former ?? 0, list])
        let listKey = db.lastInsertedRowID

        var stores = try StoreWriter(db)
        var items = try ListItemWriter(list: listKey, order: options.order, db)
        var entries = SpatialIndexWriter(list: listKey, limit: spatialMemoryLimit, db)
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
                        try entries.append(store: key, latitude: store.latitude, longitude: store.longitude)
                    }
                }
            }
        }

        if rejected > 0 && !options.skipInvalid {
            // Thrown out of the transaction: everything above is rolled back.
            throw CatalogError.rowsRejected(ImportReport(list: list, imported: 0, rejected: rejected, issues: issues))
        }
        try stores.finish()
        try items.finish()
        try entries.finish()
        // Stores this import moved stay in the tiles of their other lists
        // at their old coordinates: those lists' tiles are written again.
        for moved in stores.listsOfMovedStores.sorted() where moved != listKey {
            try SpatialTiles.rebuild(list: moved, db)
        }
        if let former { try removeDetachedList(former, db) }
        return ImportReport(list: list, imported: entries.count, rejected: rejected, issues: issues)
    }

    /// With `replace`, drops the list of the same name and its index
    /// entries, and returns its key; without, refuses.
    ///
    /// Its items stay, under a key no list has, until
    /// ``removeDetachedList(_:_:)``: they name the stores the new list may
    /// leave in no list, without holding them in memory.
    private func detachExistingList(_ db: Database) throws -> Int64? {
        guard let existing = try Int64.fetchOne(db, sql: "SELECT key FROM lists WHERE name = ?", arguments: [list])
        else { return nil }
        guard options.replace else { throw CatalogError.listExists(list) }
        // One pass over the index (it is keyed by place, not by list): a few
        // milliseconds per 100,000 entries, and no per-row index to maintain.
        // Done before the rows are written, so that a moved store's entries
        // in this list are not moved for nothing.
        try db.execute(sql: "DELETE FROM spatial_index WHERE list = ?", arguments: [existing])
        try SpatialTiles.delete(list: existing, db)
        try db.execute(sql: "DELETE FROM lists WHERE key = ?", arguments: [existing])
        return existing
    }

    /// Deletes the detached list's items and those of its stores that no
    /// list holds any more (the index holds every list's memberships, the
    /// new one's included by now), in two set-based statements.
    private func removeDetachedList(_ detached: Int64, _ db: Database) throws {
        _ = try SpatialIndex.deleteUnlistedStores(of: detached, db)
        try db.execute(sql: "DELETE FROM list_items WHERE list = ?", arguments: [detached])
    }
}
