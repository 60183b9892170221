/// The raw bytes of one input row, field after field, before validation.
///
/// One instance is reused for every row of a file (`removeAll` keeps the
/// capacity), so parsing a row allocates nothing: fields are ranges of one
/// byte array, and Strings are built later only for the fields kept.
package struct RawFields {
    /// Every field's bytes, back to back (CSV quotes undone, JSON strings
    /// unescaped).
    @usableFromInline package private(set) var bytes: [UInt8] = []
    /// `ends[i]` is where field `i` stops in `bytes`; it starts where field
    /// `i - 1` stops.
    @usableFromInline package private(set) var ends: [Int] = []
    /// The 1-based line where the row starts.
    package var line = 0

    package init() {}

    /// How many fields the row has.
    package var count: Int { ends.count }

    /// The bytes of field `index`, untrimmed.
    package func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// The bytes of field `index` as an array (tests and keys; the hot path
    /// works on `bytes` directly).
    package func field(_ index: Int) -> ArraySlice<UInt8> {
        bytes[range(of: index)]
    }

    /// Empties the row, keeping the storage for the next one.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// Appends one byte to the field being built.
    @inlinable @inline(__always)
    package mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends bytes to the field being built.
    @inlinable @inline(__always)
    package mutating func append(contentsOf other: some Collection<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// The last field, quoted for a message, if an earlier field has the same
    /// bytes; nil when it is new. O(fields): for an object's few names.
    package func duplicateOfLastField() -> String? {
        guard count > 1 else { return nil }
        let last = field(count - 1)
        for index in 0..<(count - 1) where field(index) == last {
            return "'\(String(decoding: last, as: UTF8.self))'"
        }
        return nil
    }

    /// Ends the field being built (possibly empty) and starts the next.
    @inlinable @inline(__always)
    package mutating func endField() {
        ends.append(bytes.count)
    }

    /// Gives the row-building closures of the readers direct access to the
    /// byte array, e.g. `ByteReader.copy(into:until:)`.
    @inlinable @inline(__always)
    package mutating func withBytes<R, E: Error>(_ body: (inout [UInt8]) throws(E) -> R) throws(E) -> R {
        try body(&bytes)
    }
}

extension RawFields: Equatable {
    /// Same fields with the same bytes (the line is not compared): lets the
    /// JSON readers reuse a column layout while the keys stay the same.
    package static func == (lhs: RawFields, rhs: RawFields) -> Bool {
        lhs.ends == rhs.ends && lhs.bytes == rhs.bytes
    }
}

extension RawFields {
    /// `range` of `bytes` without surrounding whitespace (the catalog trims every
    /// value): ASCII space, tab, CR, LF, VT, FF, and the no-break (U+00A0),
    /// ideographic (U+3000) and zero-width no-break (U+FEFF) spaces that
    /// spreadsheets and Korean public data leave around values.
    @inline(__always)
    package static func trim(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper {
            let width = whitespaceWidth(startingAt: lower, upTo: upper, in: bytes)
            if width == 0 { break }
            lower += width
        }
        while lower < upper {
            let width = whitespaceWidth(endingAt: upper, from: lower, in: bytes)
            if width == 0 { break }
            upper -= width
        }
        return lower..<upper
    }

    @inline(__always)
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// The byte length of the whitespace that starts at `start`, or 0.
    @inline(__always)
    private static func whitespaceWidth(startingAt start: Int, upTo end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let byte = bytes[start]
        if isASCIIWhitespace(byte) { return 1 }
        if byte < 0x80 { return 0 }
        if byte == 0xC2, start + 1 < end, bytes[start + 1] == 0xA0 { return 2 }
        if start + 2 < end {
            let second = bytes[start + 1], third = bytes[start + 2]
            if byte == 0xE3, second == 0x80, third == 0x80 { return 3 }
            if byte == 0xEF, second == 0xBB, third == 0xBF { return 3 }
        }
        return 0
    }

    /// The byte length of the whitespace that ends just before `end`, or 0.
    @inline(__always)
    private static func whitespaceWidth(endingAt end: Int, from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let byte = bytes[end - 1]
        if isASCIIWhitespace(byte) { return 1 }
        if byte < 0x80 { return 0 }
        if byte == 0xA0, end - 2 >= start, bytes[end - 2] == 0xC2 { return 2 }
        if end - 3 >= start {
            let first = bytes[end - 3], second = bytes[end - 2]
            if first == 0xE3, second == 0x80, byte == 0x80 { return 3 }
            if first == 0xEF, second == 0xBB, byte == 0xBF { return 3 }
        }
        return 0
    }
}
