/// A Mapbox Vector Tile (specification 2.1) of point features: the format
/// MapLibre GL, Mapbox GL, OpenLayers and deck.gl draw natively.
///
/// ```swift
/// var layer = VectorTile.Layer(name: "stores")
/// layer.features.append(.init(id: 7, x: 2048, y: 1024, properties: [("name", .string("Haneul Coffee"))]))
/// let bytes = VectorTile(layers: [layer]).encoded()   // application/vnd.mapbox-vector-tile
/// ```
///
/// Written out rather than through swift-protobuf's generated messages: a
/// marker tile is a few keys and values and, per feature, a handful of
/// varints; the encoder writes them into one byte array with keys and
/// values deduplicated per layer, as the specification asks (§4.4), with
/// no message object per feature. (Not yet measured against a
/// swift-protobuf encoder.)
public struct VectorTile: Sendable, Hashable {
    public var layers: [Layer]

    public init(layers: [Layer]) {
        self.layers = layers
    }

    /// One layer: features in the layer's `extent` units, (0, 0) the
    /// tile's top-left corner.
    public struct Layer: Sendable, Hashable {
        public var name: String
        public var extent: Int
        public var features: [Feature]

        public init(name: String, extent: Int = 4096, features: [Feature] = []) {
            self.name = name
            self.extent = extent
            self.features = features
        }
    }

    /// A point feature with an id and typed attributes.
    public struct Feature: Sendable, Hashable {
        public var id: UInt64?
        public var x: Int
        public var y: Int
        public var properties: [Property]

        public init(id: UInt64?, x: Int, y: Int, properties: [Property] = []) {
            self.id = id
            self.x = x
            self.y = y
            self.properties = properties
        }
    }

    public struct Property: Sendable, Hashable {
        public var key: String
        public var value: Value

        public init(_ key: String, _ value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// An attribute's value, with its type kept (§4.1's `Value` message).
    public enum Value: Sendable, Hashable {
        case string(String)
        case int(Int64)
        case double(Double)
        case bool(Bool)
    }

    /// The tile's protobuf bytes.
    public func encoded() -> [UInt8] {
        var writer = ProtobufWriter()
        for layer in layers {
            // Tile.layers = 3
            writer.message(field: 3, Self.encoded(layer))
        }
        return writer.bytes
    }

    static func encoded(_ layer: Layer) -> [UInt8] {
        var keys: [String] = [], keyIndex: [String: Int] = [:]
        var values: [Value] = [], valueIndex: [Value: Int] = [:]
        var writer = ProtobufWriter()
        // Layer: version = 15, name = 1, features = 2, keys = 3, values = 4, extent = 5.
        writer.varint(field: 15, 2)
        writer.string(field: 1, layer.name)
        for feature in layer.features {
            var tags: [UInt64] = []
            tags.reserveCapacity(feature.properties.count * 2)
            for property in feature.properties {
                let key =
                    keyIndex[property.key]
                    ?? {
                        keys.append(property.key)
                        keyIndex[property.key] = keys.count - 1
                        return keys.count - 1
                    }()
                let value =
                    valueIndex[property.value]
                    ?? {
                        values.append(property.value)
                        valueIndex[property.value] = values.count - 1
                        return values.count - 1
                    }()
                tags += [UInt64(key), UInt64(value)]
            }
            var message = ProtobufWriter()
            // Feature: id = 1, tags = 2 (packed), type = 3 (POINT = 1), geometry = 4 (packed).
            if let id = feature.id { message.varint(field: 1, id) }
            if !tags.isEmpty { message.packed(field: 2, tags) }
            message.varint(field: 3, 1)
            // §4.3: MoveTo (1) once, then the point's zigzag-encoded x, y.
            message.packed(field: 4, [1 | 1 << 3, zigzag(Int64(feature.x)), zigzag(Int64(feature.y))])
            writer.message(field: 2, message.bytes)
        }
        for key in keys { writer.string(field: 3, key) }
        for value in values {
            var message = ProtobufWriter()
            switch value {
            case .string(let text): message.string(field: 1, text)
            case .double(let number): message.double(field: 3, number)
            case .int(let number) where number >= 0: message.varint(field: 5, UInt64(number))
            case .int(let number): message.varint(field: 6, zigzag(number))
            case .bool(let flag): message.varint(field: 7, flag ? 1 : 0)
            }
            writer.message(field: 4, message.bytes)
        }
        writer.varint(field: 5, UInt64(layer.extent))
        return writer.bytes
    }
}

/// ZigZag encoding (protobuf's sint): 0, −1, 1, −2 … as 0, 1, 2, 3 …
func zigzag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
}

/// Protocol buffers' wire format (varint, 64-bit, length-delimited), as
/// much of it as a vector tile uses.
struct ProtobufWriter {
    var bytes: [UInt8] = []

    mutating func rawVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func key(_ field: Int, wireType: UInt64) {
        rawVarint(UInt64(field) << 3 | wireType)
    }

    mutating func varint(field: Int, _ value: UInt64) {
        key(field, wireType: 0)
        rawVarint(value)
    }

    mutating func double(field: Int, _ value: Double) {
        key(field, wireType: 1)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func message(field: Int, _ payload: [UInt8]) {
        key(field, wireType: 2)
        rawVarint(UInt64(payload.count))
        bytes += payload
    }

    mutating func string(field: Int, _ text: String) {
        message(field: field, Array(text.utf8))
    }

    mutating func packed(field: Int, _ values: [UInt64]) {
        var payload = ProtobufWriter()
        for value in values { payload.rawVarint(value) }
        message(field: field, payload.bytes)
    }
}
