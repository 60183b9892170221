import GRDB

extension Catalog {
    /// Renames the list `name` to `newName`; its stores and order stay.
    ///
    /// Throws ``CatalogError/listNotFound(_:)`` when there is no such list
    /// and ``CatalogError/invalidArgument(_:)`` when `newName` is blank or
    /// already names another list.
    public func renameList(_ name: String, to newName: String) throws {
        guard !newName.allSatisfy(\.isWhitespace) else {
            throw CatalogError.invalidArgument("a list needs a name that is not blank")
        }
        try write { db in
            let key = try listKey(name, db)
            guard name != newName else { return }
            let taken = try Int64.fetchOne(db, sql: "SELECT key FROM lists WHERE name = ?", arguments: [newName])
            if taken != nil {
                throw CatalogError.invalidArgument(
                    "cannot rename '\(name)' to '\(newName)': a list of that name exists; delete it or pick another name")
            }
            try db.execute(sql: "UPDATE lists SET name = ? WHERE key = ?", arguments: [newName, key])
        }
    }

    /// Deletes the list `name`: its order, its spatial index entries, and the
    /// stores no other list holds (a store lives as long as some list does).
    /// Returns how many stores the list held and how many left the catalog.
    ///
    /// One transaction: a failure leaves the list as it was.
    @discardableResult
    public func deleteList(_ name: String) throws -> ListDeletion {
        try write { db in
            let key = try listKey(name, db)
            let count = try Int.fetchOne(
                db, sql: "SELECT coalesce(max(position) + 1, 0) FROM list_items WHERE list = ?", arguments: [key]) ?? 0
            try db.execute(sql: "DELETE FROM spatial_index WHERE list = ?", arguments: [key])
            try SpatialTiles.delete(list: key, db)
            let removedStores = try SpatialIndex.deleteUnlistedStores(of: key, db)
            try db.execute(sql: "DELETE FROM list_items WHERE list = ?", arguments: [key])
            try db.execute(sql: "DELETE FROM lists WHERE key = ?", arguments: [key])
            return ListDeletion(name: name, count: count, removedStores: removedStores)
        }
    }
}

/// What ``Catalog/deleteList(_:)`` removed.
public struct ListDeletion: Sendable, Hashable, Codable {
    /// The deleted list.
    public var name: String
    /// How many stores it held.
    public var count: Int
    /// How many of them no other list held, and so left the catalog.
    public var removedStores: Int

    public init(name: String, count: Int, removedStores: Int) {
        self.name = name
        self.count = count
        self.removedStores = removedStores
    }
}
