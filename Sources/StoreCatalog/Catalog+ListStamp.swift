import GRDB

extension Catalog {
    /// The stamp of list `name` now; throws ``CatalogError/listNotFound(_:)``
    /// when there is no such list (deleted, renamed, never made).
    ///
    /// One read: the list's key and its last position, two index seeks.
    public func listStamp(_ name: String) throws -> ListStamp {
        try read { db in
            let key = try listKey(name, db)
            return ListStamp(key: key, count: try count(key, db))
        }
    }
}

/// What a holder of a list's positions — a live session, which looks stores
/// up by position — compares to learn that the list changed under it.
///
/// A list's stores change only by an import under its name: a new list, or
/// a replace, which deletes the old list and makes the new one under a key
/// above it. So a list whose stamp is unchanged holds the same stores,
/// except in one case the stamp cannot see: the list was deleted and then
/// imported again with as many stores, and it had the highest key (a new
/// list takes the highest key + 1, and after a delete that can be the
/// deleted list's). A holder that polls sees that only when both happen
/// between two of its looks.
public struct ListStamp: Sendable, Hashable {
    /// The list's key in the catalog: renewed by a replace.
    public var key: Int64
    /// How many stores the list holds.
    public var count: Int

    public init(key: Int64, count: Int) {
        self.key = key
        self.count = count
    }
}
