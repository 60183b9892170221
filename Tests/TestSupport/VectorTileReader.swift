/// A reader of one layer of point features, from the wire format
/// (protobuf encoding, vector_tile.proto 2.1), for the tests: written from
/// the specification, apart from the encoder it checks.
public struct VectorTileReader {
    public struct Feature: Sendable {
        public var id: UInt64 = 0
        public var tags: [UInt64] = []
        public var x = 0
        public var y = 0
    }
    public enum Value: Hashable, Sendable {
        case string(String)
        case int(Int64)
        case double(Double)
        case bool(Bool)
    }
    public var version: UInt64 = 0
    public var name = ""
    public var extent: UInt64 = 0
    public var keys: [String] = []
    public var values: [Value] = []
    public var features: [Feature] = []

    /// The properties of feature `index`, by key.
    public func properties(of index: Int) -> [String: Value] {
        let tags = features[index].tags
        return Dictionary(uniqueKeysWithValues: stride(from: 0, to: tags.count - 1, by: 2).map { (keys[Int(tags[$0])], values[Int(tags[$0 + 1])]) })
    }

    /// The names of a tile's layers, in order.
    public static func layerNames(_ bytes: [UInt8]) -> [String] {
        var tile = Fields(bytes[...]), names: [String] = []
        while let (field, _, layerBytes, _) = tile.next() {
            guard field == 3 else { continue }
            names.append(VectorTileReader(layer: layerBytes).name)
        }
        return names
    }

    /// The layer named `layer` of a tile (empty when it has none), or its
    /// first layer when `layer` is nil.
    public init(_ bytes: [UInt8], layer wanted: String? = nil) {
        var tile = Fields(bytes[...])
        while let (field, _, layerBytes, _) = tile.next() {
            guard field == 3 else { continue }
            let layer = VectorTileReader(layer: layerBytes)
            if layer.name == (wanted ?? layer.name) {
                self = layer
                return
            }
        }
    }

    /// One layer's message.
    init(layer layerBytes: ArraySlice<UInt8>) {
        var layer = Fields(layerBytes)
        while let (field, value, payload, _) = layer.next() {
            switch field {
            case 15: version = value
            case 1: name = String(decoding: payload, as: UTF8.self)
            case 5: extent = value
            case 3: keys.append(String(decoding: payload, as: UTF8.self))
            case 4:
                var fields = Fields(payload)
                while let (kind, number, text, fixed) = fields.next() {
                    switch kind {
                    case 1: values.append(.string(String(decoding: text, as: UTF8.self)))
                    case 3: values.append(.double(Double(bitPattern: fixed)))
                    case 5: values.append(.int(Int64(number)))
                    case 6: values.append(.int(Int64(bitPattern: number >> 1) ^ -Int64(bitPattern: number & 1)))
                    case 7: values.append(.bool(number != 0))
                    default: break
                    }
                }
            case 2:
                var feature = Feature()
                var fields = Fields(payload)
                while let (kind, number, packed, _) = fields.next() {
                    switch kind {
                    case 1: feature.id = number
                    case 2: feature.tags = Fields.varints(packed)
                    case 4:
                        let geometry = Fields.varints(packed)
                        let unzig = { (v: UInt64) in Int(Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)) }
                        feature.x = unzig(geometry[1])
                        feature.y = unzig(geometry[2])
                    default: break
                    }
                }
                features.append(feature)
            default: break
            }
        }
    }

    struct Fields {
        var bytes: ArraySlice<UInt8>

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
        }

        static func varints(_ bytes: ArraySlice<UInt8>) -> [UInt64] {
            var reader = Fields(bytes)
            var values: [UInt64] = []
            while !reader.bytes.isEmpty { values.append(reader.varint()) }
            return values
        }

        mutating func varint() -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while let byte = bytes.popFirst() {
                value |= UInt64(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            return value
        }

        /// The next field: number, varint value, length-delimited payload, 64-bit value.
        mutating func next() -> (Int, UInt64, ArraySlice<UInt8>, UInt64)? {
            guard !bytes.isEmpty else { return nil }
            let key = varint()
            switch key & 7 {
            case 0: return (Int(key >> 3), varint(), [], 0)
            case 1:
                let fixed = bytes.prefix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                bytes = bytes.dropFirst(8)
                return (Int(key >> 3), 0, [], fixed)
            default:
                let length = Int(varint())
                let payload = bytes.prefix(length)
                bytes = bytes.dropFirst(length)
                return (Int(key >> 3), 0, payload, 0)
            }
        }
    }
}
