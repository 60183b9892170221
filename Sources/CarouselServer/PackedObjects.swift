/// Byte strings (the stores' JSON objects) written end to end into chunks
/// of 1 MiB: how ``NearestAnswers`` holds a catalog's stores.
///
/// Why: held as an array each, an object (about 125 bytes for a GeoNames
/// place) cost a reference, an array header, malloc's rounding and the
/// capacity its growth left; one buffer grown by appending would hold up
/// to twice its bytes, and three times while it grows. In chunks sized
/// once, an object costs its bytes and a 12-byte address. The snapshot of
/// the 234,908 places went from 83 to 56 MiB of anonymous memory, and the
/// server's peak while building it from 155 to 99 MiB (`carousel serve`,
/// installed, one `GET /stores/near`, /proc/PID/status).
struct PackedObjects: Sendable {
    /// Where one object is.
    struct Address: Sendable {
        let chunk: UInt32
        let start: UInt32
        let end: UInt32
    }

    static let chunkSize = 1 << 20

    private var chunks: [[UInt8]] = []
    /// The chunk being filled.
    private var current = -1
    /// Where each object is written before it is packed: reused.
    private var scratch: [UInt8] = []

    init() {}

    /// Packs the bytes `write` appends to an empty buffer; returns where
    /// they are. An object longer than a chunk gets a chunk of its own, and
    /// the chunk being filled stays the one.
    mutating func append(_ write: (inout [UInt8]) throws -> Void) rethrows -> Address {
        scratch.removeAll(keepingCapacity: true)
        try write(&scratch)
        // A chunk holds at most max(chunkSize, one object) bytes, and an
        // object is at most a store's few kilobytes: the offsets fit.
        guard scratch.count <= Self.chunkSize else {
            chunks.append(scratch)
            return Address(chunk: UInt32(chunks.count - 1), start: 0, end: UInt32(scratch.count))
        }
        if current < 0 || chunks[current].count + scratch.count > Self.chunkSize {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(Self.chunkSize)
            current = chunks.count
            chunks.append(chunk)
        }
        let start = chunks[current].count
        chunks[current] += scratch
        return Address(chunk: UInt32(current), start: UInt32(start), end: UInt32(chunks[current].count))
    }

    subscript(address: Address) -> ArraySlice<UInt8> {
        chunks[Int(address.chunk)][Int(address.start)..<Int(address.end)]
    }

    /// The bytes held, with the chunks' unused tails.
    var capacity: Int { chunks.reduce(0) { $0 + $1.capacity } }
}
