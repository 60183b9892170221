import Geo
import MapSync
import StoreCatalog

/// A list of a catalog as the view model's `StoreDirectory`, on either
/// engine, with its pins read ahead: what an app's screen, the server's
/// live sessions and its simulations drive the view model over.
///
/// `StoreDirectory` is synchronous — the view model looks a store up on the
/// thread that runs its debounce, the main actor in an app — and a catalog
/// answers asynchronously, from SQLite on a work lane or from PostgreSQL
/// over the network. So the pins (id and coordinates) of the whole list are
/// read once, asynchronously, when the directory is made, and every lookup
/// after is a read of memory: the main actor never waits for SQLite, nor
/// for an import that holds the catalog.
///
/// A pin costs about 32 bytes here (its coordinates, its id's UTF-8 and
/// where it ends): 7.5 MB for the 234,908 GeoNames places. A list over
/// ``maxPins`` is refused with `CatalogError.invalidArgument`
/// rather than held: a carousel of millions of cards is not one a person
/// swipes. Directories of the same list share nothing; a server that shows
/// one list to many sessions shares one directory among them.
public struct CatalogStoreDirectory: StoreDirectory {
    /// The list's name.
    public let list: String
    /// The pins, in carousel order.
    private let pins: PinTable

    /// The most pins a directory reads ahead: 4,000,000 (about 130 MB).
    public static let maxPins = 4_000_000

    /// Reads the pins of `list` from `engine`: its count, then every pin in
    /// one pass (on SQLite, on the bulk lane). Throws what the engine
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
        try await engine.forEachPin(list: list) { position, pin in
            // Positions are dense and in order; a list changed between the
            // count and the pass shows as a position out of step.
            guard position == builder.count, builder.count < Self.maxPins else {
                throw CatalogError.database("the list '\(list)' changed while its pins were read; read it again")
            }
            builder.append(pin)
        }
        self.list = list
        pins = builder.build()
    }

    /// The directory of `pins`, in that order, as list `list`.
    public init(list: String, pins: some Sequence<StorePin>) {
        var builder = PinTable.Builder(expecting: pins.underestimatedCount)
        for pin in pins { builder.append(pin) }
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

    /// The first position holding `id`: one pass over the ids' bytes,
    /// without making a string of each (a reload asks once).
    public func index(ofStore id: String) throws -> Int? {
        pins.firstIndex(ofId: id)
    }
}

/// Pins in three flat arrays — coordinates, ids' UTF-8, where each id ends
/// — rather than an array of `StorePin`s, whose strings past 15 bytes are
/// each an allocation of their own.
final class PinTable: Sendable {
    private let coordinates: [Double]
    private let idBytes: [UInt8]
    /// Where the id of pin `i` ends in `idBytes` (it starts where pin
    /// `i - 1`'s ends).
    private let idEnds: [Int]

    var count: Int { idEnds.count }

    private init(coordinates: [Double], idBytes: [UInt8], idEnds: [Int]) {
        self.coordinates = coordinates
        self.idBytes = idBytes
        self.idEnds = idEnds
    }

    subscript(index: Int) -> StorePin {
        let id = String(decoding: idBytes[idRange(index)], as: UTF8.self)
        return StorePin(id: id, latitude: coordinates[2 * index], longitude: coordinates[2 * index + 1])
    }

    func firstIndex(ofId id: String) -> Int? {
        var id = id
        return id.withUTF8 { wanted in
            idBytes.withUnsafeBufferPointer { bytes in
                (0..<count).first { index in
                    let range = idRange(index)
                    return range.count == wanted.count && bytes[range].elementsEqual(wanted)
                }
            }
        }
    }

    private func idRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : idEnds[index - 1])..<idEnds[index]
    }

    struct Builder {
        private var coordinates: [Double] = []
        private var idBytes: [UInt8] = []
        private var idEnds: [Int] = []

        init(expecting count: Int) {
            coordinates.reserveCapacity(2 * count)
            idEnds.reserveCapacity(count)
        }

        var count: Int { idEnds.count }

        mutating func append(_ pin: StorePin) {
            coordinates.append(pin.latitude)
            coordinates.append(pin.longitude)
            idBytes.append(contentsOf: pin.id.utf8)
            idEnds.append(idBytes.count)
        }

        func build() -> PinTable {
            PinTable(coordinates: coordinates, idBytes: idBytes, idEnds: idEnds)
        }
    }
}
