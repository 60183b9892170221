import CatalogServing
import Foundation
import NIOCore
import PostgresNIO
import StoreCatalog

extension PostgresCatalog {
    /// Imports a store list from `reader` in one transaction, as
    /// `Catalog.importList(named:from:options:)` does: the same readers,
    /// validation and report (StoreCatalog's `ForeignImport`), the same
    /// keys (max + 1 in file order), the same errors. The stores stream to
    /// the server with `COPY … FROM STDIN`; a failure or a lost connection
    /// rolls everything back, and a replace is atomic (the old list is
    /// deleted in the same transaction).
    ///
    /// Imports are serialized by a transaction-scoped advisory lock, so two
    /// nodes importing at once hand out distinct keys.
    ///
    /// Memory stays flat at any file size: the valid rows stream into a
    /// temporary table with their lines, where the database finds the
    /// repeated ids; the stores are then written from it.
    @discardableResult
    public func importList(
        named name: String, from reader: some StoreRowReader, options: ImportOptions = ImportOptions()
    ) async throws -> ImportReport {
        var source = try ForeignImport(list: name, reader: reader, options: options)
        let logger = Logger(label: "carousel.postgres.import")
        let changeLog = changeLogOptions
        return try await withConnection { connection in
            try await connection.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.importLockKey))", logger: logger)
                var former: Int64 = 0
                if let existing = try await connection.query("SELECT key FROM lists WHERE name = \(name)", logger: logger)
                    .collect(Int64.self).first
                {
                    guard options.replace else { throw CatalogError.listExists(name) }
                    try await connection.query("DELETE FROM list_items WHERE list = \(existing)", logger: logger)
                    try await connection.query("DELETE FROM stores WHERE list = \(existing)", logger: logger)
                    try await connection.query("DELETE FROM lists WHERE key = \(existing)", logger: logger)
                    former = existing
                }
                // As SQLite's importer: a key above the replaced list's too.
                let listKey = try await connection.query(
                    """
                    INSERT INTO lists (key, name, time_zone)
                    SELECT greatest(coalesce(max(key), 0), \(former)) + 1, \(name), \(options.timeZone) FROM lists
                    RETURNING key
                    """, logger: logger
                ).collect(Int64.self)[0]
                let firstKey = try await connection.query(
                    "SELECT coalesce(max(key), 0) + 1 FROM stores", logger: logger
                ).collect(Int64.self)[0]

                // The valid rows, staged with their lines: repeated ids are
                // found by the database, so memory does not grow with the
                // file (see `ForeignImport`).
                // Temporary tables live in the session's own buffers (8 MB
                // by default), spilled to files past that: room for the
                // staged rows of a large file. Settable before the
                // session's first temporary table only, and each import has
                // a connection of its own.
                try await connection.query("SET temp_buffers = '64MB'", logger: logger)
                try await connection.query(
                    """
                    CREATE TEMPORARY TABLE carousel_import (
                        line bigint NOT NULL, id text NOT NULL, name text NOT NULL, latitude double precision NOT NULL,
                        longitude double precision NOT NULL, address text, category text, phone text, attributes jsonb
                    ) ON COMMIT DROP
                    """, logger: logger)
                try await connection.copyFrom(
                    table: "carousel_import",
                    columns: ["line", "id", "name", "latitude", "longitude", "address", "category", "phone", "attributes"],
                    logger: logger
                ) { writer in
                    var buffer = ByteBuffer()
                    buffer.reserveCapacity(1 << 16)
                    // The reader is synchronous (file reads): a row at a time
                    // between writes of 64 KiB.
                    while let (store, line) = try source.next() {
                        try Self.appendCopyRow(store, line: line, to: &buffer)
                        if buffer.readableBytes >= 1 << 16 {
                            try await writer.write(buffer)
                            buffer.clear()
                        }
                    }
                    if buffer.readableBytes > 0 { try await writer.write(buffer) }
                }
                let duplicates = try await connection.query(
                    """
                    SELECT i.line, i.id, r.first FROM carousel_import AS i
                    JOIN (SELECT id, min(line) AS first FROM carousel_import GROUP BY id HAVING count(*) > 1) AS r ON r.id = i.id
                    WHERE i.line > r.first ORDER BY i.line LIMIT \(Int64(source.duplicateLimit))
                    """, logger: logger
                ).collect((Int64, String, Int64).self).map {
                    RepeatedRow(line: Int($0.0), id: $0.1, firstLine: Int($0.2))
                }
                try source.judge(duplicates: duplicates)
                // Keys in file order, as the SQLite importer gives them. In
                // file order a store's position is its key's offset from
                // the first, and the items are written in the same pass
                // (reading the list's stores back cost 0.6 s of 4.1 for
                // the 234,908 places); other orders number them after.
                let inFileOrder = options.order == .file
                let imported = try await connection.query(
                    """
                    WITH written AS (
                        INSERT INTO stores (key, list, id, name, latitude, longitude, address, category, phone, attributes)
                        SELECT \(firstKey - 1) + row_number() OVER (ORDER BY i.line), \(listKey), i.id, i.name, i.latitude,
                               i.longitude, i.address, i.category, i.phone, i.attributes
                        FROM carousel_import AS i LEFT JOIN unnest(\(duplicates.map { Int64($0.line) })::bigint[]) AS d(line)
                             ON d.line = i.line
                        WHERE d.line IS NULL
                        RETURNING key),
                    items AS (
                        INSERT INTO list_items (list, position, store)
                        SELECT \(listKey), (key - \(firstKey))::integer, key FROM written WHERE \(inFileOrder)
                        RETURNING 1)
                    SELECT count(*)::bigint FROM written
                    """, logger: logger
                ).collect(Int.self)[0]
                let report = source.report(imported: imported)
                try await fixColumns(source.columnsToFix, list: listKey, connection)
                if !inFileOrder { try await writeItems(list: listKey, order: options.order, connection) }
                // The list's changes in the same transaction (issue 45).
                try await PostgresChangeLog.record(name: name, list: listKey, connection, options: changeLog, logger: logger)
                return report
            }
        }
    }

    /// The advisory lock imports take (another constant than the
    /// migrator's).
    static let importLockKey: Int64 = 0x6361_726f_7573_0001

    /// One row of COPY's text format
    /// (https://www.postgresql.org/docs/15/sql-copy.html#id-1.9.3.55.9.2):
    /// tab-separated, `\N` for NULL, backslash escapes. A NUL has no
    /// escape there and no place in text or jsonb: the rows' validation
    /// refuses it, and a row that still held one is refused here, before
    /// it is sent (PostgresText.swift).
    static func appendCopyRow(_ store: Store, line: Int, to buffer: inout ByteBuffer) throws(CatalogError) {
        if store.attributes.contains(where: { PostgresText.holdsNUL($0.key) || $0.value.holdsNUL }) { throw PostgresText.nulError }
        buffer.writeString("\(line)\t")
        try appendText(store.id, to: &buffer)
        buffer.writeInteger(UInt8(ascii: "\t"))
        try appendText(store.name, to: &buffer)
        // Swift's description of a Double is the shortest that reads back
        // exactly; float8 input reads it exactly too.
        buffer.writeString("\t\(store.latitude)\t\(store.longitude)\t")
        try appendOptional(store.address, to: &buffer)
        buffer.writeInteger(UInt8(ascii: "\t"))
        try appendOptional(store.category, to: &buffer)
        buffer.writeInteger(UInt8(ascii: "\t"))
        try appendOptional(store.phone, to: &buffer)
        buffer.writeInteger(UInt8(ascii: "\t"))
        try appendOptional(AttributesJSON.text(store.attributes), to: &buffer)
        buffer.writeInteger(UInt8(ascii: "\n"))
    }

    /// An empty optional value is NULL, as the SQLite importer stores it.
    private static func appendOptional(_ text: String?, to buffer: inout ByteBuffer) throws(CatalogError) {
        if let text, !text.isEmpty { try appendText(text, to: &buffer) } else { buffer.writeString("\\N") }
    }

    private static func appendText(_ text: String, to buffer: inout ByteBuffer) throws(CatalogError) {
        for byte in text.utf8 {
            switch byte {
            case 0: throw PostgresText.nulError
            case UInt8(ascii: "\\"): buffer.writeString("\\\\")
            case UInt8(ascii: "\t"): buffer.writeString("\\t")
            case UInt8(ascii: "\n"): buffer.writeString("\\n")
            case UInt8(ascii: "\r"): buffer.writeString("\\r")
            default: buffer.writeInteger(byte)
            }
        }
    }

    /// Rewrites the attributes of the columns whose type was guessed wrong
    /// while streaming (see `AttributeTyping` in StoreCatalog), a thousand
    /// stores at a time in key order, so memory stays that of a batch
    /// whatever the list's size.
    private func fixColumns(_ fixes: [String: AttributeType], list: Int64, _ connection: PostgresConnection) async throws {
        guard !fixes.isEmpty else { return }
        let logger = Logger(label: "carousel.postgres.import")
        var after: Int64 = 0
        while true {
            let rows = try await connection.query(
                """
                SELECT key, attributes::text FROM stores
                WHERE list = \(list) AND key > \(after) AND attributes IS NOT NULL
                ORDER BY key LIMIT 1000
                """, logger: logger
            ).collect((Int64, String).self)
            guard let last = rows.last else { return }
            after = last.0
            for (key, text) in rows {
                guard let fixed = AttributeColumnFix.apply(try AttributesJSON.decode(text), fixes) else { continue }
                try await connection.query(
                    "UPDATE stores SET attributes = \(AttributesJSON.text(fixed))::jsonb WHERE key = \(key)", logger: logger)
            }
        }
    }

    /// The list's items in its carousel order, numbered in one statement:
    /// (file order is written with the stores); by name as SQLite's `COLLATE NOCASE` (ASCII
    /// folded), then bytes, then file order; by distance with SQLite's
    /// haversine (migration 0001's `carousel_haversine`), then file order.
    private func writeItems(list: Int64, order: ImportOrder, _ connection: PostgresConnection) async throws {
        let logger = Logger(label: "carousel.postgres.import")
        let sortKey: String
        switch order {
        case .file: return  // written with the stores
        case .name:
            sortKey =
                "translate(name, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') COLLATE \"C\", name COLLATE \"C\", key"
        case let .distance(origin):
            sortKey = "carousel_haversine(\(origin.latitude), \(origin.longitude), latitude, longitude), key"
        }
        try await connection.query(
            """
            INSERT INTO list_items (list, position, store)
            SELECT list, (row_number() OVER (ORDER BY \(unescaped: sortKey)) - 1)::integer, key
            FROM stores WHERE list = \(list)
            """, logger: logger)
    }
}
