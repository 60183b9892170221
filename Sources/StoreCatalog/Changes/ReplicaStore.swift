import Foundation
import GRDB

/// Where a replica of a server's list stands (`sync_replicas`).
package struct ReplicaState: Sendable, Hashable {
    package var source: String
    /// The `next` of the last page applied; nil before the first.
    package var cursor: String?
    /// Whether the local list is the one `cursor` reached.
    package var complete: Bool
}

/// What applying one page did to a replica's rows.
package struct ReplicaPageOutcome: Sendable, Hashable {
    package var added = 0
    package var changed = 0
    package var removed = 0
    /// Whether the page brought the replica up to date and the local list
    /// was written from it.
    package var listWritten = false
}

/// Why a page was not applied; the replica is as it was.
package enum ReplicaPageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The page does not follow the cursor the replica holds (another
    /// process applied it, or the server answered out of order).
    case outOfOrder(held: String?, page: String?)
    /// The page is not a valid page of changes.
    case invalidPage(String)
    /// The replica's checksum at `upToDate` is not the server's.
    case checksumMismatch(server: String, replica: String)

    package var description: String {
        switch self {
        case let .outOfOrder(held, page):
            "the page does not follow the replica's cursor (held \(held ?? "none"), page after \(page ?? "none"))"
        case .invalidPage(let reason): "the server sent an invalid page: \(reason)"
        case let .checksumMismatch(server, replica):
            "the replica's checksum \(replica) is not the server's \(server)"
        }
    }
}

extension Catalog {
    /// The replica state of local list `list`, or nil when it is not one.
    package func replicaState(list: String) throws -> ReplicaState? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT source, cursor, complete FROM sync_replicas WHERE list = ?", arguments: [list])
                .map { ReplicaState(source: $0[0], cursor: $0[1], complete: $0[2]) }
        }
    }

    /// Forgets what the replica of `list` received (its rows and cursor),
    /// so that the next sync downloads the list from scratch; the local
    /// list stays as it is until that download is complete.
    package func resetReplica(list: String, source: String) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM sync_entries WHERE list = ?", arguments: [list])
            try db.execute(sql: "DELETE FROM sync_dirty WHERE list = ?", arguments: [list])
            try db.execute(
                sql: """
                    INSERT INTO sync_replicas (list, source, cursor, checksum, complete, rewrite) VALUES (?, ?, NULL, 0, 0, 1)
                    ON CONFLICT (list) DO UPDATE SET source = excluded.source, cursor = NULL, checksum = 0, complete = 0,
                        rewrite = 1
                    """, arguments: [list, source])
        }
    }

    /// Applies `page`, fetched with cursor `after`, to the replica of
    /// `list`: its changes and its `next` in ONE transaction, so a kill
    /// leaves the page applied with its cursor or not at all, and a page
    /// never applies twice (its `after` must be the cursor held). At
    /// `upToDate`, the replica's checksum must be the page's, and the
    /// local list is written from the replica's rows in the same
    /// transaction. Any error leaves the replica as it was.
    package func applyReplicaPage(
        list: String, source: String, after: String?, page: ChangePage
    ) throws -> ReplicaPageOutcome {
        try NameCharacters.checkListName(list)
        let changeLog = changeLogOptions
        return try write { db in
            // As an import: writing the list reads every page of it.
            try CatalogDatabase.readingUnmapped(db) {
                let held = try Row.fetchOne(db, sql: "SELECT cursor, checksum FROM sync_replicas WHERE list = ?", arguments: [list])
                let heldCursor: String? = held?[0]
                guard heldCursor == after else { throw ReplicaPageError.outOfOrder(held: heldCursor, page: after) }
                var checksum: Int64 = held?[1] ?? 0
                var outcome = ReplicaPageOutcome()
                let old = try RawStatement.cached(
                    """
                    SELECT rank, name, latitude, longitude, address, category, phone, attributes
                    FROM sync_entries WHERE list = ? AND id = ?
                    """, in: db)
                let upsert = try RawStatement.cached(
                    """
                    INSERT OR REPLACE INTO sync_entries (list, id, rank, name, latitude, longitude, address, category, phone, attributes)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, in: db)
                let delete = try RawStatement.cached("DELETE FROM sync_entries WHERE list = ? AND id = ?", in: db)
                // The first change of a store since the list was written keeps
                // the rank it had then.
                let dirty = try RawStatement.cached(
                    "INSERT OR IGNORE INTO sync_dirty (list, id, old_rank) VALUES (?, ?, ?)", in: db)
                var previous: Int64 = .min
                for change in page.changes {
                    guard change.sequence > previous else { throw ReplicaPageError.invalidPage("sequence numbers do not increase") }
                    previous = change.sequence
                    old.reset()
                    old.bind(list, at: 1)
                    old.bind(change.id, at: 2)
                    let found = try old.step()
                    dirty.reset()
                    dirty.bind(list, at: 1)
                    dirty.bind(change.id, at: 2)
                    if found { dirty.bind(old.int64(0), at: 3) } else { dirty.bindNull(at: 3) }
                    _ = try dirty.step()
                    dirty.reset()
                    if found {
                        let record = StoreRecord(
                            id: change.id, name: old.text(1) ?? "", latitude: old.double(2), longitude: old.double(3),
                            address: old.text(4), category: old.text(5), phone: old.text(6), attributes: old.text(7))
                        checksum &-= ChangeHash.item(content: ChangeHash.content(record), rank: old.int64(0))
                        if change.isTombstone { outcome.removed += 1 } else { outcome.changed += 1 }
                    } else if !change.isTombstone {
                        outcome.added += 1
                    }
                    old.reset()
                    guard let rank = change.rank else {
                        guard change.store == nil else { throw ReplicaPageError.invalidPage("a tombstone carries a store") }
                        delete.reset()
                        delete.bind(list, at: 1)
                        delete.bind(change.id, at: 2)
                        _ = try delete.step()
                        delete.reset()
                        continue
                    }
                    guard let store = change.store else { throw ReplicaPageError.invalidPage("an upsert of '\(change.id)' carries no store") }
                    try Self.check(store, id: change.id)
                    upsert.reset()
                    upsert.bind(list, at: 1)
                    upsert.bind(store.id, at: 2)
                    upsert.bind(rank, at: 3)
                    upsert.bind(store.name, at: 4)
                    upsert.bind(store.latitude, at: 5)
                    upsert.bind(store.longitude, at: 6)
                    upsert.bind(store.address, at: 7)
                    upsert.bind(store.category, at: 8)
                    upsert.bind(store.phone, at: 9)
                    upsert.bind(store.attributes, at: 10)
                    _ = try upsert.step()
                    upsert.reset()
                    checksum &+= ChangeHash.item(content: ChangeHash.content(store), rank: rank)
                }
                let wasComplete =
                    try Bool.fetchOne(db, sql: "SELECT complete FROM sync_replicas WHERE list = ?", arguments: [list]) ?? false
                // An empty list made or deleted changes no store: only whether
                // the list exists says so.
                let existsHere = try Bool.fetchOne(db, sql: "SELECT 1 FROM lists WHERE name = ?", arguments: [list]) ?? false
                var complete = wasComplete && page.changes.isEmpty && existsHere == page.exists
                if page.upToDate {
                    guard let expected = page.checksum else { throw ReplicaPageError.invalidPage("an upToDate page carries no checksum") }
                    let found = ChangeHash.hex(checksum)
                    guard expected == found else { throw ReplicaPageError.checksumMismatch(server: expected, replica: found) }
                    if !complete {
                        if try !Self.updateListInPlace(list, exists: page.exists, db, changeLog: changeLog) {
                            try Self.writeList(list, exists: page.exists, db, changeLog: changeLog)
                        }
                        try db.execute(sql: "DELETE FROM sync_dirty WHERE list = ?", arguments: [list])
                        outcome.listWritten = true
                        complete = true
                    }
                } else {
                    complete = false
                }
                try db.execute(
                    sql: """
                        INSERT INTO sync_replicas (list, source, cursor, checksum, complete) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (list) DO UPDATE SET source = excluded.source, cursor = excluded.cursor,
                            checksum = excluded.checksum, complete = excluded.complete
                        """, arguments: [list, source, page.next, checksum, complete])
                // The local list now is the replica's rows: later syncs may
                // update it store by store.
                if outcome.listWritten { try db.execute(sql: "UPDATE sync_replicas SET rewrite = 0 WHERE list = ?", arguments: [list]) }
                return outcome
            }
        }
    }

    /// What the import would refuse of a store, refused here too: the
    /// local list must be one an import could have made.
    private static func check(_ store: StoreRecord, id: String) throws {
        guard store.id == id, !id.isEmpty else { throw ReplicaPageError.invalidPage("a store's id is not its change's") }
        guard Coordinate(latitude: store.latitude, longitude: store.longitude).isValid else {
            throw ReplicaPageError.invalidPage("store '\(id)' has coordinates out of range")
        }
        if let attributes = store.attributes {
            do { _ = try AttributesJSON.decode(attributes) } catch {
                throw ReplicaPageError.invalidPage("store '\(id)' has attributes that are not a JSON object")
            }
        }
    }

    /// Updates local list `list` store by store when every store changed
    /// since it was written kept its rank (its content changed, not its
    /// place): the stores' rows in place, their spatial index rows and
    /// tiles when they moved, a new list version, and the local change
    /// log. False, having written nothing, when it cannot (a store added,
    /// removed or moved, no local list, or one to be written whole).
    private static func updateListInPlace(_ list: String, exists: Bool, _ db: Database, changeLog: ChangeLogOptions) throws -> Bool {
        guard exists,
            let key = try Int64.fetchOne(db, sql: "SELECT key FROM lists WHERE name = ?", arguments: [list]),
            try Bool.fetchOne(db, sql: "SELECT rewrite = 0 FROM sync_replicas WHERE list = ?", arguments: [list]) == true
        else { return false }
        let moved =
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM sync_dirty AS d LEFT JOIN sync_entries AS e ON e.list = d.list AND e.id = d.id
                                   WHERE d.list = ? AND (d.old_rank IS NULL OR e.rank IS NULL OR e.rank <> d.old_rank))
                    """, arguments: [list]) ?? true
        guard !moved else { return false }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT s.key, s.latitude, s.longitude, e.id, e.name, e.latitude, e.longitude, e.address, e.category, e.phone,
                       e.attributes
                FROM sync_dirty AS d JOIN sync_entries AS e ON e.list = d.list AND e.id = d.id
                LEFT JOIN stores AS s ON s.list = ? AND s.id = d.id
                WHERE d.list = ?
                """, arguments: [key, list])
        var records: [StoreRecord] = []
        for row in rows {
            guard (row[0] as Int64?) != nil else { return false }  // not in the local list: write it whole
            records.append(
                StoreRecord(
                    id: row[3], name: row[4], latitude: row[5], longitude: row[6], address: row[7], category: row[8],
                    phone: row[9], attributes: row[10]))
        }
        // Logged first: the log's base, if any, holds their old contents
        // on the rows about to change.
        try ChangeLog.recordContentChanges(name: list, records, db, options: changeLog)
        var tilesMoved = false
        for (row, record) in zip(rows, records) {
            let store: Int64 = row[0]
            let oldLatitude: Double = row[1], oldLongitude: Double = row[2]
            try db.execute(
                sql: """
                    UPDATE stores SET name = ?, latitude = ?, longitude = ?, address = ?, category = ?, phone = ?, attributes = ?
                    WHERE key = ?
                    """,
                arguments: [
                    record.name, record.latitude, record.longitude, record.address, record.category, record.phone,
                    record.attributes, store,
                ])
            if oldLatitude != record.latitude || oldLongitude != record.longitude {
                tilesMoved = true
                try db.execute(
                    sql: "DELETE FROM spatial_index WHERE band = ? AND longitude = ? AND latitude = ? AND store = ? AND list = ?",
                    arguments: [SpatialIndex.band(latitude: oldLatitude), oldLongitude, oldLatitude, store, key])
                try db.execute(
                    sql: "INSERT INTO spatial_index (band, longitude, latitude, store, list) VALUES (?, ?, ?, ?, ?)",
                    arguments: [SpatialIndex.band(latitude: record.latitude), record.longitude, record.latitude, store, key])
            }
        }
        if tilesMoved { try SpatialTiles.rebuild(list: key, db) }
        // A new version, as the lists triggers give one (migration 0008):
        // the server's tags and sessions must see the list changed.
        try db.execute(sql: "UPDATE counters SET value = value + 1 WHERE name = 'list_version'")
        try db.execute(
            sql: "UPDATE lists SET version = (SELECT value FROM counters WHERE name = 'list_version') WHERE key = ?",
            arguments: [key])
        return true
    }

    /// Writes local list `list` from the replica's rows, in rank order, as
    /// an import would have: a new list row (a new version), its stores,
    /// items, spatial index and tiles; the old list's rows go. No list
    /// when the server has none. Recorded in the local change log too.
    private static func writeList(_ list: String, exists: Bool, _ db: Database, changeLog: ChangeLogOptions) throws {
        let former = try Int64.fetchOne(db, sql: "SELECT key FROM lists WHERE name = ?", arguments: [list])
        if let former { try deleteRows(ofList: former, db) }
        guard exists else {
            if former != nil { try ChangeLog.record(name: list, list: nil, db, options: changeLog) }
            return
        }
        try db.execute(
            sql: "INSERT INTO lists (key, name) SELECT max(coalesce(max(key), 0), ?) + 1, ? FROM lists",
            arguments: [former ?? 0, list])
        let key = db.lastInsertedRowID
        // Keys are given in rank order, so key order is list order below.
        try db.execute(
            sql: """
                INSERT INTO stores (list, id, name, latitude, longitude, address, category, phone, attributes)
                SELECT ?, id, name, latitude, longitude, address, category, phone, attributes
                FROM sync_entries WHERE list = ? ORDER BY rank, id
                """, arguments: [key, list])
        try db.execute(
            sql: """
                INSERT INTO list_items (list, position, store)
                SELECT ?, row_number() OVER (ORDER BY key) - 1, key FROM stores WHERE list = ?
                """, arguments: [key, key])
        try db.execute(
            sql: """
                INSERT INTO spatial_index (band, longitude, latitude, store, list)
                SELECT \(SpatialIndex.bandSQL(latitude: "latitude")), longitude, latitude, key, ? FROM stores WHERE list = ?
                ORDER BY 1, 2, 3, 4
                """, arguments: [key, key])
        try SpatialTiles.rebuild(list: key, db)
        try ChangeLog.record(name: list, list: key, db, options: changeLog)
    }
}
