/// A `Decoder` over a ``JSONValue``: the `Decodable` types of the package
/// (a scroll script's layout, a message's fields) read what our own JSON
/// reader parsed, with no Foundation round trip.
///
/// Its errors are the `DecodingError`s `JSONDecoder` throws, with the same
/// coding paths, so a reader's messages name the same places: a number
/// where a string belongs is `typeMismatch`, `null` where a value belongs
/// `valueNotFound`, a missing member `keyNotFound`, a number too large for
/// its type `dataCorrupted`.
package struct JSONValueDecoder: Decoder {
    package let value: JSONValue
    package let codingPath: [any CodingKey]
    package let userInfo: [CodingUserInfoKey: Any]

    package init(_ value: JSONValue, codingPath: [any CodingKey] = [], userInfo: [CodingUserInfoKey: Any] = [:]) {
        self.value = value
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw DecodingError.mismatch([String: Any].self, value, codingPath)
        }
        return KeyedDecodingContainer(KeyedContainer(members: members, decoder: self))
    }

    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw DecodingError.mismatch([Any].self, value, codingPath)
        }
        return UnkeyedContainer(elements: elements, decoder: self)
    }

    package func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self)
    }

    /// A decoder for `value` one level down, at `key`.
    fileprivate func child(_ value: JSONValue, at key: any CodingKey) -> JSONValueDecoder {
        JSONValueDecoder(value, codingPath: codingPath + [key], userInfo: userInfo)
    }

    /// `value` as a `T`: the scalar types read here, any other through its
    /// own `init(from:)`.
    fileprivate func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is Bool.Type:
            guard case .bool(let bool) = value else { throw DecodingError.mismatch(T.self, value, codingPath) }
            return bool as! T
        case is String.Type:
            guard case .string(let string) = value else { throw DecodingError.mismatch(T.self, value, codingPath) }
            return string as! T
        case is Double.Type: return try number { Double($0) } as! T
        case is Float.Type: return try number { Float($0) } as! T
        case is Int.Type: return try integer(Int.self) as! T
        case is Int8.Type: return try integer(Int8.self) as! T
        case is Int16.Type: return try integer(Int16.self) as! T
        case is Int32.Type: return try integer(Int32.self) as! T
        case is Int64.Type: return try integer(Int64.self) as! T
        case is UInt.Type: return try integer(UInt.self) as! T
        case is UInt8.Type: return try integer(UInt8.self) as! T
        case is UInt16.Type: return try integer(UInt16.self) as! T
        case is UInt32.Type: return try integer(UInt32.self) as! T
        case is UInt64.Type: return try integer(UInt64.self) as! T
        default: return try T(from: self)
        }
    }

    /// A number read by `parse`: finite, or refused as `JSONDecoder` refuses
    /// `1e400` for a Double.
    private func number<F: BinaryFloatingPoint>(_ parse: (String) -> F?) throws -> F {
        guard case .number(let text) = value else { throw DecodingError.mismatch(F.self, value, codingPath) }
        guard let number = parse(text), number.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "number \(text) is too large for a \(F.self)"))
        }
        return number
    }

    /// A whole number: written as one (`2`) or as a whole value (`2.0`,
    /// `2e3`), and within `I`'s range.
    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let text) = value else { throw DecodingError.mismatch(I.self, value, codingPath) }
        if let exact = I(text) { return exact }
        guard let number = Double(text), number.isFinite, let whole = I(exactly: number) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "number \(text) is not a whole number that fits in an \(I.self)"))
        }
        return whole
    }
}

extension DecodingError {
    /// What `JSONDecoder` throws for `value` where a `type` belongs:
    /// `valueNotFound` for null, `typeMismatch` otherwise.
    fileprivate static func mismatch(_ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "expected \(type), found null"))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(type), found \(value.kind)"))
    }
}

extension JSONValue {
    /// The value's kind, for messages.
    fileprivate var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A key of an array element or a `superDecoder`, as `JSONDecoder` names
/// them: `Index 2`, `super`.
private struct PathKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [JSONValue.Member]
    let decoder: JSONValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool {
        members.contains { $0.key == key.stringValue }
    }

    /// The decoder of member `key`; the member must be there.
    private func child(_ key: Key) throws -> JSONValueDecoder {
        guard let member = members.last(where: { $0.key == key.stringValue }) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no value associated with key \(key.stringValue)"))
        }
        return decoder.child(member.value, at: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).value == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(members.last { $0.key == "super" }?.value ?? .null, at: PathKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        // As JSONDecoder: a missing member decodes as null.
        decoder.child(members.last { $0.key == key.stringValue }?.value ?? .null, at: key)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let decoder: JSONValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }
    private(set) var currentIndex = 0

    init(elements: [JSONValue], decoder: JSONValueDecoder) {
        self.elements = elements
        self.decoder = decoder
    }

    /// The decoder of the next element, which it consumes.
    private mutating func next(_ type: Any.Type) throws -> JSONValueDecoder {
        let key = PathKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: codingPath + [key], debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return decoder.child(elements[currentIndex], at: key)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: Any].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(Any.self)
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: JSONValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}
