import PostgresNIO
import StoreCatalog

/// Text sent to PostgreSQL never holds a NUL (U+0000): its text types
/// cannot store one ("the character with code zero (sometimes called NUL)
/// cannot be stored", https://www.postgresql.org/docs/15/datatype-character.html),
/// and a bind holding one fails the statement with "invalid byte sequence
/// for encoding UTF8: 0x00", which used to reach a client as a 500.
///
/// The catalog's lookups answer a name or id with a NUL as SQLite's do
/// (no such list or store: none can hold one), and imports refuse it in
/// their rows' validation; this is the last defence under both: any query
/// of this module that binds a `String` goes through these overloads
/// (the compiler prefers them to postgres-nio's generic ones), which
/// throw ``PostgresText/nulError`` before anything is sent.
enum PostgresText {
    /// A client's text holding a NUL: a bad argument (HTTP 400).
    static let nulError = CatalogError.invalidArgument("text cannot hold U+0000 (NUL)")

    /// Whether `text` holds a NUL.
    static func holdsNUL(_ text: String) -> Bool { text.utf8.contains(0) }

    /// The catalog's answer to a server error about a NUL in text:
    /// SQLSTATE 22021 `character_not_in_repertoire` (the bind's "invalid
    /// byte sequence") and 22P05 `untranslatable_character` (jsonb's
    /// `\u0000`), https://www.postgresql.org/docs/15/errcodes-appendix.html.
    /// A Swift `String` is always valid UTF-8, so the only bytes that can
    /// bring them are a NUL's.
    static func isNULError(sqlState: String) -> Bool { sqlState == "22021" || sqlState == "22P05" }
}

extension PostgresQuery.StringInterpolation {
    /// A text bind, refused when it holds a NUL.
    mutating func appendInterpolation(_ value: String) throws {
        guard !PostgresText.holdsNUL(value) else { throw PostgresText.nulError }
        appendBind(value)
    }

    /// An optional text bind (NULL for nil), refused when it holds a NUL.
    mutating func appendInterpolation(_ value: String?) throws {
        if let value, PostgresText.holdsNUL(value) { throw PostgresText.nulError }
        appendBind(value)
    }

    /// postgres-nio's own interpolation: generic, so these overloads do not
    /// call themselves.
    private mutating func appendBind<Value: PostgresDynamicTypeEncodable>(_ value: Value) {
        appendInterpolation(value)
    }

    private mutating func appendBind<Value: PostgresDynamicTypeEncodable>(_ value: Value?) {
        appendInterpolation(value)
    }
}
