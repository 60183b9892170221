import TextInput

/// The `stores.attributes` column: a JSON object of the store's attribute
/// values (``AttributeValue``), numbers as their literal digits.
///
/// Written by hand because it sits on the import's hot path (one object per
/// row: Foundation's encoder costs more than the row's whole SQLite insert)
/// and on every store read. Keys are sorted, so equal attributes are equal
/// text. Catalogs before schema 8 hold objects of strings only, which read
/// back as strings.
package enum AttributesJSON {
    /// `{"key":value,…}` with sorted keys; nil for no attributes.
    package static func encode(_ attributes: [String: AttributeValue]) -> String? {
        guard !attributes.isEmpty else { return nil }
        var bytes: [UInt8] = []
        append(attributes, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` as compact JSON.
    package static func text(of value: AttributeValue) -> String {
        var bytes: [UInt8] = []
        appendValue(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 of ``encode(_:)`` to `bytes`, nothing for no
    /// attributes: the importer stages every row's JSON in one buffer.
    package static func append(_ attributes: [String: AttributeValue], to bytes: inout [UInt8]) {
        guard !attributes.isEmpty else { return }
        appendObject(attributes, to: &bytes)
    }

    /// `{…}` with sorted keys, `{}` when empty.
    private static func appendObject(_ attributes: [String: AttributeValue], to bytes: inout [UInt8]) {
        bytes.append(0x7B)  // {
        if attributes.count <= 8 {
            // Sorted without an array of pairs to allocate and sort: one
            // pass of the dictionary per key, picking the next key each time
            // (a few comparisons of short strings for the usual one to three
            // attributes of a row).
            var previous: String?
            for position in 0..<attributes.count {
                var next = attributes.startIndex
                var nextKey: String?
                for index in attributes.indices {
                    let key = attributes[index].key
                    if let previous, key <= previous { continue }
                    if let smallest = nextKey, key >= smallest { continue }
                    next = index
                    nextKey = key
                }
                appendMember(attributes[next], first: position == 0, to: &bytes)
                previous = nextKey
            }
        } else {
            for (position, pair) in attributes.sorted(by: { $0.key < $1.key }).enumerated() {
                appendMember(pair, first: position == 0, to: &bytes)
            }
        }
        bytes.append(0x7D)  // }
    }

    /// `"key":value`, after a comma unless `first`.
    private static func appendMember(_ pair: (key: String, value: AttributeValue), first: Bool, to bytes: inout [UInt8]) {
        if !first { bytes.append(0x2C) }  // ,
        appendQuoted(pair.key, to: &bytes)
        bytes.append(0x3A)  // :
        appendValue(pair.value, to: &bytes)
    }

    /// Appends `value` as compact JSON: numbers as their literal.
    package static func appendValue(_ value: AttributeValue, to bytes: inout [UInt8]) {
        switch value {
        case .string(let string): appendQuoted(string, to: &bytes)
        case .number(let number): bytes.append(contentsOf: number.text.utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        case .array(let values):
            bytes.append(0x5B)  // [
            for (index, element) in values.enumerated() {
                if index > 0 { bytes.append(0x2C) }
                appendValue(element, to: &bytes)
            }
            bytes.append(0x5D)  // ]
        case .object(let members): appendObject(members, to: &bytes)
        }
    }

    /// ``appendValue(_:to:)-(_,[UInt8])`` to a String.
    package static func appendValue(_ value: AttributeValue, to text: inout String) {
        if case .string(let string) = value { return appendQuoted(string, to: &text) }
        if case .number(let number) = value {
            text += number.text
            return
        }
        var bytes: [UInt8] = []
        appendValue(value, to: &bytes)
        text += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `string` as a JSON string literal (RFC 8259 §7): quotes,
    /// backslashes and control characters escaped, the rest as is.
    package static func appendQuoted(_ string: String, to text: inout String) {
        // Most values need no escape: appended as they are, with no buffer
        // to allocate (a JSON answer quotes several strings per store).
        if !string.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) {
            text += "\""
            text += string
            text += "\""
            return
        }
        var bytes: [UInt8] = []
        appendQuoted(string, to: &bytes)
        text += String(decoding: bytes, as: UTF8.self)
    }

    /// ``appendQuoted(_:to:)-(_,String)`` into UTF-8 bytes.
    package static func appendQuoted(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(0x22)
        // Most values need no escape: check and copy them as one buffer.
        let copied = string.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied != true {
            for byte in string.utf8 {
                switch byte {
                case 0x22: bytes += [0x5C, 0x22]  // \"
                case 0x5C: bytes += [0x5C, 0x5C]  // \\
                case 0x0A: bytes += [0x5C, 0x6E]  // \n
                case 0x0D: bytes += [0x5C, 0x72]  // \r
                case 0x09: bytes += [0x5C, 0x74]  // \t
                case ..<0x20:  // \u00XX
                    let hex = Array("0123456789abcdef".utf8)
                    bytes += [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(0x22)
    }

    /// Reads back what ``encode(_:)`` wrote (any JSON object).
    package static func decode(_ text: String) throws(CatalogError) -> [String: AttributeValue] {
        var text = text
        // `withUTF8` rethrows untyped errors: carry the typed one out in a Result.
        return try text.withUTF8 { bytes in Result { () throws(CatalogError) in try decode(utf8: bytes) } }.get()
    }

    /// ``decode(_:)`` straight from UTF-8 bytes, e.g. a column SQLite holds:
    /// reading a store then makes no String of the whole object.
    package static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(CatalogError) -> [String: AttributeValue] {
        var parser = Parser(bytes: bytes)
        guard parser.skipSpaces(), parser.take(0x7B), let object = parser.members(depth: 0), parser.atEnd() else {
            let text = String(decoding: bytes, as: UTF8.self)
            throw .database("stored attributes are not a JSON object: \(text.prefix(80))")
        }
        return object
    }

    /// One JSON value from compact or spaced UTF-8 text (an object or array
    /// the import's tokenizer captured); nil if it is not exactly one value.
    package static func value(utf8 bytes: UnsafeBufferPointer<UInt8>) -> AttributeValue? {
        var parser = Parser(bytes: bytes)
        guard let value = parser.value(depth: 0), parser.atEnd() else { return nil }
        return value
    }

    /// A strict parser of JSON text the catalog wrote or the import's
    /// tokenizer already checked: not a file reader (that is
    /// `JSONTokenizer`), so it reports no positions, only nil.
    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        /// Deeper than the tokenizer lets a file nest, so anything it
        /// captured reads back; bounds the recursion on a corrupt column.
        static let maximumDepth = 520

        /// The members after an object's `{`, through its `}`.
        mutating func members(depth: Int) -> [String: AttributeValue]? {
            guard depth < Self.maximumDepth else { return nil }
            var result: [String: AttributeValue] = [:]
            skipSpaces()
            if take(0x7D) { return result }  // }, empty
            repeat {
                skipSpaces()
                guard let key = string() else { return nil }
                skipSpaces()
                guard take(0x3A) else { return nil }  // :
                guard let value = value(depth: depth + 1) else { return nil }
                result[key] = value
                skipSpaces()
            } while take(0x2C)  // ,
            guard take(0x7D) else { return nil }  // }
            return result
        }

        /// The next value, spaces around it skipped.
        mutating func value(depth: Int) -> AttributeValue? {
            guard depth < Self.maximumDepth else { return nil }
            skipSpaces()
            guard index < bytes.count else { return nil }
            defer { skipSpaces() }
            switch bytes[index] {
            case 0x22: return string().map(AttributeValue.string)
            case 0x7B:
                index += 1
                return members(depth: depth).map(AttributeValue.object)
            case 0x5B:
                index += 1
                var elements: [AttributeValue] = []
                skipSpaces()
                if take(0x5D) { return .array(elements) }
                repeat {
                    guard let element = value(depth: depth + 1) else { return nil }
                    elements.append(element)
                } while take(0x2C)
                return take(0x5D) ? .array(elements) : nil
            case 0x74: return word("true") ? .bool(true) : nil
            case 0x66: return word("false") ? .bool(false) : nil
            case 0x6E: return word("null") ? .null : nil
            default:
                let start = index
                while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
                let literal = UnsafeBufferPointer(rebasing: bytes[start..<index])
                guard AttributeValue.Number.isLiteral(literal) else { return nil }
                return .number(AttributeValue.Number(checked: String(decoding: literal, as: UTF8.self)))
            }
        }

        private static func isNumberByte(_ byte: UInt8) -> Bool {
            byte &- 0x30 < 10 || byte == 0x2D || byte == 0x2B || byte == 0x2E || byte == 0x65 || byte == 0x45
        }

        private mutating func word(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count,
                UnsafeBufferPointer(rebasing: bytes[index..<index + count]).elementsEqual(
                    UnsafeBufferPointer(start: word.utf8Start, count: count))
            else { return false }
            index += count
            return true
        }

        private mutating func string() -> String? {
            guard take(0x22) else { return nil }
            var start = index
            var scalars = String.UnicodeScalarView()
            var escaped = false
            while index < bytes.count {
                switch bytes[index] {
                case 0x22:  // closing quote
                    let tail = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    guard escaped else { return tail }
                    scalars.append(contentsOf: tail.unicodeScalars)
                    return String(scalars)
                case 0x5C:  // backslash
                    escaped = true
                    scalars.append(
                        contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                            .unicodeScalars)
                    index += 1
                    guard let scalar = escape() else { return nil }
                    scalars.append(scalar)
                    start = index
                case let byte where byte < 0x20:
                    return nil
                default:
                    index += 1
                }
            }
            return nil
        }

        /// The character after a backslash (index is just past it).
        private mutating func escape() -> Unicode.Scalar? {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x22: return "\""
            case 0x5C: return "\\"
            case 0x2F: return "/"
            case 0x62: return "\u{8}"
            case 0x66: return "\u{C}"
            case 0x6E: return "\n"
            case 0x72: return "\r"
            case 0x74: return "\t"
            case 0x75:  // uXXXX, maybe a surrogate pair
                guard let high = hex4() else { return nil }
                if (0xD800..<0xDC00).contains(high) {
                    guard take(0x5C), take(0x75), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                }
                return Unicode.Scalar(high)
            default: return nil
            }
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count,
                let value = UInt32(
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + 4]), as: UTF8.self), radix: 16)
            else { return nil }
            index += 4
            return value
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// Skips whitespace; true, to chain in a condition.
        @discardableResult
        mutating func skipSpaces() -> Bool {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return true
                }
            }
            return true
        }

        mutating func atEnd() -> Bool {
            skipSpaces()
            return index == bytes.count
        }
    }
}
