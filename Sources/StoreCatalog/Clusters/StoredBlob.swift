import Clustering
import GRDB
import GRDBSQLite

/// A stored part's bytes read piecewise through SQLite's incremental blob
/// I/O, straight into the arrays that hold them: a selected blob would be
/// copied whole into SQLite's buffer first (11 MB for a level of 234,908
/// stores), then again into the arrays.
struct StoredBlob: ClusterByteSource {
    private let blob: OpaquePointer
    private let size: Int
    private var offset = 0

    /// Opens `cluster_parts.bytes` of row `rowid` for reading; nil if absent.
    init(rowid: Int64, _ db: Database) throws {
        var handle: OpaquePointer?
        let code = sqlite3_blob_open(db.sqliteConnection, "main", "cluster_parts", "bytes", rowid, 0, &handle)
        guard code == SQLITE_OK, let handle else {
            if let handle { sqlite3_blob_close(handle) }
            throw CatalogError.database("cannot read a stored cluster index part (SQLite code \(code))")
        }
        blob = handle
        size = Int(sqlite3_blob_bytes(handle))
    }

    func close() {
        sqlite3_blob_close(blob)
    }

    var byteCount: Int { size }

    var isAtEnd: Bool { offset == size }

    /// Moves the reading position to `offset`.
    mutating func seek(to offset: Int) {
        self.offset = offset
    }

    /// One value at `offset`, leaving the reading position alone.
    func value<T: BitwiseCopyable>(_: T.Type, at offset: Int) throws(ClusterError) -> T {
        let bytes = MemoryLayout<T>.size
        guard offset >= 0, offset + bytes <= size else { throw .corruptData("no value at \(offset) of \(size) bytes") }
        return try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer throws(ClusterError) -> T in
            guard sqlite3_blob_read(blob, buffer.baseAddress!, Int32(bytes), Int32(offset)) == SQLITE_OK else {
                throw .corruptData("reading \(bytes) bytes at \(offset) failed")
            }
            return buffer[0]
        }
    }

    mutating func read<T: BitwiseCopyable>(_: T.Type, count: Int) throws(ClusterError) -> [T] {
        let bytes = count * MemoryLayout<T>.stride
        guard count >= 0, offset + bytes <= size else {
            throw .corruptData("\(size) bytes end before \(count) values at \(offset)")
        }
        var failed = false
        let values = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            if bytes > 0 {
                failed = sqlite3_blob_read(blob, buffer.baseAddress!, Int32(bytes), Int32(offset)) != SQLITE_OK
            }
            initialized = count
        }
        guard !failed else { throw .corruptData("reading \(bytes) bytes at \(offset) failed") }
        offset += bytes
        return values
    }
}
