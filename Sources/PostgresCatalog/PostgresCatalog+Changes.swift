import Foundation
import Logging
import PostgresNIO
import StoreCatalog

extension PostgresCatalog {
    /// The change log's tombstone retention and clock for this catalog's
    /// writes (as `Catalog.changeLogOptions`).
    public var changeLogOptions: ChangeLogOptions {
        get { changeLogSettings.withLock { $0 } }
        set { changeLogSettings.withLock { $0 = newValue } }
    }

    /// A page of the changes of list `list` after cursor `since`: the same
    /// pages, cursors, checksums and errors as the SQLite catalog's
    /// `changes(list:since:limit:)`, read in one REPEATABLE READ
    /// transaction (one snapshot of the feed and its rows).
    public func changes(list: String, since: String?, limit: Int) async throws -> ChangePage {
        guard (1...ChangeLog.maxPage).contains(limit) else {
            throw CatalogError.invalidArgument("limit must be in 1...\(ChangeLog.maxPage) (got \(limit))")
        }
        return try await withConnection { connection in
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                let page = try await PostgresChangeLog.page(name: list, since: since, limit: limit, connection, logger: logger)
                try await connection.query("COMMIT", logger: logger)
                return page
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Purges every feed's tombstones older than the retention now;
    /// returns how many went.
    @discardableResult
    public func compactChanges() async throws -> Int {
        let options = changeLogOptions
        let cutoff = Int64(options.now().timeIntervalSince1970.rounded(.down)) - ChangeLog.seconds(options.retention)
        return try await withConnection { connection in
            try await connection.withTransaction(logger: logger) { connection in
                let purged = try await connection.query(
                    """
                    WITH gone AS (DELETE FROM feed_entries WHERE rank IS NULL AND at < \(cutoff) RETURNING feed, seq),
                    floors AS (SELECT feed, max(seq) AS floor FROM gone GROUP BY feed),
                    raised AS (UPDATE change_feeds AS f SET floor = greatest(f.floor, floors.floor) FROM floors
                               WHERE f.key = floors.feed RETURNING 1)
                    SELECT (SELECT count(*) FROM gone)::bigint
                    """, logger: logger
                ).collect(Int.self)
                return purged.first ?? 0
            }
        }
    }
}

/// The change log on PostgreSQL: what `ChangeLog` (StoreCatalog) does on
/// SQLite, over a connection, in the caller's transaction.
enum PostgresChangeLog {
    typealias Feed = ChangeLog.Feed

    /// The feed of `name`, made if `create`, its row locked until the
    /// transaction ends (FOR UPDATE): sequence numbers in commit order.
    static func lockedFeed(named name: String, create: Bool, _ connection: PostgresConnection, logger: Logger) async throws -> Feed? {
        if create {
            var random = SystemRandomNumberGenerator()
            let k0 = Int64(bitPattern: random.next()), k1 = Int64(bitPattern: random.next())
            try await connection.query(
                "INSERT INTO change_feeds (name, k0, k1) VALUES (\(name), \(k0), \(k1)) ON CONFLICT (name) DO NOTHING",
                logger: logger)
        }
        return try await connection.query(
            "SELECT key, k0, k1, head, floor, checksum, live FROM change_feeds WHERE name = \(name) FOR UPDATE", logger: logger
        ).collect((Int64, Int64, Int64, Int64, Int64, Int64, Int64).self).first.map {
            Feed(key: $0.0, k0: $0.1, k1: $0.2, head: $0.3, floor: $0.4, checksum: $0.5, live: $0.6)
        }
    }

    /// A store's attributes as the SQLite catalog stores them: jsonb's text
    /// is reformatted (`{"a": 1}`), so it is read and written again by
    /// `AttributesJSON`, whose text both engines' logs carry and hash.
    static func canonical(_ attributes: String?) throws -> String? {
        guard let attributes else { return nil }
        return AttributesJSON.encode(try AttributesJSON.decode(attributes))
    }

    /// Records that the list named `name` is now the list `list` (nil: no
    /// list has the name), as `ChangeLog.record` does on SQLite: the same
    /// diff, ranks, hashes and sequence numbers.
    static func record(
        name: String, list: Int64?, _ connection: PostgresConnection, options: ChangeLogOptions, logger: Logger
    ) async throws {
        let now = Int64(options.now().timeIntervalSince1970.rounded(.down))
        guard var feed = try await lockedFeed(named: name, create: list != nil, connection, logger: logger) else { return }
        let liveBefore = feed.live
        var upserts: (ids: [String], seqs: [Int64], ranks: [Int64], contents: [Int64]) = ([], [], [], [])
        var matched: Int64 = 0
        if let list {
            var ids: [String] = [], contents: [Int64] = [], oldRanks: [Int64?] = [], oldContents: [Int64] = []
            let rows = try await connection.query(
                """
                SELECT s.id, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes::text, e.rank, e.content
                FROM list_items AS i JOIN stores AS s ON s.key = i.store
                LEFT JOIN feed_entries AS e ON e.feed = \(feed.key) AND e.id = s.id AND e.rank IS NOT NULL
                WHERE i.list = \(list) ORDER BY i.position
                """, logger: logger)
            for try await row in rows.decode(
                (String, String, Double, Double, String?, String?, String?, String?, Int64?, Int64?).self)
            {
                let record = StoreRecord(
                    id: row.0, name: row.1, latitude: row.2, longitude: row.3, address: row.4, category: row.5, phone: row.6,
                    attributes: try canonical(row.7))
                ids.append(row.0)
                contents.append(ChangeHash.content(record))
                oldRanks.append(row.8)
                oldContents.append(row.9 ?? 0)
            }
            let ranks = RankAssignment.ranks(keeping: oldRanks, spacing: ChangeLog.spacing)
            // In list order: a feed with no live store numbers its stores
            // 1…n so, as SQLite's base does (`ChangeLog.Base`), so both
            // engines give the same pages.
            for index in ids.indices {
                let old = oldRanks[index].map { (rank: $0, content: oldContents[index]) }
                if old != nil { matched += 1 }
                guard let seq = feed.upsert(rank: ranks[index], content: contents[index], old: old) else { continue }
                upserts.ids.append(ids[index])
                upserts.seqs.append(seq)
                upserts.ranks.append(ranks[index])
                upserts.contents.append(contents[index])
            }
        }
        var gone: (ids: [String], seqs: [Int64]) = ([], [])
        if list == nil || matched < liveBefore {
            let rows = try await connection.query(
                """
                SELECT e.id, e.rank, e.content FROM feed_entries AS e
                WHERE e.feed = \(feed.key) AND e.rank IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM stores AS s WHERE s.list = \(list ?? -1) AND s.id = e.id)
                ORDER BY e.id COLLATE "C"
                """, logger: logger)
            for try await (id, rank, content) in rows.decode((String, Int64, Int64).self) {
                gone.ids.append(id)
                gone.seqs.append(feed.tombstone(rank: rank, content: content))
            }
        }
        // Batches of 10,000 rows as arrays: one statement each.
        let batch = 10_000
        for start in stride(from: 0, to: upserts.ids.count, by: batch) {
            let range = start..<min(start + batch, upserts.ids.count)
            try await connection.query(
                """
                INSERT INTO feed_entries (feed, id, seq, rank, content, at)
                SELECT \(feed.key), u.id, u.seq, u.rank, u.content, \(now)
                FROM unnest(\(Array(upserts.ids[range]))::text[], \(Array(upserts.seqs[range]))::bigint[],
                            \(Array(upserts.ranks[range]))::bigint[], \(Array(upserts.contents[range]))::bigint[])
                     AS u(id, seq, rank, content)
                ON CONFLICT (feed, id) DO UPDATE SET seq = excluded.seq, rank = excluded.rank, content = excluded.content,
                    at = excluded.at
                """, logger: logger)
        }
        for start in stride(from: 0, to: gone.ids.count, by: batch) {
            let range = start..<min(start + batch, gone.ids.count)
            try await connection.query(
                """
                UPDATE feed_entries AS e SET seq = u.seq, rank = NULL, content = 0, at = \(now)
                FROM unnest(\(Array(gone.ids[range]))::text[], \(Array(gone.seqs[range]))::bigint[]) AS u(id, seq)
                WHERE e.feed = \(feed.key) AND e.id = u.id
                """, logger: logger)
        }
        let cutoff = now - ChangeLog.seconds(options.retention)
        let purged = try await connection.query(
            """
            WITH gone AS (DELETE FROM feed_entries WHERE feed = \(feed.key) AND rank IS NULL AND at < \(cutoff) RETURNING seq)
            SELECT max(seq) FROM gone
            """, logger: logger
        ).collect(Int64?.self)
        if let newest = purged.first ?? nil { feed.floor = max(feed.floor, newest) }
        try await connection.query(
            """
            UPDATE change_feeds SET head = \(feed.head), floor = \(feed.floor), checksum = \(feed.checksum), live = \(feed.live)
            WHERE key = \(feed.key)
            """, logger: logger)
    }

    /// A page, as `ChangeLog.page` reads it on SQLite.
    static func page(name: String, since: String?, limit: Int, _ connection: PostgresConnection, logger: Logger) async throws
        -> ChangePage
    {
        let listKey = try await connection.query("SELECT key FROM lists WHERE name = \(name)", logger: logger)
            .collect(Int64.self).first
        guard
            let feed = try await connection.query(
                "SELECT key, k0, k1, head, floor, checksum, live FROM change_feeds WHERE name = \(name)", logger: logger
            ).collect((Int64, Int64, Int64, Int64, Int64, Int64, Int64).self).first.map({
                Feed(key: $0.0, k0: $0.1, k1: $0.2, head: $0.3, floor: $0.4, checksum: $0.5, live: $0.6)
            })
        else { throw CatalogError.listNotFound(name) }
        let cursor = try ChangeLog.start(name: name, since: since, feed: feed)
        let rows = try await connection.query(
            """
            SELECT e.seq, e.id, e.rank, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes::text,
                   s.key IS NOT NULL
            FROM feed_entries AS e
            LEFT JOIN stores AS s ON e.rank IS NOT NULL AND s.list = \(listKey ?? -1) AND s.id = e.id
            WHERE e.feed = \(feed.key) AND e.seq > \(cursor.sequence) AND (e.rank IS NOT NULL OR e.seq > \(cursor.skipThrough))
            ORDER BY e.seq LIMIT \(Int64(limit) + 1)
            """, logger: logger)
        var changes: [StoreChange] = []
        for try await row in rows.decode(
            (Int64, String, Int64?, String?, Double?, Double?, String?, String?, String?, String?, Bool).self)
        {
            guard let rank = row.2 else {
                changes.append(StoreChange(sequence: row.0, id: row.1, rank: nil, store: nil))
                continue
            }
            guard row.10, let storeName = row.3, let latitude = row.4, let longitude = row.5 else {
                throw ChangeLog.storeMissing(name, row.1)
            }
            let record = StoreRecord(
                id: row.1, name: storeName, latitude: latitude, longitude: longitude, address: row.6, category: row.7,
                phone: row.8, attributes: try canonical(row.9))
            changes.append(StoreChange(sequence: row.0, id: row.1, rank: rank, store: record))
        }
        return ChangeLog.page(changes, limit: limit, after: cursor, feed: feed, exists: listKey != nil)
    }

    /// Migration 0007's second half: a feed for every existing list.
    @Sendable static func startFeeds(_ connection: PostgresConnection, _ logger: Logger) async throws {
        let lists = try await connection.query("SELECT key, name FROM lists ORDER BY key", logger: logger)
            .collect((Int64, String).self)
        for (key, name) in lists {
            try await record(name: name, list: key, connection, options: ChangeLogOptions(), logger: logger)
        }
    }
}
