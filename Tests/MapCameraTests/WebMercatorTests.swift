import MapCamera
import Testing

@Suite("Web Mercator")
struct WebMercatorTests {
    let mercator256 = WebMercator(tileSize: .t256)

    @Test func theOriginIsTheCentreOfTheWorld() {
        // lng 0: x = 0.5 · 256 · 2^z; lat 0: ln(1/1) = 0, y = 0.5 · 256 · 2^z.
        #expect(mercator256.point(at(0, 0), atZoom: 0) == MapPoint(x: 128, y: 128))
        #expect(mercator256.point(at(0, 0), atZoom: 3) == MapPoint(x: 1024, y: 1024))
    }

    @Test func longitudeIsLinearAndTheTileSizeScalesTheWorld() {
        // lng 90: x = (90/360 + 0.5) · 256 = 192; at 512 the world is twice as wide.
        #expect(mercator256.point(at(0, 90), atZoom: 0).x == 192)
        #expect(WebMercator(tileSize: .t512).point(at(0, 90), atZoom: 0).x == 384)
        #expect(WebMercator(tileSize: .t512).point(at(0, -180), atZoom: 1).x == 0)
    }

    @Test func latitudeIsClampedToTheSquareWorld() {
        // At ±85.0511287798066° the square ends: y = 0 and y = T·2^z.
        #expect(close(mercator256.point(at(WebMercator.maxLatitude, 0), atZoom: 0).y, 0, 1e-9))
        #expect(close(mercator256.point(at(90, 0), atZoom: 0).y, 0, 1e-9))
        #expect(close(mercator256.point(at(-89, 0), atZoom: 0).y, 256, 1e-9))
        // lat 45°: sin φ = √2/2, ln((1 + sin φ)/(1 − sin φ)) = 1.762747…,
        // y = (0.5 − 1.762747/(4π)) · 256 = (0.5 − 0.140275) · 256 = 92.0896…
        #expect(close(mercator256.point(at(45, 0), atZoom: 0).y, 92.0896, 1e-4))
    }

    @Test func convertingBackWrapsTheLongitude() {
        let seoul = at(37.4979, 127.0276)
        let back = mercator256.coordinate(at: mercator256.point(seoul, atZoom: 16), atZoom: 16)
        #expect(close(back.latitude, seoul.latitude, 1e-9) && close(back.longitude, seoul.longitude, 1e-9))
        // One world east of lng 170 is lng 170 again; x = size is lng −180 ([−180, 180)).
        #expect(close(mercator256.coordinate(at: MapPoint(x: 256 + 248.888_888_888_888_9, y: 128), atZoom: 0).longitude, 170, 1e-9))
        #expect(mercator256.coordinate(at: MapPoint(x: 256, y: 128), atZoom: 0).longitude == -180)
        #expect(WebMercator.wrappedLongitude(180) == -180)
        #expect(WebMercator.wrappedLongitude(-190) == 170)
    }
}
