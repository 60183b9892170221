import Foundation
import GRDB

extension ChangeLog {
    /// Where each store of a list is in it, found by the store's key: what
    /// lets the log read a list's stores in id order (from their `UNIQUE
    /// (list, id)` index, as the log's rows are keyed) and still number
    /// and rank each by its place.
    ///
    /// The keys an import or a replica gives a list are consecutive, so a
    /// place is an array slot of 4 bytes a key (0.9 MiB for the 234,908
    /// places); keys spread over more than four times the list's length
    /// (a catalog whose keys were given otherwise) are held in a
    /// dictionary instead.
    struct StorePlaces {
        let list: Int64
        let count: Int
        private let lowest: Int64
        private var slots: [UInt32] = []
        private var spread: [Int64: Int] = [:]

        init(list: Int64, _ db: Database) throws {
            self.list = list
            let span = try Row.fetchOne(
                db, sql: "SELECT min(store), max(store), count(*) FROM list_items WHERE list = ?", arguments: [list])
            let lowest: Int64 = span?[0] ?? 0, highest: Int64 = span?[1] ?? -1
            let count: Int = span?[2] ?? 0
            self.lowest = lowest
            self.count = count
            let compact = highest - lowest < 4 * Int64(count) + 1_024
            if compact { slots = [UInt32](repeating: .max, count: Int(highest - lowest + 1)) }
            let items = try RawStatement.cached("SELECT position, store FROM list_items WHERE list = ?", in: db)
            defer { items.reset() }
            items.bind(list, at: 1)
            while try items.step() {
                let position = items.int64(0), store = items.int64(1)
                guard (0..<Int64(count)).contains(position) else {
                    throw CatalogError.database("list \(list) has an item at \(position)")
                }
                if compact { slots[Int(store - lowest)] = UInt32(position) } else { spread[store] = Int(position) }
            }
        }

        /// The place of the store whose key is `key`; throws when the list
        /// has no item of it (a damaged catalog).
        func position(ofStore key: Int64) throws -> Int {
            if slots.isEmpty {
                if let position = spread[key] { return position }
            } else if key >= lowest, key - lowest < Int64(slots.count), slots[Int(key - lowest)] != .max {
                return Int(slots[Int(key - lowest)])
            }
            throw CatalogError.database("list \(list) holds a store that is not among its items")
        }
    }

    /// The statement reading list `list`'s stores in id order, with their
    /// content's columns (as ``storesInOrder(_:_:)``) and their key last.
    static func storesById(_ list: Int64, _ db: Database) throws -> RawStatement {
        let statement = try RawStatement.cached(
            """
            SELECT id, name, latitude, longitude, address, category, phone, attributes, key
            FROM stores WHERE list = ? ORDER BY id
            """, in: db)
        statement.bind(list, at: 1)
        return statement
    }

    /// How two ids compare in SQLite's BINARY collation (their UTF-8
    /// bytes, a prefix first), without making a `String` of either.
    static func compareIds(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let x = a.baseAddress, let y = b.baseAddress {
            let order = memcmp(x, y, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }
}
