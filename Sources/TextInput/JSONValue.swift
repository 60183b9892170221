/// A small JSON document read whole: a scroll script's event, a session
/// message, a request body. Read by ``JSONTokenizer`` (so its errors carry a
/// line and a column) and decoded by ``JSONValueDecoder``; what may be large
/// (a store file, a script's events) is streamed instead, one such value at
/// a time.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number as written (`-1.5e3`): the decoder reads it into the type
    /// asked for, so no precision is lost on the way.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in the order written.
    case object([Member])

    /// One member of an object.
    package struct Member: Sendable, Equatable {
        package var key: String
        package var value: JSONValue

        package init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of member `key` of an object (the last one, where the
    /// syntax allows a name twice); nil for a missing member or a value
    /// that is not an object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The members' names of an object, in order; empty for anything else.
    package var keys: [String] {
        guard case .object(let members) = self else { return [] }
        return members.map(\.key)
    }
}

extension JSONValue {
    /// Reads `bytes` as one JSON document: a value and nothing after it but
    /// whitespace. `name` stands for a file name in errors.
    package static func parse(
        _ bytes: some Collection<UInt8>, name: String = "the document", refusingDuplicateMembers: Bool = true
    ) throws(JSONTokenizer.Failure) -> JSONValue {
        var tokenizer = JSONTokenizer(reader: ByteReader(bytes: bytes, name: name))
        tokenizer.refusesDuplicateMembers = refusingDuplicateMembers
        let value = try read(from: &tokenizer)
        if let byte = try tokenizer.skipWhitespace() {
            throw tokenizer.unexpected(byte, expected: "the end of the document after its value")
        }
        return value
    }

    /// Reads the next value from `tokenizer`, whole.
    package static func read(from tokenizer: inout JSONTokenizer) throws(JSONTokenizer.Failure) -> JSONValue {
        var scratch = RawFields()
        return try read(from: &tokenizer, depth: 0, scratch: &scratch)
    }

    private static func read(
        from tokenizer: inout JSONTokenizer, depth: Int, scratch: inout RawFields
    ) throws(JSONTokenizer.Failure) -> JSONValue {
        guard depth < JSONTokenizer.maximumDepth else {
            throw .syntax(
                line: tokenizer.line, column: tokenizer.column,
                reason: "nesting deeper than \(JSONTokenizer.maximumDepth) levels")
        }
        switch try tokenizer.skipWhitespace() {
        case UInt8(ascii: "{"):
            _ = try tokenizer.consume(UInt8(ascii: "{"))
            var members: [Member] = []
            var first = true
            while true {
                let line = tokenizer.line, column = tokenizer.column
                scratch.removeAll()
                guard try tokenizer.nextMember(isFirst: &first, keys: &scratch) else { break }
                // nextMember has checked the name's UTF-8.
                let key = String(decoding: scratch.field(0), as: UTF8.self)
                if tokenizer.refusesDuplicateMembers, members.contains(where: { $0.key == key }) {
                    throw .duplicateMember(line: line, column: column, name: key)
                }
                members.append(Member(key, try read(from: &tokenizer, depth: depth + 1, scratch: &scratch)))
            }
            return .object(members)
        case UInt8(ascii: "["):
            _ = try tokenizer.consume(UInt8(ascii: "["))
            var elements: [JSONValue] = []
            var first = true
            while try tokenizer.nextElement(isFirst: &first) {
                elements.append(try read(from: &tokenizer, depth: depth + 1, scratch: &scratch))
            }
            return .array(elements)
        default:
            let line = tokenizer.line, column = tokenizer.column
            scratch.removeAll()
            let kind = try tokenizer.readValue(into: &scratch)
            scratch.endField()
            let bytes = scratch.field(0)
            switch kind {
            case .null: return .null
            case .boolean: return .bool(bytes.first == UInt8(ascii: "t"))
            case .number: return .number(String(decoding: bytes, as: UTF8.self))
            default:
                // RFC 8259 §8.1: JSON text is UTF-8; a string that is not is
                // refused, not turned into U+FFFD.
                let text = bytes.withUnsafeBufferPointer { UTF8Text.string($0) }
                guard let text else {
                    throw .syntax(line: line, column: column, reason: "the string at column \(column) is not valid UTF-8")
                }
                return .string(text)
            }
        }
    }
}
