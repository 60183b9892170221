import Foundation
import GRDB
import Locks

extension Catalog {
    /// The change log's tombstone retention and clock, for the writes of
    /// this catalog (30 days and the system clock by default).
    public var changeLogOptions: ChangeLogOptions {
        get { changeLogSettings.options.withLock { $0 } }
        set { changeLogSettings.options.withLock { $0 = newValue } }
    }

    /// A page of the changes of list `list` after cursor `since`, at most
    /// `limit` of them (1...100,000), in sequence order: CouchDB's
    /// `_changes?since=`.
    ///
    /// Without `since`, the list from scratch: its stores, and no
    /// tombstone of a store deleted before the first page; `next` of each
    /// page continues it, then follows the list's changes. A replica that
    /// applies every page up to one whose `upToDate` is true holds the list
    /// as it is at that page, whatever was written between the pages: each
    /// store appears at its last change only, so a store changed while
    /// pages are read comes again in a later page.
    ///
    /// Throws ``ChangeCursorError/invalid(_:)`` for a cursor this list's
    /// feed did not give, ``ChangeCursorError/resyncRequired(list:)`` for
    /// one older than the tombstones kept, and
    /// ``CatalogError/listNotFound(_:)`` when no list ever had the name.
    /// A list that was deleted or renamed away answers with tombstones.
    public func changes(list name: String, since: String?, limit: Int) throws -> ChangePage {
        guard (1...ChangeLog.maxPage).contains(limit) else {
            throw CatalogError.invalidArgument("limit must be in 1...\(ChangeLog.maxPage) (got \(limit))")
        }
        // A download from scratch reads the whole list, page by page.
        return try read { db in
            try CatalogDatabase.readingUnmapped(db) { try ChangeLog.page(name: name, since: since, limit: limit, db) }
        }
    }

    /// Purges every feed's tombstones older than the retention
    /// (``changeLogOptions``) now; returns how many went. Writes do it
    /// for their own list; this is for a catalog whose lists stopped
    /// changing.
    @discardableResult
    public func compactChanges() throws -> Int {
        let options = changeLogOptions
        let cutoff = ChangeLog.stamp(options) - ChangeLog.seconds(options.retention)
        return try write { db in
            var purged = 0
            for name in try String.fetchAll(db, sql: "SELECT name FROM change_feeds ORDER BY key") {
                guard var feed = try ChangeLog.feed(named: name, db) else { continue }
                purged += try ChangeLog.compact(feed: &feed, before: cutoff, db)
                try db.execute(sql: "UPDATE change_feeds SET floor = ? WHERE key = ?", arguments: [feed.floor, feed.key])
            }
            return purged
        }
    }
}

/// The lock around a catalog's ``ChangeLogOptions``.
final class ChangeLogSettings: Sendable {
    let options = StateLock(ChangeLogOptions())
}

extension ChangeLog {
    /// The most changes in one page.
    package static let maxPage = 100_000

    static func page(name: String, since: String?, limit: Int, _ db: Database) throws -> ChangePage {
        let listKey = try Int64.fetchOne(db, sql: "SELECT key FROM lists WHERE name = ?", arguments: [name])
        guard let feed = try feed(named: name, db) else { throw CatalogError.listNotFound(name) }
        let cursor = try start(name: name, since: since, feed: feed)
        let wanted = limit + 1
        guard let base = try base(of: feed.key, db) else {
            let changes = try entryChanges(name: name, list: listKey, feed: feed.key, after: cursor, through: .max, limit: wanted, db)
            return page(changes, limit: limit, after: cursor, feed: feed, exists: listKey != nil)
        }
        // In sequence order: the tombstones before the base, the base, the
        // upserts after it (``Base``).
        guard base.list == listKey else {
            throw CatalogError.database("the change log of list '\(name)' has a base that is not the list")
        }
        var changes = try entryChanges(name: name, list: listKey, feed: feed.key, after: cursor, through: base.start, limit: wanted, db)
        if changes.count < wanted, cursor.sequence < base.end {
            changes += try baseChanges(
                base, feed: feed.key, from: max(0, cursor.sequence - base.start), limit: wanted - changes.count, db)
        }
        if changes.count < wanted {
            var after = cursor
            after.sequence = max(cursor.sequence, base.end)
            changes += try entryChanges(
                name: name, list: listKey, feed: feed.key, after: after, through: .max, limit: wanted - changes.count, db)
        }
        return page(changes, limit: limit, after: cursor, feed: feed, exists: listKey != nil)
    }

    /// The log's rows after `cursor` through sequence number `last`, at
    /// most `limit`, in sequence order, each upsert with its store.
    private static func entryChanges(
        name: String, list: Int64?, feed: Int64, after cursor: ChangeCursor, through last: Int64, limit: Int, _ db: Database
    ) throws -> [StoreChange] {
        let statement = try RawStatement.cached(
            """
            SELECT e.seq, e.id, e.rank, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes,
                   s.key IS NOT NULL
            FROM feed_entries AS e
            LEFT JOIN stores AS s ON e.rank IS NOT NULL AND s.list = ? AND s.id = e.id
            WHERE e.feed = ? AND e.seq > ? AND e.seq <= ? AND (e.rank IS NOT NULL OR e.seq > ?)
            ORDER BY e.seq LIMIT ?
            """, in: db)
        defer { statement.reset() }
        statement.bind(list ?? -1, at: 1)
        statement.bind(feed, at: 2)
        statement.bind(cursor.sequence, at: 3)
        statement.bind(last, at: 4)
        statement.bind(cursor.skipThrough, at: 5)
        statement.bind(Int64(limit), at: 6)
        var changes: [StoreChange] = []
        while try statement.step() {
            let sequence = statement.int64(0), id = statement.text(1) ?? ""
            guard statement.isNull(2) == false else {
                changes.append(StoreChange(sequence: sequence, id: id, rank: nil, store: nil))
                continue
            }
            guard statement.int64(10) == 1 else { throw storeMissing(name, id) }
            let record = StoreRecord(
                id: id, name: statement.text(3) ?? "", latitude: statement.double(4), longitude: statement.double(5),
                address: statement.text(6), category: statement.text(7), phone: statement.text(8),
                attributes: statement.text(9))
            changes.append(StoreChange(sequence: sequence, id: id, rank: statement.int64(2), store: record))
        }
        return changes
    }

    /// A log row names a store its list does not hold: a damaged catalog.
    package static func storeMissing(_ name: String, _ id: String) -> CatalogError {
        CatalogError.database("the change log of list '\(name)' names store '\(id)', which the list does not hold")
    }

    /// Where a page starts: after `since`, checked against `feed` (both
    /// engines); without one, a download from scratch that skips the
    /// tombstones already there. Throws ``ChangeCursorError``.
    package static func start(name: String, since: String?, feed: Feed) throws -> ChangeCursor {
        guard let since else { return ChangeCursor(sequence: 0, skipThrough: feed.head) }
        let cursor = try ChangeCursor(token: since, feed: feed)
        guard cursor.sequence <= feed.head, cursor.skipThrough <= feed.head else {
            throw ChangeCursorError.invalid("the cursor is ahead of list '\(name)'")
        }
        // Tombstones through the floor were purged: a cursor that needed
        // one of them (above both its numbers) cannot go on.
        if feed.floor > max(cursor.sequence, cursor.skipThrough) {
            throw ChangeCursorError.resyncRequired(list: name)
        }
        return cursor
    }

    /// The page of `rows` (up to `limit` + 1 of them, in sequence order,
    /// read after `cursor` in one snapshot with `feed`).
    package static func page(_ rows: [StoreChange], limit: Int, after cursor: ChangeCursor, feed: Feed, exists: Bool) -> ChangePage {
        guard rows.count <= limit else {
            let changes = Array(rows.prefix(limit))
            let next = ChangeCursor(sequence: changes.last!.sequence, skipThrough: cursor.skipThrough)
            return ChangePage(changes: changes, next: next.token(feed: feed), upToDate: false, checksum: nil, exists: exists)
        }
        return ChangePage(
            changes: rows, next: ChangeCursor(sequence: feed.head, skipThrough: 0).token(feed: feed), upToDate: true,
            checksum: ChangeHash.hex(feed.checksum), exists: exists)
    }

    /// Migration 0012's second half: a feed for every existing list that
    /// has none (a catalog from before migration 0011), its stores
    /// numbered 1…n in list order. A download without a cursor then gives
    /// each list whole, and no cursor of before the change log exists to
    /// be misread. (0011's feeds were started there, as rows.)
    @Sendable static func startFeeds(_ db: Database) throws {
        for row in try Row.fetchAll(
            db, sql: "SELECT key, name FROM lists WHERE name NOT IN (SELECT name FROM change_feeds) ORDER BY key")
        {
            try record(name: row[1], list: row[0], db, options: ChangeLogOptions())
        }
    }
}
