import Foundation
import HTTPTypes
import HummingbirdTesting
import TestSupport
import Testing

@testable import CarouselServer

/// `GET /basemap/{z}/{x}/{y}.mvt`: Natural Earth's countries and places,
/// compiled into the binary, as vector tiles in XYZ addressing.
@Suite struct BasemapRouteTests {
    @Test func theWorldTileHasTheCountriesAndSeoulsTileItsLabel() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let world = try await client.execute(uri: "/basemap/0/0/0.mvt", method: .get)
            #expect(world.status == .ok)
            #expect(world.headers[.contentType] == "application/vnd.mapbox-vector-tile")
            #expect(world.headers[.cacheControl] == "public, max-age=86400")
            let bytes = Array(buffer: world.body)
            #expect(VectorTileReader.layerNames(bytes) == ["countries"])
            let countries = VectorTileReader(bytes, layer: "countries")
            #expect(countries.version == 2 && countries.extent == 4096)
            let names = Set(
                countries.features.indices.compactMap { i -> String? in
                    if case .string(let name)? = countries.properties(of: i)["name"] { name } else { nil }
                })
            #expect(names.count > 150, "Natural Earth's 1:110m has 177 countries: \(names.count)")
            #expect(names.isSuperset(of: ["South Korea", "Japan", "Brazil", "France"]))

            // Seoul (37.57° N, 127.0° E) at zoom 4: x = ⌊(127/360 + ½)·16⌋ =
            // 13, y = 6 counted from the north. A flipped row (MBTiles'
            // TMS row, 9) would be southern Australia.
            let seoul = try await client.execute(uri: "/basemap/4/13/6.mvt", method: .get)
            #expect(seoul.status == .ok)
            let tile = Array(buffer: seoul.body)
            #expect(VectorTileReader.layerNames(tile) == ["countries", "places"])
            let land = VectorTileReader(tile, layer: "countries")
            #expect(land.features.indices.contains { land.properties(of: $0)["name"] == .string("South Korea") })
            let places = VectorTileReader(tile, layer: "places")
            let capital = try #require(places.features.indices.first { places.properties(of: $0)["name"] == .string("Seoul") })
            #expect(places.properties(of: capital)["kind"] == .string("capital"))
            // Its point inside the tile: x 0.853·16 − 13 = 0.65, y 0.387·16 − 6 = 0.20 of 4096.
            #expect(abs(places.features[capital].x - 2650) < 40 && abs(places.features[capital].y - 810) < 40)
        }
    }

    /// Every answer as docs/openapi.json describes it (status, type, body).
    @Test func noLandOrPastZoom4Is204AndABadAddressIs400() async throws {
        let fixture = try ServerFixture()
        let template = "/basemap/{z}/{x}/{file}"
        try await fixture.application.test(.router) { client in
            #expect(try await client.checked(.get, "/basemap/4/13/6.mvt", template: template).status == 200)
            // The South Pacific at zoom 4, and Seoul at zoom 5 and 12.
            for uri in ["/basemap/4/1/10.mvt", "/basemap/5/27/12.mvt", "/basemap/12/3493/1581.mvt"] {
                let response = try await client.checked(.get, uri, template: template)
                #expect(response.status == 204 && response.body.isEmpty, "\(uri)")
            }
            for uri in ["/basemap/23/0/0.mvt", "/basemap/2/4/0.mvt", "/basemap/2/0/4.mvt", "/basemap/1/0/0.png"] {
                #expect(try await client.checked(.get, uri, template: template).status == 400, "\(uri)")
            }
        }
    }
}
