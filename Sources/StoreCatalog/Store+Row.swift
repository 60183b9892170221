import GRDB

extension Store {
    /// The columns ``init(_:)`` reads, from `stores AS s`, in order.
    package static let columns = "s.id, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes"

    /// The store on the current row of a statement selecting ``columns``
    /// first. Read through the C API: GRDB's `Row` would cost more than the
    /// lookup itself on the position and nearest queries.
    package init(_ statement: RawStatement) throws {
        self.init(
            id: statement.text(0) ?? "",
            name: statement.text(1) ?? "",
            latitude: statement.double(2),
            longitude: statement.double(3),
            address: statement.text(4),
            category: statement.text(5),
            phone: statement.text(6),
            attributes: try statement.withUTF8(7, AttributesJSON.decode(utf8:)) ?? [:]
        )
    }
}
