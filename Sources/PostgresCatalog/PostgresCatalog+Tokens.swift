import CatalogServing
import Foundation
import PostgresNIO
import StoreCatalog

/// The API tokens on PostgreSQL, as the SQLite catalog keeps them: the
/// same token format, names, scopes, hashes and errors (migration 0003).
extension PostgresCatalog {
    public func createToken(named name: String, scope: TokenScope) async throws -> String {
        try Catalog.checkTokenName(name)
        let token = Catalog.newToken()
        let hash = ByteBuffer(bytes: Catalog.tokenHash(token))
        let now = Int64(Date().timeIntervalSince1970)
        try await withConnection { connection in
            let inserted = try await connection.query(
                """
                INSERT INTO api_tokens (name, scope, hash, created_at) VALUES (\(name), \(scope.rawValue), \(hash), \(now))
                ON CONFLICT (name) DO NOTHING RETURNING 1
                """, logger: logger
            ).collect(Int32.self)
            guard !inserted.isEmpty else { throw CatalogError.tokenNameTaken(name) }
        }
        return token
    }

    public func tokens() async throws -> [TokenSummary] {
        try await withConnection { connection in
            let rows = try await connection.query(
                "SELECT name, scope, created_at, last_used FROM api_tokens ORDER BY name COLLATE \"C\"", logger: logger
            ).collect((String, String, Int64, Int64?).self)
            return rows.map { row in
                TokenSummary(
                    name: row.0, scope: TokenScope(rawValue: row.1) ?? .read,
                    created: Date(timeIntervalSince1970: TimeInterval(row.2)),
                    lastUsed: row.3.map { Date(timeIntervalSince1970: TimeInterval($0)) })
            }
        }
    }

    public func revokeToken(named name: String) async throws {
        try await withConnection { connection in
            let deleted = try await connection.query(
                "DELETE FROM api_tokens WHERE name = \(name) RETURNING 1", logger: logger
            ).collect(Int32.self)
            guard !deleted.isEmpty else { throw CatalogError.noSuchToken(name) }
        }
    }
}
