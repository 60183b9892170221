import Geo
import MapSync
import StoreCatalog

/// A list of a catalog as the view model's `StoreDirectory`, on either
/// engine, with its pins and names read ahead: what an app's screen, the
/// server's live sessions and its simulations drive the view model over.
///
/// `StoreDirectory` is synchronous — the view model looks a store up on the
/// thread that runs its debounce, the main actor in an app — and a catalog
/// answers asynchronously, from SQLite on a work lane or from PostgreSQL
/// over the network. So the pins (id and coordinates) and names of the
/// whole list are read once, asynchronously, when the directory is made,
/// and every lookup after is a read of memory: the main actor never waits
/// for SQLite, nor for an import that holds the catalog. The names are an
/// accessibility status's `{name}` (``statusDetails(at:)``): a screen
/// reader says "Store 3 of 44, Haneul Coffee", not the store's id.
///
/// A store costs about 40 bytes plus its name here (its coordinates, its
/// id's and name's UTF-8 and where each ends): about 12 MB for the 234,908
/// GeoNames places. A list over
/// ``maxPins`` is refused with `CatalogError.invalidArgument`
/// rather than held: a carousel of millions of cards is not one a person
/// swipes. Directories of the same list share nothing; a server that shows
/// one list to many sessions shares one directory among them.
public struct CatalogStoreDirectory: StoreDirectory {
    /// The list's name.
    public let list: String
    /// The pins, in carousel order.
    private let pins: PinTable

    /// The most pins a directory reads ahead: 4,000,000 (about 130 MB of
    /// pins, and their names beside them).
    public static let maxPins = 4_000_000

    /// Reads the pins and names of `list` from `engine`: its count, then
    /// every store in one pass (on SQLite, on the bulk lane). Throws what the engine
    /// throws (`CatalogError.listNotFound` for a list that does not
    /// exist), or `CatalogError.invalidArgument` for a list over
    /// ``maxPins``.
    public init(engine: some CatalogEngine, list: String) async throws {
        let count = try await engine.count(list: list)
        guard count <= Self.maxPins else {
            throw CatalogError.invalidArgument(
                "the list '\(list)' holds \(count) stores, more than the \(Self.maxPins) a carousel reads ahead")
        }
        var builder = PinTable.Builder(expecting: count)
        try await engine.forEachStore(list: list, offset: 0, limit: nil) { position, store in
            // Positions are dense and in order; a list changed between the
            // count and the pass shows as a position out of step.
            guard position == builder.count, builder.count < Self.maxPins else {
                throw CatalogError.database("the list '\(list)' changed while its pins were read; read it again")
            }
            builder.append(store)
        }
        self.list = list
        pins = builder.build()
    }

    /// The directory of `stores`, in that order, as list `list`: their pins
    /// and names, as ``init(engine:list:)`` reads them.
    public init(list: String, stores: some Sequence<Store>) {
        var builder = PinTable.Builder(expecting: stores.underestimatedCount)
        for store in stores { builder.append(store) }
        self.list = list
        self.pins = builder.build()
    }

    /// The directory of `pins`, in that order, as list `list`; without
    /// names, so a status's `{name}` says each store's id.
    public init(list: String, pins: some Sequence<StorePin>) {
        var builder = PinTable.Builder(expecting: pins.underestimatedCount)
        for pin in pins { builder.append(pin, name: nil) }
        self.list = list
        self.pins = builder.build()
    }

    public var count: Int { pins.count }

    public func pin(at index: Int) throws -> StorePin {
        guard (0..<pins.count).contains(index) else {
            throw CatalogError.positionOutOfRange(list: list, position: index, count: pins.count)
        }
        return pins[index]
    }

    /// The store's name for an accessibility status's `{name}`; hours and
    /// distance are the app's words (its locale, where its user stands), so
    /// an app that says them wraps this directory.
    public func statusDetails(at index: Int) throws -> StoreStatusDetails {
        guard (0..<pins.count).contains(index) else {
            throw CatalogError.positionOutOfRange(list: list, position: index, count: pins.count)
        }
        return StoreStatusDetails(name: pins.name(at: index))
    }

    /// The first position holding `id`: one pass over the ids' bytes,
    /// without making a string of each (a reload asks once).
    public func index(ofStore id: String) throws -> Int? {
        pins.firstIndex(ofId: id)
    }
}

/// Pins in flat arrays — coordinates, ids' and names' UTF-8, where each id
/// and name ends — rather than an array of `StorePin`s, whose strings past
/// 15 bytes are each an allocation of their own.
final class PinTable: Sendable {
    private let coordinates: [Double]
    private let idBytes: [UInt8]
    /// Where the id of pin `i` ends in `idBytes` (it starts where pin
    /// `i - 1`'s ends).
    private let idEnds: [Int]
    private let nameBytes: [UInt8]
    /// Where the name of pin `i` ends in `nameBytes`; empty when the table
    /// holds no names.
    private let nameEnds: [Int]

    var count: Int { idEnds.count }

    private init(coordinates: [Double], idBytes: [UInt8], idEnds: [Int], nameBytes: [UInt8], nameEnds: [Int]) {
        self.coordinates = coordinates
        self.idBytes = idBytes
        self.idEnds = idEnds
        self.nameBytes = nameBytes
        self.nameEnds = nameEnds
    }

    subscript(index: Int) -> StorePin {
        let id = String(decoding: idBytes[Self.range(index, ends: idEnds)], as: UTF8.self)
        return StorePin(id: id, latitude: coordinates[2 * index], longitude: coordinates[2 * index + 1])
    }

    /// The name of pin `index`, nil when the table holds no names.
    func name(at index: Int) -> String? {
        guard !nameEnds.isEmpty else { return nil }
        return String(decoding: nameBytes[Self.range(index, ends: nameEnds)], as: UTF8.self)
    }

    func firstIndex(ofId id: String) -> Int? {
        var id = id
        return id.withUTF8 { wanted in
            idBytes.withUnsafeBufferPointer { bytes in
                (0..<count).first { index in
                    let range = Self.range(index, ends: idEnds)
                    return range.count == wanted.count && bytes[range].elementsEqual(wanted)
                }
            }
        }
    }

    /// Where item `index` lies in bytes whose items end at `ends`.
    private static func range(_ index: Int, ends: [Int]) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    struct Builder {
        private var coordinates: [Double] = []
        private var idBytes: [UInt8] = []
        private var idEnds: [Int] = []
        private var nameBytes: [UInt8] = []
        private var nameEnds: [Int] = []

        init(expecting count: Int) {
            coordinates.reserveCapacity(2 * count)
            idEnds.reserveCapacity(count)
        }

        var count: Int { idEnds.count }

        /// Appends `pin`, with `name` when the table holds names: every
        /// pin has one, or none does.
        mutating func append(_ pin: StorePin, name: String?) {
            coordinates.append(pin.latitude)
            coordinates.append(pin.longitude)
            idBytes.append(contentsOf: pin.id.utf8)
            idEnds.append(idBytes.count)
            if let name {
                nameBytes.append(contentsOf: name.utf8)
                nameEnds.append(nameBytes.count)
            }
        }

        /// Appends a store's pin and name.
        mutating func append(_ store: Store) {
            append(StorePin(id: store.id, latitude: store.latitude, longitude: store.longitude), name: store.name)
        }

        func build() -> PinTable {
            precondition(nameEnds.isEmpty || nameEnds.count == idEnds.count, "a name for every pin or for none")
            return PinTable(coordinates: coordinates, idBytes: idBytes, idEnds: idEnds, nameBytes: nameBytes, nameEnds: nameEnds)
        }
    }
}
