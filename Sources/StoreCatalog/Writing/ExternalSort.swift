import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fixed-size values sorted in bounded memory: an external merge sort.
///
/// Values are held in memory up to `runLength`; past that each full buffer
/// is sorted and written as a run to a temporary file, and
/// ``forEachSorted(_:)`` merges the runs back, reading each through a small
/// buffer. Memory is one run plus the merge buffers (together about two
/// runs), whatever the count; when everything fits in one run no file is
/// made.
///
/// Why not SQLite's sorter (an unsorted temporary table, then `INSERT …
/// SELECT … ORDER BY`), which this replaced: it writes every value twice
/// as a B-tree row (the table, then the sorter's records), where a run is
/// the values' own bytes written once. Importing the 10⁷-store list spent
/// 8.3 s of 39 s there; sorting the same values in memory took none of
/// that but 556 MiB (BENCHMARKS.md, scale).
struct ExternalSort<Element: Comparable & BitwiseCopyable> {
    /// Values per run: the most held in memory while adding.
    let runLength: Int
    /// Where the runs' file is made (and at once unlinked).
    let directory: String
    private var pending: [Element] = []
    private var spill: SpillFile?
    /// Where each written run lies in the file, in elements.
    private var runs: [Range<Int>] = []
    /// Values added so far.
    private(set) var count = 0

    init(runLength: Int, directory: String = SpillFile.defaultDirectory) {
        self.runLength = max(1, runLength)
        self.directory = directory
    }

    mutating func append(_ element: Element) throws {
        count += 1
        pending.append(element)
        if pending.count >= runLength { try writeRun() }
    }

    /// Calls `body` with every value added, in ascending order.
    mutating func forEachSorted(_ body: (Element) throws -> Void) throws {
        defer {
            pending = []
            runs = []
            spill = nil
        }
        guard let spill else {
            pending.sort()
            for element in pending { try body(element) }
            return
        }
        if !pending.isEmpty { try writeRun() }
        pending = []  // its capacity: the merge buffers take the memory now
        // Each run read through its share of one run's memory (at least a
        // page's worth of values, so that reads stay large).
        let minimumBuffer = max(1, 4096 / MemoryLayout<Element>.stride)
        let bufferLength = max(minimumBuffer, runLength / runs.count)
        var readers = runs.map { RunReader(run: $0, bufferLength: bufferLength) }
        // A binary min-heap of run indexes by their current value.
        var heap: [Int] = []
        heap.reserveCapacity(readers.count)
        for index in readers.indices {
            guard try readers[index].advance(in: spill) else { continue }
            heap.append(index)
            siftUp(&heap, from: heap.count - 1, readers)
        }
        while let top = heap.first {
            try body(readers[top].current)
            if try readers[top].advance(in: spill) {
                siftDown(&heap, from: 0, readers)
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
                if !heap.isEmpty { siftDown(&heap, from: 0, readers) }
            }
        }
    }

    private mutating func writeRun() throws {
        pending.sort()
        if spill == nil { spill = try SpillFile(in: directory) }
        let start = runs.last?.upperBound ?? 0
        try pending.withUnsafeBytes { bytes in
            try spill!.write(bytes, at: start * MemoryLayout<Element>.stride)
        }
        runs.append(start..<start + pending.count)
        pending.removeAll(keepingCapacity: true)
    }

    private func siftUp(_ heap: inout [Int], from index: Int, _ readers: [RunReader]) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard readers[heap[child]].current < readers[heap[parent]].current else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func siftDown(_ heap: inout [Int], from index: Int, _ readers: [RunReader]) {
        var parent = index
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, readers[heap[left]].current < readers[heap[smallest]].current { smallest = left }
            if right < heap.count, readers[heap[right]].current < readers[heap[smallest]].current { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    /// One run being merged: its unread part and a buffer of its values.
    private struct RunReader {
        var unread: Range<Int>
        var buffer: [Element] = []
        var position = 0
        let bufferLength: Int

        init(run: Range<Int>, bufferLength: Int) {
            unread = run
            self.bufferLength = bufferLength
        }

        var current: Element { buffer[position - 1] }

        /// Moves to the run's next value; false at its end.
        mutating func advance(in file: SpillFile) throws(CatalogError) -> Bool {
            if position < buffer.count {
                position += 1
                return true
            }
            guard !unread.isEmpty else { return false }
            let length = min(bufferLength, unread.count)
            let offset = unread.lowerBound * MemoryLayout<Element>.stride
            buffer = try [Element](unsafeUninitializedCapacity: length) { elements, initialized throws(CatalogError) in
                try file.read(into: UnsafeMutableRawBufferPointer(elements), at: offset)
                initialized = length
            }
            unread = unread.dropFirst(length)
            position = 1
            return true
        }
    }
}

/// A temporary file of raw bytes, gone from the directory as soon as it is
/// made (unlinked at once: nothing is left behind, even by a killed
/// process) and closed with its last copy.
final class SpillFile {
    private let descriptor: Int32

    /// `$TMPDIR`, else `/tmp`, where SQLite also spills.
    static var defaultDirectory: String {
        ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    init(in directory: String) throws(CatalogError) {
        var template = Array("\(directory)/carousel-sort-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Self.failure("create a temporary file in \(directory)") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(CatalogError) {
        var done = 0
        while done < bytes.count {
            let written = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw Self.failure("write the import's temporary sort file") }
            done += written
        }
    }

    func read(into bytes: UnsafeMutableRawBufferPointer, at offset: Int) throws(CatalogError) {
        var done = 0
        while done < bytes.count {
            let read = pread(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if read < 0, errno == EINTR { continue }
            guard read != 0 else { throw .database("the import's temporary sort file ended early") }
            guard read > 0 else { throw Self.failure("read the import's temporary sort file back") }
            done += read
        }
    }

    private static func failure(_ action: String) -> CatalogError {
        .database("could not \(action): \(String(cString: strerror(errno)))")
    }
}
