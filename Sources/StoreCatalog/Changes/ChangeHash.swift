/// The hashes of the change log: a store's content, a live row's item hash
/// (content and order key) and the keyed MAC that signs cursors.
///
/// The checksum of a list is the wrapping sum of its live rows' item
/// hashes, as PowerSync's bucket checksums are a sum of operation
/// checksums: the server keeps it up to date with each write (adding and
/// subtracting), the device sums what it holds, and the two compare in
/// O(1) at `upToDate` whatever the list's size.
package enum ChangeHash {
    /// FNV-1a, 64 bits, over the store's columns in a fixed order, each
    /// framed (a tag, a length) so that no two stores share a byte string.
    /// Not a defence against a forger: the server that writes the list is
    /// the party the device trusts; this finds lost and mangled rows.
    package static func content(_ record: StoreRecord) -> Int64 {
        var hash = FNV()
        hash.text(record.id)
        hash.text(record.name)
        hash.double(record.latitude)
        hash.double(record.longitude)
        hash.text(record.address)
        hash.text(record.category)
        hash.text(record.phone)
        hash.text(record.attributes)
        return Int64(bitPattern: hash.value)
    }

    /// ``content(_:)`` of the store in the statement's current row, its
    /// columns from `first` on in ``StoreRecord``'s order (id, name,
    /// latitude, longitude, address, category, phone, attributes), hashed
    /// where SQLite holds their bytes: no `String` a column (the change
    /// log's pass over a 234,908-store import made 1.4 M of them).
    static func content(_ statement: RawStatement, first: Int32 = 0) -> Int64 {
        content(latitude: statement.double(first + 2), longitude: statement.double(first + 3)) { text in
            statement.withUTF8(first + Int32(text < 2 ? text : text + 2)) { $0 }
        }
    }

    /// ``content(_:)`` of a store given its coordinates and its six text
    /// columns' bytes (nil: NULL), which `text(n)` gives in order: id,
    /// name, address, category, phone, attributes. Whoever holds a store's
    /// bytes, SQLite or an import's batch, hashes them through this one.
    @inline(__always)
    static func content(
        latitude: Double, longitude: Double, text: (Int) -> UnsafeBufferPointer<UInt8>?
    ) -> Int64 {
        var hash = FNV()
        hash.text(bytes: text(0))
        hash.text(bytes: text(1))
        hash.double(latitude)
        hash.double(longitude)
        for column in 2..<6 { hash.text(bytes: text(column)) }
        return Int64(bitPattern: hash.value)
    }

    /// The hash a live row adds to its list's checksum: its content and
    /// its place in the order.
    package static func item(content: Int64, rank: Int64) -> Int64 {
        var hash = FNV()
        hash.int(content)
        hash.int(rank)
        return Int64(bitPattern: hash.value)
    }

    /// The checksum as the wire carries it: 16 lowercase hex digits.
    package static func hex(_ checksum: Int64) -> String {
        let digits = String(UInt64(bitPattern: checksum), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    struct FNV {
        private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func byte(_ byte: UInt8) {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }

        mutating func int(_ number: Int64) {
            var bits = UInt64(bitPattern: number)
            for _ in 0..<8 {
                byte(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        }

        mutating func double(_ number: Double) {
            byte(2)
            // −0 hashes as +0: SQLite stores a whole REAL as an integer,
            // so a −0 written comes back +0, while an import's batch and
            // PostgreSQL keep the sign. The same store must hash the same
            // from all three.
            int(Int64(bitPattern: (number == 0 ? 0 : number).bitPattern))
        }

        /// ``text(_:)`` of the string whose UTF-8 is `bytes` (nil: NULL).
        mutating func text(bytes: UnsafeBufferPointer<UInt8>?) {
            guard let bytes else { return byte(0) }
            byte(1)
            int(Int64(bytes.count))
            for byte in bytes { self.byte(byte) }
        }

        mutating func text(_ value: String?) {
            guard var value else { return byte(0) }
            byte(1)
            value.withUTF8 { bytes in
                int(Int64(bytes.count))
                for byte in bytes { self.byte(byte) }
            }
        }
    }
}

/// SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed function whose
/// output cannot be computed without the key. A cursor carries it over
/// its feed's key and numbers, so a client cannot make up a cursor — one
/// from the future, or one that jumps over changes — that the server would
/// accept: a forged or mangled cursor is a 400, never a skipped change.
package struct SipHash {
    private var v0: UInt64, v1: UInt64, v2: UInt64, v3: UInt64
    private var tail: UInt64 = 0
    private var length = 0

    package init(k0: UInt64, k1: UInt64) {
        v0 = 0x736f_6d65_7073_6575 ^ k0
        v1 = 0x646f_7261_6e64_6f6d ^ k1
        v2 = 0x6c79_6765_6e65_7261 ^ k0
        v3 = 0x7465_6462_7974_6573 ^ k1
    }

    private mutating func round() {
        v0 = v0 &+ v1
        v1 = (v1 << 13) | (v1 >> 51)
        v1 ^= v0
        v0 = (v0 << 32) | (v0 >> 32)
        v2 = v2 &+ v3
        v3 = (v3 << 16) | (v3 >> 48)
        v3 ^= v2
        v0 = v0 &+ v3
        v3 = (v3 << 21) | (v3 >> 43)
        v3 ^= v0
        v2 = v2 &+ v1
        v1 = (v1 << 17) | (v1 >> 47)
        v1 ^= v2
        v2 = (v2 << 32) | (v2 >> 32)
    }

    private mutating func compress(_ word: UInt64) {
        v3 ^= word
        round()
        round()
        v0 ^= word
    }

    package mutating func append(_ word: UInt64) {
        // Whole words only: every input here is a few 64-bit numbers.
        compress(word)
        length += 8
    }

    package mutating func finalize() -> UInt64 {
        let last = UInt64(truncatingIfNeeded: length & 0xff) << 56 | tail
        compress(last)
        v2 ^= 0xff
        for _ in 0..<4 { round() }
        return v0 ^ v1 ^ v2 ^ v3
    }
}
