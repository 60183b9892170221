import Foundation

/// A store as the change log carries it: its columns exactly as the
/// catalog keeps them, the attributes as their stored JSON text, so that
/// a device writes back the same bytes and its export matches the
/// server's byte for byte.
public struct StoreRecord: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var address: String?
    public var category: String?
    public var phone: String?
    /// The attributes' JSON object as stored (typed values; nil: none).
    public var attributes: String?

    public init(
        id: String, name: String, latitude: Double, longitude: Double, address: String? = nil, category: String? = nil,
        phone: String? = nil, attributes: String? = nil
    ) {
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.category = category
        self.phone = phone
        self.attributes = attributes
    }
}

/// One change of a list: a store's last change at its sequence number.
///
/// An upsert carries the store and its `rank`: the list's order is the
/// order of its stores' ranks, so a store inserted between two others
/// takes a rank between theirs and no other store changes (fractional
/// indexing, as Figma and Replicache order lists), where a dense position
/// would make every later store a change. A tombstone carries the id only.
public struct StoreChange: Sendable, Hashable {
    /// The change's sequence number in its list's feed: commit order.
    public var sequence: Int64
    public var id: String
    /// The store's order key; nil for a tombstone.
    public var rank: Int64?
    /// The store; nil for a tombstone.
    public var store: StoreRecord?

    public init(sequence: Int64, id: String, rank: Int64?, store: StoreRecord?) {
        self.sequence = sequence
        self.id = id
        self.rank = rank
        self.store = store
    }

    public var isTombstone: Bool { rank == nil }
}

/// A page of a list's changes: `GET /lists/{name}/changes`.
public struct ChangePage: Sendable, Hashable {
    public var changes: [StoreChange]
    /// The cursor of the next page (`since`).
    public var next: String
    /// Whether `next` is the list's newest state: a replica holding every
    /// change up to here holds the list.
    public var upToDate: Bool
    /// At `upToDate`, the list's checksum (16 hex digits): the wrapping sum
    /// of its stores' item hashes, to compare with what a replica holds.
    public var checksum: String?
    /// Whether a list has the name now (false: deleted or renamed away,
    /// its feed ending in tombstones).
    public var exists: Bool

    public init(changes: [StoreChange], next: String, upToDate: Bool, checksum: String?, exists: Bool = true) {
        self.exists = exists
        self.changes = changes
        self.next = next
        self.upToDate = upToDate
        self.checksum = checksum
    }
}

/// Why a list's changes cannot be read from a cursor.
public enum ChangeCursorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The cursor is not one this list's feed gave: malformed, mangled,
    /// forged or of another list (HTTP 400).
    case invalid(String)
    /// The cursor is older than the tombstones kept: changes it has not
    /// seen were compacted away, and the replica must download the list
    /// again (HTTP 410 `resync_required`; ElectricSQL's 409 "must refetch").
    case resyncRequired(list: String)

    public var description: String {
        switch self {
        case .invalid(let reason): "bad cursor: \(reason)"
        case .resyncRequired(let list):
            "the cursor of list '\(list)' is older than the changes kept; download the list again (no cursor)"
        }
    }
}

/// How long the change log keeps tombstones, and its clock.
public struct ChangeLogOptions: Sendable {
    /// How long a deleted store's tombstone is kept (30 days by default):
    /// a replica that syncs within it gets the delete; one that comes back
    /// later gets `resyncRequired`.
    public var retention: Duration
    /// The time a write stamps its changes with and compacts against;
    /// tests give a virtual one.
    public var now: @Sendable () -> Date

    public static let defaultRetention: Duration = .seconds(30 * 86_400)

    public init(retention: Duration = defaultRetention, now: @escaping @Sendable () -> Date = { Date() }) {
        self.retention = retention
        self.now = now
    }
}

/// A cursor of a list's feed: the last sequence number seen, the number
/// through which tombstones are skipped (a download from scratch has
/// nothing to delete: tombstones older than its start are left out), and
/// a SipHash of both under the feed's key.
package struct ChangeCursor: Equatable {
    package var sequence: Int64
    package var skipThrough: Int64

    func token(feed: ChangeLog.Feed) -> String {
        "\(sequence)-\(skipThrough)-\(ChangeHash.hex(Int64(bitPattern: mac(feed))))"
    }

    func mac(_ feed: ChangeLog.Feed) -> UInt64 {
        var hash = SipHash(k0: UInt64(bitPattern: feed.k0), k1: UInt64(bitPattern: feed.k1))
        hash.append(UInt64(bitPattern: feed.key))
        hash.append(UInt64(bitPattern: sequence))
        hash.append(UInt64(bitPattern: skipThrough))
        return hash.finalize()
    }

    /// Reads a token of `feed`; throws ``ChangeCursorError/invalid(_:)``
    /// for anything that is not one of its tokens.
    package init(token: String, feed: ChangeLog.Feed) throws(ChangeCursorError) {
        let parts = token.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard token.utf8.count <= 64, parts.count == 3, let sequence = Self.number(parts[0]),
            let skip = Self.number(parts[1]), parts[2].count == 16,
            let mac = UInt64(String(decoding: parts[2], as: UTF8.self), radix: 16)
        else { throw .invalid("'\(token.prefix(64))' is not a cursor of this server (give the `next` of a page, or none)") }
        self.sequence = sequence
        skipThrough = skip
        guard self.mac(feed) == mac else {
            throw .invalid("the cursor was not given for this list (or was altered); start again without one")
        }
    }

    package init(sequence: Int64, skipThrough: Int64) {
        self.sequence = sequence
        self.skipThrough = skipThrough
    }

    /// A decimal number 0...Int64.max, digits only, no leading zero.
    private static func number(_ digits: Substring.UTF8View) -> Int64? {
        guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy({ (48...57).contains($0) }),
            digits.count == 1 || digits.first != 48
        else { return nil }
        return Int64(String(decoding: digits, as: UTF8.self))
    }
}
