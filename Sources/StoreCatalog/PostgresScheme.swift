/// How a catalog's address says it is a PostgreSQL + PostGIS database
/// rather than a SQLite file: a `postgres://` or `postgresql://` URL, the
/// two schemes libpq accepts.
///
/// Here, beside ``CatalogEngine``, so that a program that only opens
/// SQLite files (the `carousel` binary) can tell the two apart without
/// linking the PostgreSQL client.
public enum PostgresScheme {
    /// Whether `text` starts with a PostgreSQL URL scheme.
    public static func matches(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }
}
