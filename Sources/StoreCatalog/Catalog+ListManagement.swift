import GRDB

extension Catalog {
    /// Renames the list `name` to `newName`; its stores and order stay.
    ///
    /// Throws ``CatalogError/listNotFound(_:)`` when there is no such list
    /// and ``CatalogError/invalidArgument(_:)`` when `newName` is blank,
    /// holds a control or invisible format character, or already names
    /// another list.
    public func renameList(_ name: String, to newName: String) throws {
        try NameCharacters.checkListName(newName)
        let changeLog = changeLogOptions
        try write { db in
            let key = try listKey(name, db)
            guard name != newName else { return }
            let taken = try Int64.fetchOne(db, sql: "SELECT key FROM lists WHERE name = ?", arguments: [newName])
            if taken != nil { throw CatalogError.renameTaken(name, to: newName) }
            try db.execute(sql: "UPDATE lists SET name = ? WHERE key = ?", arguments: [newName, key])
            // Feeds follow names: the old name's feed ends in tombstones,
            // the new name's gets the stores (a device following either
            // name sees what that name now designates).
            try ChangeLog.record(name: name, list: nil, db, options: changeLog)
            try ChangeLog.record(name: newName, list: key, db, options: changeLog)
        }
    }

    /// Deletes the list `name`: its order, its spatial index entries and its
    /// stores (a store belongs to one list; another list holding the same
    /// id has its own). Returns how many stores the list held and how many
    /// left the catalog: all of them.
    ///
    /// One transaction: a failure leaves the list as it was.
    @discardableResult
    public func deleteList(_ name: String) throws -> ListDeletion {
        let changeLog = changeLogOptions
        return try write { db in
            let key = try listKey(name, db)
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT coalesce(max(position) + 1, 0) FROM list_items WHERE list = ?", arguments: [key]) ?? 0
            let removedStores = try Self.deleteRows(ofList: key, db)
            try ChangeLog.record(name: name, list: nil, db, options: changeLog)
            return ListDeletion(name: name, count: count, removedStores: removedStores)
        }
    }

    /// Deletes the list with key `list` and every row of it: index entries,
    /// stores (found on the unique index on (list, id)), items; returns how
    /// many stores went. Touches no other list's rows.
    static func deleteRows(ofList list: Int64, _ db: Database) throws -> Int {
        // A feed logging the list's stores by their places in it (its
        // first version) writes them as rows before they go.
        try ChangeLog.materializeBases(ofList: list, db)
        // One pass over the index (it is keyed by place, not by list): a few
        // milliseconds per 100,000 entries, and no per-row index to maintain.
        try db.execute(sql: "DELETE FROM spatial_index WHERE list = ?", arguments: [list])
        try SpatialTiles.delete(list: list, db)
        try db.execute(sql: "DELETE FROM stores WHERE list = ?", arguments: [list])
        let removedStores = db.changesCount
        try db.execute(sql: "DELETE FROM list_items WHERE list = ?", arguments: [list])
        try db.execute(sql: "DELETE FROM lists WHERE key = ?", arguments: [list])
        return removedStores
    }
}

/// What ``Catalog/deleteList(_:)-8mguk`` removed.
public struct ListDeletion: Sendable, Hashable, Codable {
    /// The deleted list.
    public var name: String
    /// How many stores it held.
    public var count: Int
    /// How many of them left the catalog: all, since a store belongs to one
    /// list (catalogs before schema 5 shared stores between lists).
    public var removedStores: Int

    public init(name: String, count: Int, removedStores: Int) {
        self.name = name
        self.count = count
        self.removedStores = removedStores
    }
}

extension CatalogError {
    /// A rename to the name of another list, in both engines' words.
    package static func renameTaken(_ name: String, to newName: String) -> CatalogError {
        .invalidArgument("cannot rename '\(name)' to '\(newName)': a list of that name exists; delete it or pick another name")
    }
}
