import Crypto
import Foundation
import GRDB
import StoreCatalog

/// What an API token lets its holder do.
public enum TokenScope: String, Sendable, Hashable, Codable, CaseIterable {
    /// Reads only.
    case read
    /// Writes, and reads.
    case write

    /// Whether a token of this scope may do what `needed` asks.
    public func allows(_ needed: TokenScope) -> Bool {
        self == .write || needed == .read
    }
}

/// One API token as ``Catalog/tokens()`` lists it: never the token itself,
/// which the catalog does not keep.
public struct TokenSummary: Sendable, Hashable {
    public var name: String
    public var scope: TokenScope
    public var created: Date
    /// When it was last accepted, to the minute (``Catalog/noteTokenUsed(named:at:)``); nil: never.
    public var lastUsed: Date?

    public init(name: String, scope: TokenScope, created: Date, lastUsed: Date?) {
        self.name = name
        self.scope = scope
        self.created = created
        self.lastUsed = lastUsed
    }
}

extension Catalog {
    /// The bytes of randomness in a token: 256 bits, twice the 128 that
    /// make guessing hopeless.
    static let tokenRandomBytes = 32
    /// Every token starts with this, so that one found in a log or a
    /// repository is recognisable (and secret scanners can match it).
    public static let tokenPrefix = "crsl_"
    /// The longest token name.
    public static let maxTokenNameLength = 64

    /// Makes a new token called `name` with `scope`, keeps its SHA-256,
    /// and returns the token: the only time anyone sees it.
    ///
    /// The token is `crsl_` and 43 base64url characters (32 random bytes
    /// from the system's CSPRNG), URL-safe, so it fits a `token` query item
    /// unescaped. Throws ``CatalogError/invalidArgument(_:)`` for a blank or
    /// over-long name, or one already taken.
    public func createToken(named name: String, scope: TokenScope) throws -> String {
        try Self.checkTokenName(name)
        let token = Self.newToken()
        let now = Int64(Date().timeIntervalSince1970)
        try write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM api_tokens WHERE name = ?", arguments: [name]) == true {
                throw CatalogError.tokenNameTaken(name)
            }
            try db.execute(
                sql: "INSERT INTO api_tokens (name, scope, hash, created_at) VALUES (?, ?, ?, ?)",
                arguments: [name, scope.rawValue, Data(Self.tokenHash(token)), now])
        }
        return token
    }

    /// Every token, by name: name, scope, when it was made and last used.
    public func tokens() throws -> [TokenSummary] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT name, scope, created_at, last_used FROM api_tokens ORDER BY name").map { row in
                TokenSummary(
                    name: row[0], scope: TokenScope(rawValue: row[1]) ?? .read,
                    created: Date(timeIntervalSince1970: TimeInterval(row[2] as Int64)),
                    lastUsed: (row[3] as Int64?).map { Date(timeIntervalSince1970: TimeInterval($0)) })
            }
        }
    }

    /// Revokes the token `name`: from the next request on, it is refused.
    /// Throws ``CatalogError/invalidArgument(_:)`` when there is none.
    public func revokeToken(named name: String) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM api_tokens WHERE name = ?", arguments: [name])
            if db.changesCount == 0 { throw CatalogError.noSuchToken(name) }
        }
    }

    /// Whether any write token exists: without one, a server refuses writes.
    public func hasWriteToken() throws -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM api_tokens WHERE scope = 'write' LIMIT 1") == true }
    }

    /// The token `token` is, by name and scope; nil when it is no token
    /// of this catalog. Only reads: ``noteTokenUsed(named:at:)`` records
    /// the use, which a server does off its request path.
    ///
    /// The row is found by the token's hash, then the stored hash is
    /// compared with the computed one in constant time: how long the
    /// answer takes says nothing about how much of a guess was right.
    public func verifyToken(_ token: String) throws -> (name: String, scope: TokenScope)? {
        // A token is 48 bytes; anything far longer is not one (and is not hashed).
        guard token.utf8.count <= 256 else { return nil }
        let hash = Self.tokenHash(token)
        let found = try read { db in
            try Row.fetchOne(db, sql: "SELECT name, scope, hash FROM api_tokens WHERE hash = ?", arguments: [Data(hash)])
                .map { row in (name: row[0] as String, scope: row[1] as String, hash: row[2] as Data) }
        }
        guard let found, Self.constantTimeEqual([UInt8](found.hash), hash), let scope = TokenScope(rawValue: found.scope) else {
            return nil
        }
        return (found.name, scope)
    }

    /// Records that the token `name` was accepted at `date`, to the
    /// minute; a revoked token is left revoked.
    public func noteTokenUsed(named name: String, at date: Date = Date()) throws {
        let minute = Int64(date.timeIntervalSince1970) / 60 * 60
        try write { db in
            try db.execute(
                sql: "UPDATE api_tokens SET last_used = ? WHERE name = ? AND coalesce(last_used, -1) <> ?",
                arguments: [minute, name, minute])
        }
    }

    /// A new token: the prefix, then 32 random bytes in base64url.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<tokenRandomBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return tokenPrefix + base64URL(random)
    }

    package static func checkTokenName(_ name: String) throws {
        guard !name.allSatisfy(\.isWhitespace) else { throw CatalogError.invalidArgument("a token needs a name that is not blank") }
        guard name.count <= maxTokenNameLength, !name.contains(where: { $0.isNewline || $0 == "\t" }) else {
            throw CatalogError.invalidArgument("a token name is one line of at most \(maxTokenNameLength) characters")
        }
    }

    /// SHA-256 of the token's UTF-8 bytes (FIPS 180-4, via swift-crypto).
    package static func tokenHash(_ token: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(token.utf8)))
    }

    /// Whether `a` and `b` are equal, in a time that depends on their
    /// lengths only: every byte is looked at, whatever differs first.
    package static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// Base64url without padding (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension CatalogError {
    /// A token of that name exists, in both catalogs' words.
    package static func tokenNameTaken(_ name: String) -> CatalogError {
        .invalidArgument("a token named '\(name)' exists; revoke it first or pick another name")
    }

    /// No token of that name, in both catalogs' words.
    package static func noSuchToken(_ name: String) -> CatalogError {
        .invalidArgument("no token named '\(name)'")
    }
}
