import Foundation

/// Buffered, forward-only byte input from a file or from bytes in memory:
/// the one place an import, a scroll script or a request body is read from.
///
/// The file is read in chunks of `chunkSize` bytes with `read(2)` into one
/// buffer that is reused for the whole file, so memory stays the same whatever
/// the file's size (an import streams, never loads the file whole). Parsers
/// pull bytes one at a time through `peek()`/`advance()`; both inline down to
/// a bounds check and a load.
package struct ByteReader {
    /// 256 KiB: large enough that the `read(2)` calls vanish in the profile,
    /// small enough to stay in L2.
    package static let defaultChunkSize = 256 * 1024

    /// The longest row a file may have by default, in bytes: 1 MiB, a
    /// thousand times a GeoNames row. A row is held whole while it is
    /// parsed, so this bounds an import's memory for any input, a file with
    /// no line break (`/dev/zero`) included.
    package static let defaultMaxRowBytes = 1 << 20

    /// The path, for error messages.
    package let path: String
    /// The longest row, in bytes (see ``startRow(line:)``).
    package var maxRowBytes = ByteReader.defaultMaxRowBytes
    /// Where the row being read started, and its line.
    private var rowStart = 0
    private var rowLine = 1
    // The state the inlined byte loop touches (`@usableFromInline`): the
    // CSV and JSON readers live in other modules, and must not pay a call
    // per byte.
    @usableFromInline let file: OpenFile
    @usableFromInline var position = 0
    @usableFromInline var count = 0
    /// The bytes of the chunks before the current one.
    private var chunkStart = 0
    private var reachedEnd = false

    /// Opens `path` for reading; `chunkSize` is injectable so tests can prove
    /// that chunk boundaries never change a result.
    package init(
        path: String, chunkSize: Int = ByteReader.defaultChunkSize, maxRowBytes: Int = ByteReader.defaultMaxRowBytes
    ) throws(InputError) {
        precondition(chunkSize > 0, "chunk size must be positive")
        precondition(maxRowBytes > 0, "a row may hold at least one byte")
        self.path = path
        self.maxRowBytes = maxRowBytes
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw InputError(path: path, reason: "cannot open the file: \(Self.systemError())")
        }
        file = OpenFile(descriptor: descriptor, chunkSize: chunkSize)
    }

    /// Reads `bytes` from memory (a request body, a WebSocket message), in
    /// the same chunks a file is read in. `name` stands for the path in
    /// errors. No row limit applies unless one is given: the caller has
    /// bounded the bytes already.
    package init(bytes: some Collection<UInt8>, name: String, maxRowBytes: Int = .max / 4) {
        precondition(maxRowBytes > 0, "a row may hold at least one byte")
        path = name
        self.maxRowBytes = maxRowBytes
        file = OpenFile(bytes: Array(bytes), chunkSize: ByteReader.defaultChunkSize)
    }

    /// The number of bytes consumed since the start of the file: where the
    /// next byte is, for error positions.
    package var offset: Int { chunkStart + position }

    /// Marks the start of a row (a CSV record, a JSON Lines line, an array
    /// element) on `line`: from here on, reading more than ``maxRowBytes``
    /// before the next mark fails with an error naming `line` and the
    /// limit. Before the first mark the file's start counts as one.
    package mutating func startRow(line: Int) {
        rowStart = offset
        rowLine = line
    }

    /// The next byte without consuming it, or nil at the end of the file.
    @inlinable @inline(__always)
    package mutating func peek() throws(InputError) -> UInt8? {
        if position < count { return file.buffer[position] }
        return try refill() ? file.buffer[position] : nil
    }

    /// Consumes the byte `peek()` returned.
    @inlinable @inline(__always)
    package mutating func advance() {
        position &+= 1
    }

    /// Consumes and returns the next byte, or nil at the end of the file.
    @inlinable @inline(__always)
    package mutating func next() throws(InputError) -> UInt8? {
        guard let byte = try peek() else { return nil }
        position &+= 1
        return byte
    }

    /// Consumes `byte` if it comes next.
    @inlinable @inline(__always)
    package mutating func consume(_ byte: UInt8) throws(InputError) -> Bool {
        guard try peek() == byte else { return false }
        position &+= 1
        return true
    }

    /// Skips a UTF-8 byte order mark (EF BB BF) at the very start of the file,
    /// as spreadsheet "CSV UTF-8" exports write one. Call before anything else.
    package mutating func skipByteOrderMark() throws(InputError) {
        precondition(position == 0 && count == 0 && !reachedEnd, "only at the start of the file")
        // Gather the first three bytes even when the chunk size is smaller
        // (the buffer always has room for them), so no chunk size can split
        // the mark.
        while count < 3 {
            let read = try readChunk(into: file.buffer + count, capacity: 3 - count)
            if read == 0 { break }
            count += read
        }
        if count >= 3, file.buffer[0] == 0xEF, file.buffer[1] == 0xBB, file.buffer[2] == 0xBF {
            position = 3
        }
    }

    /// Appends to `bytes` every byte up to (not including) the first one that
    /// `isStop` accepts, and leaves that byte unconsumed. The bulk path of
    /// unquoted CSV fields: one tight loop per chunk instead of a call per byte.
    @inlinable @inline(__always)
    package mutating func copy(
        into bytes: inout [UInt8],
        until isStop: (UInt8) -> Bool
    ) throws(InputError) {
        while true {
            let start = position
            var index = position
            let buffer = file.buffer
            while index < count, !isStop(buffer[index]) { index &+= 1 }
            if index > start {
                bytes.append(contentsOf: UnsafeBufferPointer(start: buffer + start, count: index - start))
            }
            position = index
            if index < count { return }
            guard try refill() else { return }
        }
    }

    /// Reads the next chunk once the buffer is used up; false at the end.
    @usableFromInline mutating func refill() throws(InputError) -> Bool {
        guard position >= count else { return true }
        if reachedEnd { return false }
        // Checked once a chunk, not per byte: a row may pass the limit by
        // less than a chunk before it is refused, and memory stays bounded
        // by the limit plus a chunk (times the 6 bytes a control character
        // takes escaped, in a JSON value kept as text).
        // The row's line break (CRLF at most) may be read before the next
        // row is marked: it does not count.
        if chunkStart + count - rowStart > maxRowBytes + 2 {
            throw InputError(
                path: path, line: rowLine,
                reason: "the row on this line is longer than \(maxRowBytes) bytes, the limit of a row: "
                    + "is it a store file, with a line break after each row?")
        }
        let read = try readChunk(into: file.buffer, capacity: file.chunkSize)
        chunkStart += count
        position = 0
        count = read
        reachedEnd = read == 0
        return read > 0
    }

    /// One `read(2)`, retried on EINTR; 0 at the end of the file.
    private func readChunk(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(InputError) -> Int {
        if let memory = file.memory {
            let read = min(capacity, memory.count - file.memoryOffset)
            memory.withUnsafeBufferPointer { bytes in
                buffer.update(from: bytes.baseAddress! + file.memoryOffset, count: read)
            }
            file.memoryOffset += read
            return read
        }
        while true {
            let read = Foundation.read(file.descriptor, buffer, capacity)
            if read >= 0 { return read }
            if errno == EINTR { continue }
            throw InputError(path: path, reason: "cannot read the file: \(Self.systemError())")
        }
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}

extension ByteReader {
    /// Owns the descriptor and the chunk buffer; closes and frees them when
    /// the last reader copy goes away.
    @usableFromInline final class OpenFile {
        /// The file's descriptor; -1 for bytes in memory.
        let descriptor: Int32
        @usableFromInline let buffer: UnsafeMutablePointer<UInt8>
        let chunkSize: Int
        /// The bytes read from memory, and how many are read.
        let memory: [UInt8]?
        var memoryOffset = 0

        init(descriptor: Int32, chunkSize: Int) {
            self.descriptor = descriptor
            self.chunkSize = chunkSize
            memory = nil
            // At least 3 bytes, for the byte order mark.
            buffer = .allocate(capacity: max(chunkSize, 3))
        }

        init(bytes: [UInt8], chunkSize: Int) {
            descriptor = -1
            // A small message needs no 256 KiB buffer.
            self.chunkSize = max(min(chunkSize, bytes.count), 3)
            memory = bytes
            buffer = .allocate(capacity: self.chunkSize)
        }

        deinit {
            buffer.deallocate()
            if descriptor >= 0 { close(descriptor) }
        }
    }
}
