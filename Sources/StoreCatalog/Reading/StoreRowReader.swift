// The seam between reading an input file and writing the catalog.
//
// A `StoreRowReader` streams a file row by row — never loading it whole — and
// hands each row over already validated: a `Store`, or every problem found in
// the row. The importer (which owns the database) decides what to do with
// them: all or nothing, skipping invalid rows, duplicate ids across rows.

/// Streams validated rows out of an input file, in file order.
public protocol StoreRowReader {
    /// The next row, or nil at the end of the file.
    mutating func next() throws(ImportFileError) -> ImportRow?

    /// Whether the attribute values come as text whose type the import
    /// decides per column (CSV, TSV), rather than typed (JSON, or stores
    /// given as they are). False unless a reader says otherwise.
    var cellsAreText: Bool { get }
}

extension StoreRowReader {
    public var cellsAreText: Bool { false }
}
