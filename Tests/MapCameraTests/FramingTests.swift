import MapCamera
import Testing

/// Each framing mode on numbers worked by hand (a 390 × 844 map, 256-pt
/// tiles unless said).
@Suite("Camera framing")
struct FramingTests {
    @Test func centerPutsTheStoreAtTheViewsCentreAndIgnoresInsets() throws {
        let framing = MapFraming(insets: MapInsets(top: 100, bottom: 300))
        let camera = try #require(framing.frame(at(37.4979, 127.0276)))
        #expect(camera.center == at(37.4979, 127.0276))
        #expect(camera.zoom == 16)
        #expect(camera.target == at(37.4979, 127.0276))
        #expect(camera.padding == .zero)
    }

    @Test func insetShiftsTheCentreByHalfTheInsetsDifference() throws {
        // Zoom 1, T 256: a 512-pt world; the store (0, 0) at (256, 256).
        // Centre = (256 + (0 − 40)/2, 256 + (300 − 100)/2) = (236, 356).
        // x 236: lng = (236/512 − 0.5) · 360 = −14.0625.
        // y 356: φ = 2·atan(exp(π·(1 − 2·356/512))) − 90° = 2·atan(e^(−1.227185)) − 90°
        //        = 2·atan(0.293109) − 90° = 2 · 16.3393° − 90° = −57.3265°.
        let insets = MapInsets(top: 100, left: 40, bottom: 300)
        let framing = MapFraming(insets: insets, mode: .inset, zoom: 1)
        let camera = try #require(framing.frame(at(0, 0)))
        #expect(close(camera.center.longitude, -14.0625))
        #expect(close(camera.center.latitude, -57.326_521_225, 1e-8))
        #expect(camera.zoom == 1)
        #expect(camera.target == at(0, 0))
        #expect(camera.padding == insets)
        // The store on screen: the visible rect's centre, ((40 + 390)/2, (100 + 544)/2) = (215, 322).
        let screen = framing.screenPoint(of: at(0, 0), under: camera.viewpoint)
        #expect(close(screen.x, 215, 1e-9) && close(screen.y, 322, 1e-9))
    }

    @Test func aMinimumZoomRaisesTheZoomUpToMaxZoom() throws {
        let framing = MapFraming(mode: .inset)
        #expect(framing.frame(at(37.5, 127), atLeastZoom: 17.5)?.zoom == 17.5)
        #expect(framing.frame(at(37.5, 127), atLeastZoom: 12)?.zoom == 16)
        #expect(framing.frame(at(37.5, 127), atLeastZoom: 30)?.zoom == 20)
        #expect(framing.frame(at(37.5, 127), atLeastZoom: .nan)?.zoom == 16)
    }

    @Test func fitOfOneStoreIsInsetAtTheGivenZoom() throws {
        let framing = MapFraming(insets: MapInsets(bottom: 240), mode: .fit, zoom: 15)
        let fitted = try #require(framing.frame(at(37.5, 127)))
        var inset = framing
        inset.mode = .inset
        let expected = try #require(inset.frame(at(37.5, 127)))
        #expect(fitted.zoom == 15 && fitted.padding == expected.padding)
        #expect(close(fitted.center.latitude, expected.center.latitude) && close(fitted.center.longitude, expected.center.longitude))
        #expect(close(fitted.target.latitude, 37.5) && close(fitted.target.longitude, 127))
    }

    @Test func fitPutsTwoStoresExactlyThePaddingFromTheEdges() throws {
        // Stores at lng ±10 on the equator: Δx = 20/360 = 1/18 of the world,
        // Δy = 0 (no limit). zoom = log2((390 − 2·32) / (256/18)) =
        // log2(22.921875) = 4 + log2(1.432617) = 4.518653…; centre (0, 0). Half the span is then
        // 326/2 = 163 pt, so the stores sit at 195 ± 163 = 32 and 358.
        let framing = MapFraming(mode: .fit)
        let camera = try #require(framing.frame(at(0, -10), fitting: [at(0, 10)]))
        #expect(close(camera.zoom, 4.518_653_156, 1e-8))
        #expect(close(camera.center.latitude, 0) && close(camera.center.longitude, 0))
        #expect(close(framing.screenPoint(of: at(0, -10), under: camera.viewpoint).x, 32, 1e-9))
        #expect(close(framing.screenPoint(of: at(0, 10), under: camera.viewpoint).x, 358, 1e-9))
    }

    @Test func fitAcrossTheAntimeridianGoesTheShortWay() throws {
        // lng 179 and −179: 2° apart the short way, not 358°. Δx = 1/180:
        // zoom = log2(326 / (256/180)) = log2(229.21875) = 7.840581…; the
        // centre is lng 180, written −180 ([−180, 180)).
        let framing = MapFraming(mode: .fit)
        let camera = try #require(framing.frame(at(0, 179), fitting: [at(0, -179)]))
        #expect(close(camera.zoom, 7.840_581_251, 1e-8))
        #expect(close(abs(camera.center.longitude), 180, 1e-9))
        #expect(close(camera.center.latitude, 0))
        for store in [at(0, 179), at(0, -179)] {
            let x = framing.screenPoint(of: store, under: camera.viewpoint).x
            #expect(close(x, 32, 1e-6) || close(x, 358, 1e-6), "\(x)")
        }
    }

    @Test func fitOfStoresCloserThanMaxZoomCanShowStopsAtMaxZoom() throws {
        // 0.0001° apart: log2(326 · 360 / (256 · 0.0001)) = log2(4584375) = 22.13 > 20.
        let camera = try #require(MapFraming(mode: .fit).frame(at(37.5, 127), fitting: [at(37.5, 127.0001)]))
        #expect(camera.zoom == 20)
        let lower = try #require(MapFraming(mode: .fit, maxZoom: 18, zoom: 16).frame(at(37.5, 127), fitting: [at(37.5, 127.0001)]))
        #expect(lower.zoom == 18)
    }

    @Test func fitIndicesClipToTheListOrWrapInALoop() {
        let framing = MapFraming(mode: .fit, neighbors: 1)
        #expect(framing.fitIndices(around: 0, count: 5, wrapping: false) == [0, 1])
        #expect(framing.fitIndices(around: 0, count: 5, wrapping: true) == [4, 0, 1])
        #expect(framing.fitIndices(around: 4, count: 5, wrapping: true) == [3, 4, 0])
        #expect(framing.fitIndices(around: 0, count: 2, wrapping: true) == [1, 0])
        #expect(MapFraming(neighbors: 2).fitIndices(around: 2, count: 8, wrapping: false) == [0, 1, 2, 3, 4])
        #expect(framing.fitIndices(around: 0, count: 0, wrapping: true) == [])
    }

    @Test func keepStaysUntilTheMarginsEdgeAndMovesJustPastIt() throws {
        // Zoom 2, no insets, margin 48: the safe rect is x in [48, 342],
        // y in [48, 796]. The camera looks at (0, 0), whose screen point is
        // the view's centre (195, 422); 147 pt east is x = 342, the edge.
        let framing = MapFraming(mode: .keep, zoom: 2)
        let current = MapViewpoint(center: at(0, 0), zoom: 2)
        let inside = coordinate(146.999, 0, from: at(0, 0), atZoom: 2)
        let onEdge = coordinate(147, 0, from: at(0, 0), atZoom: 2)
        let outside = coordinate(147.001, 0, from: at(0, 0), atZoom: 2)
        #expect(framing.frame(inside, from: current) == nil)
        #expect(framing.frame(onEdge, from: current) == nil)
        let moved = try #require(framing.frame(outside, from: current))
        // It moves as inset (no insets: centred) at the current zoom.
        #expect(moved.center == outside && moved.zoom == 2)
    }

    @Test func keepWithABottomCarouselMovesAsInsetAtTheCurrentZoom() throws {
        // Bottom inset 300: safe y in [48, 844 − 300 − 48] = [48, 496]. The
        // camera (0, 0) at zoom 3 shows it at y 422; 74 pt south is 496.
        let framing = MapFraming(insets: MapInsets(bottom: 300), mode: .keep, zoom: 16)
        let current = MapViewpoint(center: at(0, 0), zoom: 3)
        #expect(framing.frame(coordinate(0, 73.999, from: at(0, 0), atZoom: 3), from: current) == nil)
        let store = coordinate(0, 74.001, from: at(0, 0), atZoom: 3)
        let moved = try #require(framing.frame(store, from: current))
        // Inset at zoom 3: the centre is the store's point + (0, 300/2).
        #expect(moved.zoom == 3)
        let expected = coordinate(0, 150, from: store, atZoom: 3)
        #expect(close(moved.center.latitude, expected.latitude) && close(moved.center.longitude, expected.longitude))
        #expect(moved.target == store && moved.padding == MapInsets(bottom: 300))
    }

    @Test func keepAtLoadFramesAsInsetAtTheGivenZoom() throws {
        let framing = MapFraming(insets: MapInsets(bottom: 240), mode: .keep, zoom: 15)
        var inset = framing
        inset.mode = .inset
        #expect(framing.frame(at(37.5, 127)) == inset.frame(at(37.5, 127)))
    }

    @Test func keepMovesWhenTheZoomIsBelowTheMinimumAsked() throws {
        let framing = MapFraming(mode: .keep)
        let current = MapViewpoint(center: at(37.5, 127), zoom: 14)
        #expect(framing.frame(at(37.5, 127), from: current, atLeastZoom: 14) == nil)
        let moved = try #require(framing.frame(at(37.5, 127), from: current, atLeastZoom: 15))
        #expect(moved.zoom == 15)
        #expect(close(moved.center.latitude, 37.5) && close(moved.center.longitude, 127))
    }
}
