import Geo

/// A store list held in an array: for tests, previews and small lists.
public struct InMemoryStoreDirectory: StoreDirectory, Hashable {
    /// The stores in carousel order.
    public var pins: [StorePin]

    public init(_ pins: [StorePin]) {
        self.pins = pins
    }

    public var count: Int { pins.count }

    public func pin(at index: Int) throws -> StorePin {
        guard pins.indices.contains(index) else {
            throw MapSyncError.indexOutOfRange(index: index, count: pins.count)
        }
        return pins[index]
    }

    public func index(ofStore id: String) -> Int? {
        pins.firstIndex { $0.id == id }
    }
}
