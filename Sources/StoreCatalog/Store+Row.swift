import GRDB

extension Store {
    /// The columns ``init(row:)`` reads, from `stores AS s`, in order.
    package static let columns = "s.id, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes"

    /// A store from a row selecting ``columns`` first.
    package init(row: Row) throws {
        self.init(
            id: row[0],
            name: row[1],
            latitude: row[2],
            longitude: row[3],
            address: row[4],
            category: row[5],
            phone: row[6],
            attributes: try (row[7] as String?).map(AttributesJSON.decode) ?? [:]
        )
    }
}
