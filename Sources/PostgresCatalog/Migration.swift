import Foundation
import Logging
import PostgresNIO

/// One numbered schema step: a `Migrations/NNNN_name.sql` file compiled into
/// the binary (Package.swift embeds the folder), never edited once shipped,
/// as StoreCatalog's.
struct PostgresMigration: Sendable {
    let version: Int
    let fileName: String
    let sql: String
    /// What SQL cannot do, run after ``sql`` in the same transaction: 0007
    /// starts each existing list's change log (hashes computed in Swift).
    let then: (@Sendable (PostgresConnection, Logger) async throws -> Void)?

    init(fileName: String, bytes: [UInt8], then: (@Sendable (PostgresConnection, Logger) async throws -> Void)? = nil) {
        self.fileName = fileName
        version = Int(fileName.prefix { $0.isNumber })!
        sql = String(decoding: bytes, as: UTF8.self)
        self.then = then
    }

    /// Every migration, in order. SwiftPM names each embedded file by a
    /// mangled identifier (the leading digit becomes `_`).
    static let all: [PostgresMigration] = [
        PostgresMigration(fileName: "0001_initial.sql", bytes: PackageResources._001_initial_sql),
        PostgresMigration(fileName: "0002_no_foreign_keys.sql", bytes: PackageResources._002_no_foreign_keys_sql),
        PostgresMigration(fileName: "0003_tokens.sql", bytes: PackageResources._003_tokens_sql),
        PostgresMigration(fileName: "0004_change_versions.sql", bytes: PackageResources._004_change_versions_sql),
        PostgresMigration(fileName: "0005_cluster_indexes.sql", bytes: PackageResources._005_cluster_indexes_sql),
        PostgresMigration(fileName: "0006_nearest_per_list.sql", bytes: PackageResources._006_nearest_per_list_sql),
        PostgresMigration(
            fileName: "0007_change_log.sql", bytes: PackageResources._007_change_log_sql, then: PostgresChangeLog.startFeeds),
    ]

    static var latestVersion: Int { all.last!.version }

    /// The advisory lock key the migrator holds: any constant of our own,
    /// here "carousel" in ASCII hex. `pg_advisory_lock` queues a second
    /// node until the first commits, which then finds nothing to do.
    /// https://www.postgresql.org/docs/15/explicit-locking.html#ADVISORY-LOCKS
    static let lockKey: Int64 = 0x6361_726f_7573_656c

    /// Brings the database to `latestVersion` on `connection`, under the
    /// advisory lock, each step in its own transaction with its version.
    /// Returns the versions applied (none when another node did it).
    @discardableResult
    static func migrate(_ connection: PostgresConnection, url: PostgresURL, logger: Logger) async throws -> [Int] {
        try await connection.query("SELECT pg_advisory_lock(\(lockKey))", logger: logger)
        do {
            let applied = try await migrateLocked(connection, url: url, logger: logger)
            try await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
            return applied
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
            throw error
        }
    }

    private static func migrateLocked(_ connection: PostgresConnection, url: PostgresURL, logger: Logger) async throws -> [Int] {
        try await connection.query(
            "CREATE TABLE IF NOT EXISTS carousel_schema (version integer PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())",
            logger: logger)
        var current = 0
        for try await version in try await connection.query(
            "SELECT coalesce(max(version), 0) FROM carousel_schema", logger: logger
        ).decode(Int.self) {
            current = version
        }
        guard current <= latestVersion else {
            throw PostgresCatalogError.schemaTooNew(url.description, found: current, latest: latestVersion)
        }
        guard current < latestVersion else { return [] }
        try await ensurePostGIS(connection, url: url, logger: logger)
        var applied: [Int] = []
        for migration in all where migration.version > current {
            try await connection.withTransaction(logger: logger) { connection in
                // One statement at a time: postgres-nio sends every query,
                // `simpleQuery` included, through the extended protocol,
                // which refuses several commands in one.
                for statement in statements(in: migration.sql) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await migration.then?(connection, logger)
                try await connection.query(
                    "INSERT INTO carousel_schema (version) VALUES (\(migration.version))", logger: logger)
            }
            applied.append(migration.version)
        }
        return applied
    }

    /// PostGIS installed, else the one-line error that says how to add
    /// it: creating an extension takes a superuser, which the catalog's
    /// user should not be.
    private static func ensurePostGIS(_ connection: PostgresConnection, url: PostgresURL, logger: Logger) async throws {
        var installed = false
        for try await count in try await connection.query(
            "SELECT count(*) FROM pg_extension WHERE extname = 'postgis'", logger: logger
        ).decode(Int.self) {
            installed = count > 0
        }
        guard installed else { throw PostgresCatalogError.noPostGIS(url.description) }
    }
}

extension PostgresMigration {
    /// The statements of a migration file, split at the semicolons outside
    /// comments (`-- …`), quoted text (`'…'`, `"…"`) and dollar-quoted
    /// bodies (`$$ … $$`, `$tag$ … $tag$`), the PostgreSQL lexical rules
    /// of https://www.postgresql.org/docs/15/sql-syntax-lexical.html;
    /// comments are dropped, empty statements skipped.
    static func statements(in sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        let characters = Array(sql)
        var index = 0
        func flush() {
            let statement = current.trimmingCharacters(in: .whitespacesAndNewlines)
            if !statement.isEmpty { statements.append(statement) }
            current = ""
        }
        while index < characters.count {
            let character = characters[index]
            if character == "-", index + 1 < characters.count, characters[index + 1] == "-" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
                continue
            }
            if character == "'" || character == "\"" {
                // To the closing quote; a doubled quote is one inside.
                current.append(character)
                index += 1
                while index < characters.count {
                    current.append(characters[index])
                    index += 1
                    if characters[index - 1] == character {
                        if index < characters.count, characters[index] == character {
                            current.append(character)
                            index += 1
                        } else {
                            break
                        }
                    }
                }
                continue
            }
            if character == "$", let tagEnd = characters[(index + 1)...].firstIndex(where: { !($0.isLetter || $0.isNumber || $0 == "_") }),
                characters[tagEnd] == "$"
            {
                // A dollar-quoted body, to the same tag.
                let tag = characters[index...tagEnd]
                var end = tagEnd + 1
                while end + tag.count <= characters.count, !characters[end..<(end + tag.count)].elementsEqual(tag) { end += 1 }
                let stop = min(end + tag.count, characters.count)
                current.append(contentsOf: characters[index..<stop])
                index = stop
                continue
            }
            if character == ";" {
                flush()
            } else {
                current.append(character)
            }
            index += 1
        }
        flush()
        return statements
    }
}
