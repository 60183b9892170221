/// A run of consecutive input rows, validated and flattened for binding: what
/// the reading thread of an import hands to the writing one.
///
/// Every text value of every store sits back to back in one byte buffer, so
/// a batch holds a handful of arrays whatever its row count, binding a value
/// is a pointer into that buffer, and a recycled batch refills without
/// allocating (`removeAll` keeps the capacity).
struct RowBatch: Sendable {
    /// The text columns of `stores`, in the order they are staged.
    enum Column: Int, CaseIterable {
        case id, name, address, category, phone, attributes
    }

    /// A valid row: its line and coordinates; its text is in ``text``.
    struct StoreRow {
        var line: Int
        var latitude: Double
        var longitude: Double
        /// The index of its first column end in ``RowBatch/ends``.
        fileprivate var firstEnd: Int
    }

    enum Row {
        case store(StoreRow)
        /// Every problem of an invalid row (at least one).
        case invalid([ImportIssue])
    }

    /// The rows, in file order.
    private(set) var rows: [Row] = []
    /// The text columns of the stores, back to back.
    private(set) var text: [UInt8] = []
    /// Where each text column of each store ends in ``text``; it starts where
    /// the previous one ends. An empty optional column stands for NULL, as
    /// the validator never keeps an empty value (`id` and `name` are never
    /// empty).
    private var ends: [Int] = []

    init() {}

    var count: Int { rows.count }

    /// Empties the batch, keeping its storage for the next rows.
    mutating func removeAll() {
        rows.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// Adds the next row read from the file.
    mutating func append(_ row: ImportRow) {
        switch row {
        case let .invalid(issues):
            rows.append(.invalid(issues))
        case let .valid(store, line):
            // The readers validate; this keeps a reader bug from ending the
            // import on a CHECK constraint instead of a reported row.
            guard store.coordinate.isValid else {
                rows.append(
                    .invalid([
                        ImportIssue(line: line, column: nil, reason: "coordinates \(store.coordinate) are out of range")
                    ]))
                return
            }
            let staged = StoreRow(line: line, latitude: store.latitude, longitude: store.longitude, firstEnd: ends.count)
            appendColumn(store.id)
            appendColumn(store.name)
            appendColumn(store.address)
            appendColumn(store.category)
            appendColumn(store.phone)
            AttributesJSON.append(store.attributes, to: &text)
            ends.append(text.count)
            rows.append(.store(staged))
        }
    }

    private mutating func appendColumn(_ value: String?) {
        if let value { text.append(contentsOf: value.utf8) }
        ends.append(text.count)
    }

    /// The bytes of `column` of `store` within `text` (the buffer of
    /// ``withText(_:)``).
    func range(of column: Column, _ store: StoreRow) -> Range<Int> {
        let index = store.firstEnd + column.rawValue
        return (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// The store's id as a String, for messages.
    func id(of store: StoreRow) -> String {
        String(decoding: text[range(of: .id, store)], as: UTF8.self)
    }

    /// Runs `body` over the text buffer without copying it.
    func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try text.withUnsafeBufferPointer(body)
    }
}
