/// The input line of each store an import created, by creation order, in
/// memory that grows with the file's irregularities rather than its rows.
///
/// An import names the first line of an id repeated in the file, so it must
/// find the line of any store it created. Stores are created in file order,
/// one line each, so lines mostly follow on (line n + 1 after line n): only
/// where that breaks — a rejected or blank line, a quoted line break — is a
/// run of consecutive lines recorded. A flat array took 4 bytes per store,
/// 38 MiB at 10⁷; a clean file takes one run.
struct LineRuns {
    /// Where each run starts: the index of its first store and that store's line.
    private var starts: [(index: Int, line: Int)] = []
    private(set) var count = 0

    /// How many runs are kept: the memory used, in 16-byte pairs.
    var runCount: Int { starts.count }

    /// Records the line of the next store.
    mutating func append(_ line: Int) {
        if let last = starts.last, line == last.line + (count - last.index) {
            count += 1
            return
        }
        starts.append((count, line))
        count += 1
    }

    /// The line of store `index` (0-based, `< count`).
    func line(of index: Int) -> Int {
        precondition((0..<count).contains(index), "LineRuns: no store \(index) among \(count)")
        // The last run starting at or before `index`.
        var low = 0, high = starts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle].index <= index { low = middle } else { high = middle }
        }
        return starts[low].line + (index - starts[low].index)
    }
}
