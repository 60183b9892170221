import Clustering
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreCatalog
import TestSupport
import Testing
import VectorTiles

@testable import CarouselServer

/// `GET /lists/{name}/tiles/{z}/{x}/{y}.mvt` and `tiles.json`: the list's
/// markers as supercluster's tiles, in Mapbox Vector Tile bytes.
@Suite struct TileRouteTests {
    /// The sample list's clusters as the index gives them for a tile.
    static func expected(_ fixture: ServerFixture, z: Int, x: Int, y: Int, selected: Int? = nil) async throws -> [[Int]] {
        var coordinates: [Coordinate] = []
        try await fixture.catalog.forEachPin(list: "seoul") { _, pin in
            coordinates.append(Coordinate(latitude: pin.latitude, longitude: pin.longitude))
        }
        let index = try ClusterIndex(points: coordinates, options: ClusterOptions())
        return try index.tile(zoom: z, x: x, y: y, selected: selected) { coordinates[$0] }.map { feature in
            [feature.marker.cluster?.id ?? feature.marker.pointIndex!, feature.x, feature.y, feature.marker.count]
        }
    }

    @Test func aTileIsTheIndexsTileInMVTBytes() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            // Seoul at zooms 10 to 14, with and without a selected store.
            for (z, selected) in [(10, nil), (12, nil), (12, 5), (14, 5)] as [(Int, Int?)] {
                let z2 = Double(1 << z)
                let x = Int(WebMercator.unitX(longitude: 127.03) * z2), y = Int(WebMercator.unitY(latitude: 37.52) * z2)
                let uri = "/lists/seoul/tiles/\(z)/\(x)/\(y).mvt" + (selected.map { "?selected=\($0)" } ?? "")
                let response = try await client.execute(uri: uri, method: .get)
                let expected = try await Self.expected(fixture, z: z, x: x, y: y, selected: selected)
                if expected.isEmpty {
                    #expect(response.status == .noContent)
                    continue
                }
                #expect(response.status == .ok, "\(uri)")
                #expect(response.headers[.contentType] == "application/vnd.mapbox-vector-tile")
                #expect(response.headers[.eTag] != nil)
                let tile = VectorTileReader(Array(buffer: response.body))
                #expect(tile.name == "stores" && tile.extent == 4096 && tile.version == 2)
                let read = tile.features.indices.map { i -> [Int] in
                    let properties = tile.properties(of: i)
                    let count: Int =
                        if case .int(let n)? = properties["point_count"] { Int(n) } else { 1 }
                    return [Int(tile.features[i].id), tile.features[i].x, tile.features[i].y, count]
                }
                #expect(read == expected, "\(uri)")
                // A store carries its id and name; a cluster supercluster's properties.
                for i in tile.features.indices {
                    let properties = tile.properties(of: i)
                    if properties["cluster"] == .bool(true) {
                        #expect(properties["cluster_id"] == .int(Int64(tile.features[i].id)))
                        #expect(properties["expansion_zoom"] != nil)
                    } else {
                        #expect(properties["id"] != nil && properties["name"] != nil)
                    }
                }
            }
        }
    }

    @Test func anEmptyTileIs204AndABadAddressIs400() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            // The middle of the Pacific at zoom 8.
            let empty = try await client.execute(uri: "/lists/seoul/tiles/8/5/120.mvt", method: .get)
            #expect(empty.status == .noContent)
            #expect(empty.body.readableBytes == 0)
            for (uri, words) in [
                ("/lists/seoul/tiles/23/0/0.mvt", "zoom must be a whole number in 0...22"),
                ("/lists/seoul/tiles/2/4/0.mvt", "x must be a whole number in 0...3"),
                ("/lists/seoul/tiles/2/0/4.mvt", "y must be {y}.mvt with y in 0...3"),
                ("/lists/seoul/tiles/2/0/1.png", "y must be {y}.mvt"),
                ("/lists/seoul/tiles/x/0/1.mvt", "zoom must be"),
            ] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(String(buffer: response.body).contains(words), "\(uri): \(String(buffer: response.body))")
            }
            let unknown = try await client.execute(uri: "/lists/nope/tiles/0/0/0.mvt", method: .get)
            #expect(unknown.status == .notFound)
        }
    }

    @Test func aRepeatedTileIs304() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let first = try await client.execute(uri: "/lists/seoul/tiles/0/0/0.mvt", method: .get)
            let tag = try #require(first.headers[.eTag])
            let again = try await client.execute(uri: "/lists/seoul/tiles/0/0/0.mvt", method: .get, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)
        }
    }

    @Test func tileJSONNamesTheTilesBoundsAndFields() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let response = try await client.execute(uri: "/lists/seoul/tiles.json", method: .get)
            #expect(response.status == .ok)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(json["tilejson"] as? String == "3.0.0")
            let url = try #require((json["tiles"] as? [String])?.first)
            #expect(url.hasPrefix("http://") && url.contains("/lists/seoul/tiles/{z}/{x}/{y}.mvt?v="), "\(url)")
            let bounds = try #require(json["bounds"] as? [Double])
            #expect(bounds.count == 4 && bounds[0] > 126 && bounds[2] < 128 && bounds[1] > 37 && bounds[3] < 38)
            #expect((json["center"] as? [Double])?.count == 3)
            let layers = try #require(json["vector_layers"] as? [[String: Any]])
            #expect(layers.first?["id"] as? String == "stores")
            #expect(
                ((layers.first?["fields"] as? [String: Any])?.keys).map(Set.init) == [
                    "id", "name", "category", "cluster", "cluster_id", "point_count", "point_count_abbreviated", "expansion_zoom",
                ])
            let missing = try await client.execute(uri: "/lists/nope/tiles.json", method: .get)
            #expect(missing.status == .notFound)
        }
    }

    /// A tile's features as `[id, x, y, count]` rows, and its properties.
    static func rows(_ body: ByteBuffer) -> (rows: [[Int]], properties: [[String: VectorTileReader.Value]]) {
        let tile = VectorTileReader(Array(buffer: body))
        let properties = tile.features.indices.map { tile.properties(of: $0) }
        let rows = tile.features.indices.map { i -> [Int] in
            let count: Int = if case .int(let n)? = properties[i]["point_count"] { Int(n) } else { 1 }
            return [Int(tile.features[i].id), tile.features[i].x, tile.features[i].y, count]
        }
        return (rows, properties)
    }

    @Test func filtersClusterOnlyTheMatchingStores() async throws {
        let fixture = try ServerFixture()
        var read: [(position: Int, coordinate: Coordinate)] = []
        try await fixture.catalog.forEachPin(list: "seoul") { position, pin in
            read.append((position, Coordinate(latitude: pin.latitude, longitude: pin.longitude)))
        }
        let pins = read
        try await fixture.application.test(.router) { client in
            for (query, matches) in [
                ("category=Roastery", { (store: Store) in store.category == "Roastery" }),
                ("where=seats=33", { (store: Store) in store.attributes["seats"] == .number(.init(33)) }),
                ("q=gangnam&category=coffee%20shop", { (store: Store) in store.name.contains("Gangnam") && store.category == "Coffee shop" }),
            ] as [(String, (Store) -> Bool)] {
                let matching = try pins.filter { matches(try fixture.catalog.store(list: "seoul", at: $0.position)) }
                #expect(!matching.isEmpty, "\(query)")
                // supercluster over the matching stores alone, points named by list position.
                let index = try ClusterIndex(points: matching.map(\.coordinate), options: ClusterOptions())
                for z in [0, 11, 13] {
                    let z2 = Double(1 << z)
                    let x = Int(WebMercator.unitX(longitude: 127.03) * z2), y = Int(WebMercator.unitY(latitude: 37.52) * z2)
                    let expected = try index.tile(zoom: z, x: x, y: y) { matching[$0].coordinate }.map { feature in
                        [feature.marker.cluster?.id ?? matching[feature.marker.pointIndex!].position, feature.x, feature.y, feature.marker.count]
                    }
                    let response = try await client.execute(uri: "/lists/seoul/tiles/\(z)/\(x)/\(y).mvt?\(query)", method: .get)
                    if expected.isEmpty {
                        #expect(response.status == .noContent, "\(query) at \(z)")
                        continue
                    }
                    #expect(response.status == .ok, "\(query) at \(z)")
                    #expect(Self.rows(response.body).rows == expected, "\(query) at \(z)/\(x)/\(y)")
                    if z == 0 { #expect(expected.map { $0[3] }.reduce(0, +) == matching.count) }
                }
                // A selected store that matches stays out of every cluster;
                // one that does not is not drawn at all.
                let inside = matching[0].position
                let outside = try #require(pins.first { p in !matching.contains { $0.position == p.position } }).position
                let kept = Self.rows(try await client.execute(uri: "/lists/seoul/tiles/0/0/0.mvt?\(query)&selected=\(inside)", method: .get).body)
                #expect(kept.rows.contains { $0[0] == inside && $0[3] == 1 && kept.properties[kept.rows.firstIndex(of: $0)!]["cluster"] == nil })
                #expect(kept.rows.map { $0[3] }.reduce(0, +) == matching.count)
                let dropped = Self.rows(try await client.execute(uri: "/lists/seoul/tiles/0/0/0.mvt?\(query)&selected=\(outside)", method: .get).body)
                #expect(dropped.rows.map { $0[3] }.reduce(0, +) == matching.count)
            }
            let nothing = try await client.execute(uri: "/lists/seoul/tiles/0/0/0.mvt?category=Bakery", method: .get)
            #expect(nothing.status == .noContent)
            for (query, words) in [
                ("openAt=tomorrow", "openAt must be an ISO 8601 instant"), ("where=seats", "where takes KEY=VALUE"), ("q=", "q is empty"),
            ] {
                let response = try await client.execute(uri: "/lists/seoul/tiles/0/0/0.mvt?\(query)", method: .get)
                #expect(response.status == .badRequest, "\(query)")
                #expect(String(buffer: response.body).contains(words), "\(query): \(String(buffer: response.body))")
            }
        }
    }

    @Test func propertiesAddTypedAttributesAndAreBounded() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let response = try await client.execute(uri: "/lists/seoul/tiles/14/13973/6348.mvt?properties=seats,phone,missing", method: .get)
            #expect(response.status == .ok)
            let stores = Self.rows(response.body).properties.filter { $0["cluster"] == nil }
            #expect(!stores.isEmpty)
            let byID = Dictionary(uniqueKeysWithValues: try await fixture.catalog.stores(list: "seoul", from: 0, limit: 100).map { ($0.id, $0) })
            for properties in stores {
                guard case .string(let id)? = properties["id"] else {
                    Issue.record("a store without its id")
                    continue
                }
                let store = try #require(byID[id])
                // seats is a number column: an integer; phone text.
                #expect(properties["seats"] == .int(Int64(try #require(store.attributes["seats"]).description)!))
                #expect(properties["phone"] == .string(store.phone!))
                #expect(properties["missing"] == nil)
            }
            let names = (0...16).map { "a\($0)" }.joined(separator: ",")
            for (query, words) in [
                ("properties=\(names)", "at most 16 properties"), ("properties=name", "'name' is a field every tile has"),
                ("properties=seats,seats", "'seats' is named twice"), ("properties=seats,", "a property name is empty"),
            ] {
                let bad = try await client.execute(uri: "/lists/seoul/tiles/0/0/0.mvt?\(query)", method: .get)
                #expect(bad.status == .badRequest, "\(query)")
                #expect(String(buffer: bad.body).contains(words), "\(query): \(String(buffer: bad.body))")
            }
        }
    }

    @Test func gzipWhenAcceptedWithItsOwnTag() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let plain = try await client.execute(uri: "/lists/seoul/tiles/0/0/0.mvt", method: .get)
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.vary] == "Accept-Encoding")
            let zipped = try await client.execute(
                uri: "/lists/seoul/tiles/0/0/0.mvt", method: .get, headers: [.acceptEncoding: "br;q=1.0, gzip;q=0.8"])
            #expect(zipped.status == .ok)
            #expect(zipped.headers[.contentEncoding] == "gzip")
            #expect(try Gzip.decompress(Array(buffer: zipped.body)) == Array(buffer: plain.body))
            let tag = try #require(zipped.headers[.eTag])
            #expect(tag != plain.headers[.eTag] && tag.hasSuffix("-gzip\""))
            let again = try await client.execute(
                uri: "/lists/seoul/tiles/0/0/0.mvt", method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: tag])
            #expect(again.status == .notModified)
            #expect(again.headers[.eTag] == tag)
            // q=0 refuses a coding.
            let refused = try await client.execute(uri: "/lists/seoul/tiles/0/0/0.mvt", method: .get, headers: [.acceptEncoding: "gzip;q=0, *"])
            #expect(refused.headers[.contentEncoding] == nil)
        }
        #expect(TileRoutes.acceptsGzip("*") && TileRoutes.acceptsGzip("deflate, x-gzip") && !TileRoutes.acceptsGzip("identity"))
        #expect(!TileRoutes.acceptsGzip(nil) && !TileRoutes.acceptsGzip("*;q=0"))
    }

    @Test func openNowCarriesNoTag() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            // Which stores are open changes with the clock, not the list's
            // version: no tag, so no cache revalidates it as current.
            for uri in ["/lists/seoul/tiles/0/0/0.mvt?openAt=now", "/stores/search?list=seoul&openAt=now"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok || response.status == .noContent, "\(uri)")
                #expect(response.headers[.eTag] == nil, "\(uri)")
                let tagged = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "*"])
                #expect(tagged.status != .notModified, "\(uri)")
            }
            let fixed = try await client.execute(uri: "/lists/seoul/tiles/0/0/0.mvt?openAt=2026-11-24T12:00:00%2B09:00", method: .get)
            #expect(fixed.status == .noContent || fixed.headers[.eTag] != nil)
        }
    }
}
