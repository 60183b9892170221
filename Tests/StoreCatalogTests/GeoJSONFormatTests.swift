import Foundation
import StoreCatalog
import TestSupport
import Testing

@Suite("GeoJSON import")
struct GeoJSONFormatTests {
    /// A FeatureCollection holding `features` (JSON texts).
    static func collection(_ features: String...) -> String {
        #"{"type": "FeatureCollection", "features": [\#n"# + features.joined(separator: ",\n") + "\n]}"
    }

    @Test func pointFeaturesGiveStoresWithLongitudeFirst() throws {
        let geojson = Self.collection(
            #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [127.0276, 37.4979]}, "properties": {"id": "a", "name": "Gangnam", "seats": 33}}"#
        )
        let rows = try readRows(geojson, as: .geojson)
        // RFC 7946: [longitude, latitude].
        #expect(rows == [.valid(Store(id: "a", name: "Gangnam", latitude: 37.4979, longitude: 127.0276, attributes: ["seats": 33]), line: 2)])
    }

    @Test func theFeatureIdServesWhenPropertiesHaveNone() throws {
        let geojson = Self.collection(
            #"{"id": 17, "properties": {"name": "A"}, "geometry": {"coordinates": [1, 2, 30], "type": "Point"}, "type": "Feature"}"#,
            #"{"type": "Feature", "id": "ignored", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"store_id": "kept", "name": "B"}}"#
        )
        let rows = try readRows(geojson, as: .geojson)
        #expect(rows.stores.map(\.id) == ["17", "kept"])
        #expect(rows.stores.allSatisfy { $0.attributes.isEmpty })
    }

    @Test func propertyCoordinatesStayAttributes() throws {
        let geojson = Self.collection(
            #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"id": "a", "name": "A", "lat": 9}}"#
        )
        let store = try #require(try readRows(geojson, as: .geojson).stores.first)
        #expect(store.latitude == 2)
        #expect(store.attributes == ["lat": 9])
    }

    @Test func nonPointOrMissingGeometryIsARowIssue() throws {
        let geojson = Self.collection(
            #"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}, "properties": {"id": "a", "name": "A"}}"#,
            #"{"type": "Feature", "geometry": null, "properties": {"id": "b", "name": "B"}}"#,
            #"{"type": "Feature", "properties": {"id": "c"}}"#,
            #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [200, 2]}, "properties": {"id": "d", "name": "D"}}"#
        )
        let rows = try readRows(geojson, as: .geojson)
        #expect(
            rows.issues == [
                ImportIssue(line: 2, column: "geometry", reason: "geometry is a LineString, expected a Point"),
                ImportIssue(line: 3, column: "geometry", reason: "geometry is null: a store needs a Point geometry"),
                ImportIssue(line: 4, column: "geometry", reason: "no geometry: a store needs a Point geometry"),
                ImportIssue(line: 4, column: nil, reason: "no name (looked for name, title, store_name, 상호명)"),
                ImportIssue(line: 5, column: "geometry.coordinates[0]", reason: "longitude out of range -180...180: '200'"),
            ])
    }

    @Test func collectionMembersMayComeInAnyOrder() throws {
        let geojson =
            #"{"features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"id": "a", "name": "A"}}], "bbox": [0, 0, 1, 1], "type": "FeatureCollection"}"#
        #expect(try readRows(geojson, as: .geojson).stores.count == 1)
    }

    @Test func aFeatureCollectionIsRequired() throws {
        let single = try #require(fileError(#"{"type": "Feature", "geometry": null, "properties": {}}"#, as: .geojson))
        #expect(single.reason == "expected a GeoJSON FeatureCollection, found type 'Feature'")
        let noFeatures = try #require(fileError(#"{"type": "FeatureCollection"}"#, as: .geojson))
        #expect(noFeatures.reason == "no 'features' array: not a GeoJSON FeatureCollection")
        let array = try #require(fileError("[]", as: .geojson))
        #expect(array.reason.contains("expected a GeoJSON FeatureCollection object"))
    }

    @Test func aSyntaxErrorInsideAFeatureIsAFileErrorWithItsLine() throws {
        let geojson = Self.collection(#"{"type": "Feature", "geometry": {"type": "Point" "coordinates": [1, 2]}}"#)
        let error = try #require(fileError(geojson, as: .geojson))
        #expect(error.line == 2)
    }
}
