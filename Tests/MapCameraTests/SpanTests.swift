import Foundation
import MapCamera
import Testing

/// The span of a map view: the degrees between its edges, from its
/// Web-Mercator extent.
@Suite struct SpanTests {
    let t256 = WebMercator(tileSize: .t256)

    /// The latitude at fraction `y` of the world's height, written out
    /// independently of `WebMercator`: φ = atan(sinh(π·(1 − 2y))).
    func latitude(atUnitY y: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
    }

    @Test func aViewAsLargeAsTheWorldSpansAllOfIt() {
        // Zoom 1 on 256-pt tiles: the world is 512 pt square.
        let span = t256.span(around: Coordinate(latitude: 0, longitude: 0), atZoom: 1, width: 512, height: 512)
        #expect(abs(span.longitudeDelta - 360) < 1e-12)
        #expect(abs(span.latitudeDelta - 2 * WebMercator.maxLatitude) < 1e-9)
    }

    @Test func aViewLargerThanTheWorldIsClampedToIt() {
        let span = t256.span(around: Coordinate(latitude: 60, longitude: 10), atZoom: 0, width: 2000, height: 2000)
        #expect(span.longitudeDelta == 360)
        #expect(abs(span.latitudeDelta - 2 * WebMercator.maxLatitude) < 1e-9)
    }

    @Test func aPhoneInSeoulAtZoom16() {
        // 390 × 844 pt at zoom 16, 256-pt tiles: the world is 256 · 2^16 =
        // 16,777,216 pt. Longitude: 360 · 390 / 16,777,216 = 0.008368492126…°.
        let center = Coordinate(latitude: 37.4979, longitude: 127.0276)
        let span = t256.span(around: center, atZoom: 16, width: 390, height: 844)
        #expect(abs(span.longitudeDelta - 360 * 390 / 16_777_216) < 1e-15)
        // Latitude between the edges, 422 pt above and below the centre.
        let sine = sin(center.latitude * .pi / 180)
        let y = 0.5 - log((1 + sine) / (1 - sine)) / (4 * .pi)
        let half = 422.0 / 16_777_216
        let expected = latitude(atUnitY: y - half) - latitude(atUnitY: y + half)
        #expect(abs(span.latitudeDelta - expected) < 1e-12)
        // About 0.0143°: Mercator stretches latitude by 1 / cos φ, so the
        // view spans cos 37.5° ≈ 0.79 as many degrees north–south per point
        // as east–west.
        let perPoint = span.longitudeDelta / 390
        #expect(abs(span.latitudeDelta - 844 * perPoint * cos(center.latitude * .pi / 180)) < 1e-6)
    }

    @Test func zoomOn512PointTilesIsZoomPlusOneOn256() {
        let center = Coordinate(latitude: 51.5, longitude: -0.12)
        let t512 = WebMercator(tileSize: .t512)
        let a = t256.span(around: center, atZoom: 14, width: 390, height: 844)
        let b = t512.span(around: center, atZoom: 13, width: 390, height: 844)
        #expect(abs(a.latitudeDelta - b.latitudeDelta) < 1e-12)
        #expect(abs(a.longitudeDelta - b.longitudeDelta) < 1e-12)
    }

    @Test func aViewNearThePoleEndsAtTheWorldsEdge() {
        // Centred at 85° at zoom 3 (2048 pt): the top half reaches past the
        // world's top edge, so the span is counted from 85.0511° only.
        let center = Coordinate(latitude: 85, longitude: 0)
        let span = t256.span(around: center, atZoom: 3, width: 300, height: 600)
        let sine = sin(85 * Double.pi / 180)
        let y = 0.5 - log((1 + sine) / (1 - sine)) / (4 * .pi)
        let south = latitude(atUnitY: y + 300.0 / 2048)
        #expect(abs(span.latitudeDelta - (WebMercator.maxLatitude - south)) < 1e-9)
    }

    @Test func aFramedCameraCarriesTheSpanOfTheWholeView() throws {
        let framing = MapFraming(insets: MapInsets(bottom: 240), mode: .inset, zoom: 15)
        let store = Coordinate(latitude: 37.5, longitude: 127)
        let framed = try #require(framing.frame(store))
        // The whole view (insets included), around the view's centre.
        #expect(framed.span == t256.span(around: framed.center, atZoom: 15, width: 390, height: 844))
        #expect(framed.span == framing.span(at: framed.viewpoint))
    }
}
