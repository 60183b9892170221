import TextInput

/// Streams the stores of a GeoJSON FeatureCollection of Point features
/// (RFC 7946): `geometry.coordinates` is `[longitude, latitude]`,
/// `properties` give the other fields, and the Feature's own `id` member is
/// the id when `properties` has none.
package struct GeoJSONStoreRowReader: StoreRowReader {
    private let path: String
    private var tokenizer: JSONTokenizer
    private var row = JSONObjectRow()
    /// The feature's `id` member and its geometry's coordinates, per feature.
    private var featureID = RawFields()
    private var coordinates = RawFields()
    /// The key of the member being read, and values read only to be checked.
    private var memberKey = RawFields()
    private var scratch = RawFields()
    private var isFirstMember = true
    private var isFirstFeature = true
    private var finished = false
    /// The names of the collection's members so far, and of the object
    /// being read, to refuse a name given twice.
    private var collectionKeys = RawFields()
    private var objectKeys = RawFields()
    /// Whether the collection has its `type` member (RFC 7946 §3: required).
    private var hasCollectionType = false

    /// Opens `path` and steps into its `features` array; a file that is not
    /// a FeatureCollection fails here, and any syntax error fails the import
    /// with its line (a feature's end cannot be found past one).
    package init(
        path: String, chunkSize: Int = ByteReader.defaultChunkSize, maxRowBytes: Int = ByteReader.defaultMaxRowBytes
    ) throws(ImportFileError) {
        self.path = path
        let reader = try ByteReader.openStoreFile(path: path, chunkSize: chunkSize, maxRowBytes: maxRowBytes)
        tokenizer = JSONTokenizer(reader: reader)
        do throws(JSONTokenizer.Failure) {
            guard try tokenizer.skipWhitespace() != nil else {
                throw .file(ImportFileError(path: path, reason: "empty file: expected a GeoJSON FeatureCollection"))
            }
            try tokenizer.expect(UInt8(ascii: "{"), "a GeoJSON FeatureCollection object")
            guard try enterFeatures() else {
                throw .file(ImportFileError(path: path, reason: "no 'features' array: not a GeoJSON FeatureCollection"))
            }
        } catch {
            throw error.fileError(path: path)
        }
    }

    package mutating func next() throws(ImportFileError) -> ImportRow? {
        guard !finished else { return nil }
        tokenizer.startRow()
        do throws(JSONTokenizer.Failure) {
            if try tokenizer.nextElement(isFirst: &isFirstFeature) {
                _ = try tokenizer.skipWhitespace()
                tokenizer.startRow()
                return try readFeature()
            }
            // After the array: the collection's remaining members, then nothing.
            finished = true
            if try enterFeatures() {
                throw JSONTokenizer.Failure.syntax(line: tokenizer.line, column: tokenizer.column, reason: "a second 'features' member")
            }
            let after = try tokenizer.skipWhitespace()
            guard after == nil else { throw tokenizer.unexpected(after, expected: "nothing after the FeatureCollection") }
            guard hasCollectionType else {
                throw JSONTokenizer.Failure.file(
                    ImportFileError(
                        path: path, reason: #"no "type" member: a GeoJSON FeatureCollection needs "type": "FeatureCollection""#))
            }
            return nil
        } catch {
            throw error.fileError(path: path)
        }
    }

    // MARK: The collection

    /// Reads members of the top-level object up to `features` and steps into
    /// its array (true), or through the closing `}` (false). A `type` other
    /// than FeatureCollection fails.
    private mutating func enterFeatures() throws(JSONTokenizer.Failure) -> Bool {
        while true {
            memberKey.removeAll()
            guard try tokenizer.nextMember(isFirst: &isFirstMember, keys: &memberKey) else { return false }
            collectionKeys.append(contentsOf: memberKey.bytes)
            collectionKeys.endField()
            if let duplicate = collectionKeys.duplicateOfLastField() {
                throw .syntax(line: tokenizer.line, column: tokenizer.column, reason: "duplicate member \(duplicate) in the FeatureCollection")
            }
            switch memberKey.bytes {
            case Self.featuresKey:
                try tokenizer.expect(UInt8(ascii: "["), "an array of features")
                return true
            case Self.typeKey:
                let line = tokenizer.line
                let type = try readText()
                hasCollectionType = true
                guard type == "FeatureCollection" else {
                    throw .file(
                        ImportFileError(
                            path: path, line: line,
                            reason: "expected a GeoJSON FeatureCollection, found type '\(type)'"
                        ))
                }
            default:
                try tokenizer.skipValue()
            }
        }
    }

    // MARK: One feature

    /// What a feature's geometry gave.
    private enum Geometry {
        case point
        case problem(String)
    }

    /// Reads one element of `features` into a row.
    private mutating func readFeature() throws(JSONTokenizer.Failure) -> ImportRow {
        _ = try tokenizer.skipWhitespace()
        let line = tokenizer.line  // of the opening brace
        guard try tokenizer.consume(UInt8(ascii: "{")) else {
            let kind = try discardValue()
            return .invalid([ImportIssue(line: line, column: nil, reason: "expected a Feature object, found \(kind.article)")])
        }
        row.removeAll(line: line)
        featureID.removeAll()
        coordinates.removeAll()
        var type: String?
        var geometry = Geometry.problem("no geometry: a store needs a Point geometry")
        var issues: [ImportIssue] = []

        var first = true
        objectKeys.removeAll()
        while true {
            memberKey.removeAll()
            guard try tokenizer.nextMember(isFirst: &first, keys: &memberKey) else { break }
            // A second `id` would be appended to the first ("a" + "b" →
            // "ab"): refuse any name given twice, as the row's issue.
            objectKeys.append(contentsOf: memberKey.bytes)
            objectKeys.endField()
            if let duplicate = objectKeys.duplicateOfLastField() {
                issues.append(ImportIssue(line: line, column: nil, reason: "duplicate member \(duplicate) in the Feature: give each member once"))
                try tokenizer.skipValue()
                continue
            }
            switch memberKey.bytes {
            case Self.typeKey:
                type = try readText()
            case Self.idKey:
                try tokenizer.readValue(into: &featureID)
            case Self.geometryKey:
                geometry = try readGeometry()
            case Self.propertiesKey:
                if try tokenizer.consume(UInt8(ascii: "{")) {
                    try row.read(from: &tokenizer, line: line)
                } else if try discardValue() != .null {
                    issues.append(ImportIssue(line: line, column: "properties", reason: "properties must be an object"))
                }
            default:
                try tokenizer.skipValue()
            }
        }
        featureID.endField()

        if type != "Feature" {
            let found = type.map { "'\($0)'" } ?? "none"
            issues.append(ImportIssue(line: line, column: "type", reason: "expected type 'Feature', found \(found)"))
        }
        if case .problem(let reason) = geometry {
            issues.append(ImportIssue(line: line, column: "geometry", reason: reason))
        }
        let coordinatesAreKnown = if case .point = geometry { true } else { false }

        // Coordinates and the feature id become columns after the properties.
        // RFC 7946 §3.1.1: a position is [longitude, latitude].
        let hasFeatureID = !featureID.field(0).isEmpty
        for index in [1, 0] {
            if coordinatesAreKnown { row.values.append(contentsOf: coordinates.field(index)) }
            row.values.endField()
        }
        if hasFeatureID {
            row.values.append(contentsOf: featureID.field(0))
            row.values.endField()
        }
        let layout = row.layout(variant: hasFeatureID ? 1 : 0) { (headers) throws(ColumnLayout.Problem) in
            var layout = try ColumnLayout(headers: headers, excluding: [.latitude, .longitude])
            layout.appendColumn("geometry.coordinates[1]", feeding: .latitude)
            layout.appendColumn("geometry.coordinates[0]", feeding: .longitude)
            if hasFeatureID { layout.appendColumn("id", feeding: .id) }
            return layout
        }
        return row.validated(layout, knownIssues: issues, checksCoordinates: coordinatesAreKnown)
    }

    /// Reads a `geometry` member: a Point's coordinates go to `coordinates`.
    private mutating func readGeometry() throws(JSONTokenizer.Failure) -> Geometry {
        guard try tokenizer.consume(UInt8(ascii: "{")) else {
            let kind = try discardValue()
            return .problem(
                kind == .null
                    ? "geometry is null: a store needs a Point geometry"
                    : "geometry must be an object, found \(kind.article)")
        }
        var type: String?
        var problem: String?
        var first = true
        var names = RawFields()
        while true {
            memberKey.removeAll()
            guard try tokenizer.nextMember(isFirst: &first, keys: &memberKey) else { break }
            names.append(contentsOf: memberKey.bytes)
            names.endField()
            if let duplicate = names.duplicateOfLastField() {
                problem = problem ?? "duplicate member \(duplicate) in the geometry: give each member once"
                try tokenizer.skipValue()
                continue
            }
            switch memberKey.bytes {
            case Self.typeKey:
                type = try readText()
            case Self.coordinatesKey:
                if let found = try readPosition() { problem = problem ?? found }
            default:
                try tokenizer.skipValue()
            }
        }
        guard let type, type == "Point" else {
            return .problem("geometry is \(type.map { "a \($0)" } ?? "without a type"), expected a Point")
        }
        if let problem { return .problem(problem) }
        guard coordinates.count >= 2 else { return .problem("no coordinates: a Point needs [longitude, latitude]") }
        return .point
    }

    /// Reads a position array into `coordinates`, one field per element: 2
    /// or 3 numbers (RFC 7946 §3.1.1; the third, the altitude, is ignored);
    /// a problem, or nil. A number written as a string is not a number.
    private mutating func readPosition() throws(JSONTokenizer.Failure) -> String? {
        coordinates.removeAll()
        guard try tokenizer.consume(UInt8(ascii: "[")) else {
            let kind = try discardValue()
            return "coordinates must be [longitude, latitude], found \(kind.article)"
        }
        var first = true
        var problem: String?
        while try tokenizer.nextElement(isFirst: &first) {
            // Past the third element only what the value is matters: a
            // 100,000-number position is read, not kept.
            guard coordinates.count < 3 else {
                problem = "a position has 2 or 3 numbers [longitude, latitude, altitude], found more than 3"
                try tokenizer.skipValue()
                continue
            }
            let kind = try tokenizer.readValue(into: &coordinates)
            coordinates.endField()
            if kind != .number, problem == nil {
                problem = "coordinates[\(coordinates.count - 1)] must be a number, found \(kind.article)"
            }
        }
        if let problem { return problem }
        return coordinates.count >= 2 ? nil : "coordinates must be [longitude, latitude], found \(coordinates.count) element(s)"
    }

    /// Reads a value only to learn what it is.
    private mutating func discardValue() throws(JSONTokenizer.Failure) -> JSONTokenizer.ValueKind {
        scratch.removeAll()
        return try tokenizer.readValue(into: &scratch)
    }

    /// Reads a value as text (a `type` member).
    private mutating func readText() throws(JSONTokenizer.Failure) -> String {
        scratch.removeAll()
        try tokenizer.readValue(into: &scratch)
        return String(decoding: scratch.bytes, as: UTF8.self)
    }

    private static let typeKey = Array("type".utf8)
    private static let idKey = Array("id".utf8)
    private static let geometryKey = Array("geometry".utf8)
    private static let propertiesKey = Array("properties".utf8)
    private static let coordinatesKey = Array("coordinates".utf8)
    private static let featuresKey = Array("features".utf8)
}
