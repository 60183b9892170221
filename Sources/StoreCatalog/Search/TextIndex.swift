#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The searchable text of a list's stores, folded (``SearchFolding``) and
/// laid end to end, so that a substring search over the whole list is one
/// pass of `memmem` over a few megabytes instead of a query per store.
///
/// Each store's fields are joined by U+001F (unit separator) and stores by
/// NUL, neither of which a name, address or category may hold, so a match
/// never spans two fields or two stores. Substring search has no word
/// boundaries to lean on, which rules out SQLite's FTS5 word tokenizers;
/// its trigram tokenizer cannot match the two-syllable queries Korean users
/// type (`강남`) and would cost an import more than its whole budget over
/// `sqlite3 .import` to fill.
package struct TextIndex: Sendable {
    /// The folded texts, `0` after each store's.
    private let bytes: [UInt8]
    /// Where each store's text starts in `bytes`, in list order.
    private let starts: [Int]
    /// How often each byte value occurs in `bytes`: a search scans for the
    /// query's rarest byte, so `cafe` jumps between `f`s, not between `c`s.
    private let byteCounts: [Int]

    /// `texts` holds each store's fields (name, address, category; nil for
    /// an absent one), in list order.
    package init<Texts: Sequence>(_ texts: Texts) where Texts.Element == [String?] {
        var builder = Builder()
        for fields in texts { builder.append(fields) }
        self = builder.build()
    }

    /// Builds an index one store at a time, so a list is never held whole.
    package struct Builder {
        private var bytes: [UInt8] = []
        private var starts: [Int] = []

        package init() {}

        /// Adds the next store's fields (nil for an absent one).
        package mutating func append(_ fields: [String?]) {
            starts.append(bytes.count)
            for (index, field) in fields.enumerated() {
                if index > 0 { bytes.append(0x1F) }
                if let field { bytes += SearchFolding.fold(field).utf8 }
            }
            bytes.append(0)
        }

        package func build() -> TextIndex {
            var byteCounts = [Int](repeating: 0, count: 256)
            for byte in bytes { byteCounts[Int(byte)] += 1 }
            return TextIndex(bytes: bytes, starts: starts, byteCounts: byteCounts)
        }
    }

    private init(bytes: [UInt8], starts: [Int], byteCounts: [Int]) {
        self.bytes = bytes
        self.starts = starts
        self.byteCounts = byteCounts
    }

    /// How many stores the index holds.
    package var count: Int { starts.count }

    /// The bytes the index holds, for its memory cost.
    package var byteCount: Int { bytes.count + starts.count * MemoryLayout<Int>.stride }

    /// The list positions, ascending, of the stores whose text contains
    /// `query` once folded. An empty query matches every store.
    package func positions(containing query: String) -> [Int] {
        let needle = Array(SearchFolding.fold(query).utf8)
        guard !needle.isEmpty else { return Array(0..<count) }
        var found: [Int] = []
        bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { needle in
                guard let base = haystack.baseAddress, let pattern = needle.baseAddress else { return }
                let rarest = needle.indices.min { byteCounts[Int(needle[$0])] < byteCounts[Int(needle[$1])] } ?? 0
                var offset = 0
                while let at = Self.firstOccurrence(
                    of: pattern, count: needle.count, anchor: rarest, in: base, from: offset, to: haystack.count)
                {
                    let store = storeIndex(containing: at)
                    found.append(store)
                    // One hit is enough for a store: go on from the next one.
                    offset = store + 1 < starts.count ? starts[store + 1] : haystack.count
                }
            }
        }
        return found
    }

    /// Where `pattern` next occurs in `base[from..<to]`: `memchr` (vectorized
    /// in the C library) finds each place its byte `anchor` could sit,
    /// `memcmp` checks the whole pattern there. (`memmem` would do both, but
    /// Glibc's Swift module does not export that GNU extension.)
    private static func firstOccurrence(
        of pattern: UnsafePointer<UInt8>, count: Int, anchor: Int, in base: UnsafePointer<UInt8>, from: Int, to end: Int
    ) -> Int? {
        var offset = from + anchor  // where the anchor byte of a match at `from` would be
        let lastAnchor = end - count + anchor  // … and of the last match that fits
        while offset <= lastAnchor {
            guard let hit = memchr(base + offset, Int32(pattern[anchor]), lastAnchor - offset + 1) else { return nil }
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) - anchor
            if memcmp(base + at, pattern, count) == 0 { return at }
            offset = at + anchor + 1
        }
        return nil
    }

    /// The store whose text holds byte `offset`: the last start at or before it.
    private func storeIndex(containing offset: Int) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
