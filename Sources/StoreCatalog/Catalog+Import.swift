extension Catalog {
    /// Imports a store list from `reader`, in one transaction.
    ///
    /// Every row is read and checked. By default, any invalid row or id
    /// repeated in the file makes the import write nothing and throw
    /// ``CatalogError/rowsRejected(_:)`` with the issues;
    /// ``ImportOptions/skipInvalid`` imports the valid rows instead and
    /// reports the others. Past ``ImportOptions/issueLimit`` rejected rows
    /// the import stops, imports nothing and throws
    /// ``CatalogError/rowsRejected(_:)`` with ``ImportReport/stoppedEarly``. Ids are unique within a list only: another list
    /// holding the same id keeps its own store, untouched. An existing list
    /// of the same name is an error unless ``ImportOptions/replace`` is set;
    /// then it is swapped atomically.
    ///
    /// A kill at any moment leaves the database as it was before the call.
    /// The rows are read and checked on a second thread while this one
    /// writes them, a few thousand rows apart at most. Memory stays bounded
    /// whatever the file's size: the spatial index entries are sorted in
    /// memory up to 8 MiB of them, past that in sorted runs written to an
    /// unlinked temporary file (in `$TMPDIR`, else `/tmp`) and merged.
    @discardableResult
    public func importList(
        named name: String,
        from reader: some StoreRowReader,
        options: ImportOptions = ImportOptions()
    ) throws -> ImportReport {
        try importList(named: name, from: reader, options: options, pipeline: .standard)
    }

    /// ``importList(named:from:options:)`` handing rows over in batches of
    /// another shape, and holding at most `spatialMemoryLimit` spatial index
    /// entries in memory, so tests can prove neither changes a result.
    func importList(
        named name: String, from reader: some StoreRowReader, options: ImportOptions, pipeline: RowPipeline.Shape,
        spatialMemoryLimit: Int = SpatialIndexWriter.memoryLimit
    ) throws -> ImportReport {
        try options.check(list: name)
        let importer = ListImporter(
            list: name, reader: reader, options: options, pipeline: pipeline, spatialMemoryLimit: spatialMemoryLimit)
        let changeLog = changeLogOptions
        return try write { db in
            let (report, imported) = try importer.run(db)
            // The list's changes against what its feed held, in the same
            // transaction (issue 45): an unchanged store is no change.
            try ChangeLog.record(name: name, list: try listKey(name, db), db, options: changeLog, imported: imported)
            return report
        }
    }
}
