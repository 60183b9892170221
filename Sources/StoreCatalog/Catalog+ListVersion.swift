extension Catalog {
    /// The version of list `name`: a number that changes whenever the
    /// list's data does (an import or a replace into it, a rename onto its
    /// name) and never comes back for the same name, even after the list is
    /// deleted and made again; changes to other lists leave it. Nil when
    /// there is no such list. One lookup on the unique index of names.
    public func listVersion(named name: String) throws -> Int64? {
        try read { db in
            try rows(db, "SELECT version FROM lists WHERE name = ?", { $0.bind(name, at: 1) }) { $0.int64(0) }.first
        }
    }
}
