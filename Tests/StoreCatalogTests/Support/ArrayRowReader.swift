import StoreCatalog

/// A `StoreRowReader` over rows held in memory: the importer's tests need no
/// file format.
struct ArrayRowReader: StoreRowReader {
    private var rows: [ImportRow]
    private var index = 0
    /// Thrown instead of the row at this index, to test a reader failing
    /// mid-file.
    var failure: (index: Int, error: ImportFileError)?
    /// Whether its string attributes are typed as CSV cells are.
    var cellsAreText = false

    init(_ rows: [ImportRow]) {
        self.rows = rows
    }

    /// Valid rows, numbered from line 2 as under a header line.
    init(stores: [Store]) {
        self.init(stores.enumerated().map { .valid($1, line: $0 + 2) })
    }

    mutating func next() throws(ImportFileError) -> ImportRow? {
        if let failure, failure.index == index { throw failure.error }
        guard index < rows.count else { return nil }
        defer { index += 1 }
        return rows[index]
    }
}
