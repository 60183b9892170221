/// Rows of another reader with their names rebuilt by a ``NameFormat``.
///
/// A column the template names that no row of the whole file has is a typo
/// (`{지점명}` spelt `{지점}`): the file is refused at its end, so the import
/// writes nothing rather than names missing a part.
public struct NameFormattingReader: StoreRowReader {
    private var base: any StoreRowReader
    private let format: NameFormat
    private let path: String
    private var found = Set<String>()

    /// `base`'s rows renamed by `format`; `path` names the file in errors.
    public init(_ base: any StoreRowReader, format: NameFormat, path: String) {
        self.base = base
        self.format = format
        self.path = path
    }

    /// The base reader's: renaming does not change what the cells are.
    public var cellsAreText: Bool { base.cellsAreText }

    public mutating func next() throws(ImportFileError) -> ImportRow? {
        guard let row = try base.next() else {
            let missing = format.columns.filter { !found.contains($0.lowercased()) }
            if !missing.isEmpty {
                let names = missing.map { "'\($0)'" }.joined(separator: ", ")
                throw ImportFileError(
                    path: path, reason: "the name format '\(format)' names \(names), which no row has a value for: check the column names")
            }
            return nil
        }
        guard case .valid(var store, let line) = row else { return row }
        store.name = format.name(for: store, found: &found)
        guard !store.name.isEmpty else {
            return .invalid([ImportIssue(line: line, column: nil, reason: "the name format '\(format)' gives an empty name")])
        }
        return .valid(store, line: line)
    }
}
