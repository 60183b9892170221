import CarouselEngine
import Foundation
import MapCamera
import MapSync
import MapSyncSimulation
import Observables
import ObservablesTesting
import Testing

/// The view model with a map framing: the same timeline as without one —
/// debounce, distinct, taps — with every camera framed for the map the
/// carousel covers, and in `keep` mode the marker alone while the store
/// stays in view.
@Suite struct MapSyncFramingTests {
    let scheduler = VirtualTimeScheduler()
    /// Stores 0.01° apart in latitude and longitude from (37.5, 127).
    let stores = sampleStores(8)

    /// A 390 × 844 map whose bottom 240 pt the carousel covers.
    static func map(_ mode: FramingMode, zoom: Double) -> MapFraming {
        MapFraming(insets: MapInsets(bottom: 240), mode: mode, zoom: zoom)
    }

    private func record(_ viewModel: MapSyncViewModel) -> EventRecorder<TimelineEntry.Kind> {
        let recorder = EventRecorder<TimelineEntry.Kind>(scheduler: scheduler)
        _ = viewModel.camera.subscribe(onNext: { recorder.observer.onNext(.camera($0)) })
        _ = viewModel.marker.subscribe(onNext: { recorder.observer.onNext(.marker($0)) })
        return recorder
    }

    private func frame(_ viewModel: MapSyncViewModel, at time: Milliseconds, focus index: Int, in layout: CarouselLayout) {
        let offset = layout.rest(index)
        let frame = Frame(
            time: time, offset: offset, index: index, dataIndex: index, direction: .none, isSettled: false)
        _ = scheduler.schedule(at: time, lane: .input) { viewModel.frame(frame) }
    }

    private func coordinate(_ index: Int) -> Coordinate {
        Coordinate(latitude: stores.pins[index].latitude, longitude: stores.pins[index].longitude)
    }

    /// Store `index`'s camera as the framing chooses it, reached from `previous`.
    private func camera(_ index: Int, _ framing: MapFraming, from previous: MapViewpoint?) throws -> CameraPosition {
        let framed = try #require(framing.frame(coordinate(index), from: previous))
        return CameraPosition(
            index: index, pin: stores.pins[index], framed: framed,
            animation: framing.transition(from: previous, to: framed.viewpoint))
    }

    private func marker(_ time: Milliseconds, _ index: Int, previous: Int?) -> Recorded<TimelineEntry.Kind> {
        .next(time, .marker(MarkerSelection(index: index, storeId: stores.pins[index].id, previousIndex: previous)))
    }

    @Test func aFlingInKeepModeSelectsTheMarkerWithoutACameraWhileTheStoreIsInView() throws {
        // Zoom 12 (256-pt tiles): the world is 2^20 = 1,048,576 pt wide, so
        // 0.01° of longitude is 29.1 pt and 0.01° of latitude at 37.5° is
        // 29.1 / cos 37.5° = 36.7 pt. At load, keep frames as inset: store 0
        // at the visible rect's centre (195, 302). Its safe rect is x in
        // [48, 342], y in [48, 556]: store 3 (3 · 29.1 = 87 pt east, 110 pt
        // north: (282, 192)) is inside; store 7 (204 pt east: x 399) is not.
        let framing = Self.map(.keep, zoom: 12)
        let viewModel = MapSyncViewModel(scheduler: scheduler, framing: framing)
        let map = record(viewModel)
        let layout = try layout(8)
        try viewModel.load(stores, layout: layout)
        for t in stride(from: 100.0, through: 600, by: 100) { frame(viewModel, at: t, focus: 3, in: layout) }
        for t in stride(from: 1000.0, through: 1100, by: 100) { frame(viewModel, at: t, focus: 7, in: layout) }
        scheduler.run()

        let first = try camera(0, framing, from: nil)
        let seventh = try camera(7, framing, from: first.viewpoint)
        expectEvents(
            map.events,
            [
                .next(0, .camera(first)), marker(0, 0, previous: nil),
                marker(850, 3, previous: 0),  // the fling's card is in view: no camera
                .next(1350, .camera(seventh)), marker(1350, 7, previous: 3),
            ])
        #expect(first.animation == CameraTransition.none)
        let screen = framing.screenPoint(of: coordinate(3), under: first.viewpoint)
        #expect(abs(screen.x - 282.4) < 0.1 && abs(screen.y - 191.9) < 0.5, "\(screen)")
        // Store 7 moved the camera as inset at the same zoom: it sits at the visible rect's centre.
        #expect(seventh.zoom == 12 && seventh.animation?.kind == .fly)
        let seventhOnScreen = framing.screenPoint(of: coordinate(7), under: seventh.viewpoint)
        #expect(abs(seventhOnScreen.x - 195) < 1e-6 && abs(seventhOnScreen.y - 302) < 1e-6)
    }

    /// A rotation: the map turns 844 × 390 and the carousel covers its
    /// bottom 120 pt. The selected store is framed for that map at once, in
    /// a camera that jumps (the map's own size changed: nothing to fly), with
    /// no marker; the next cameras are framed for it too.
    @Test func aNewMapSizeFramesTheSelectedStoreAtOnceAndEveryCameraAfter() throws {
        let portrait = Self.map(.inset, zoom: 13)
        let landscape = {
            var turned = portrait
            (turned.mapWidth, turned.mapHeight, turned.insets) = (844, 390, MapInsets(bottom: 120))
            return turned
        }()
        let viewModel = MapSyncViewModel(scheduler: scheduler, framing: portrait)
        let map = record(viewModel)
        let layout = try layout(8)
        // Nothing selected yet: nothing to frame.
        try viewModel.setFraming(portrait)
        try viewModel.load(stores, layout: layout)
        _ = scheduler.schedule(at: 500, lane: .input) { try? viewModel.setFraming(landscape) }
        for t in stride(from: 1000.0, through: 1100, by: 100) { frame(viewModel, at: t, focus: 2, in: layout) }
        scheduler.run()

        let first = try camera(0, portrait, from: nil)
        var turned = try camera(0, landscape, from: nil)
        turned.animation = .jump
        let second = try camera(2, landscape, from: turned.viewpoint)
        expectEvents(
            map.events,
            [
                .next(0, .camera(first)), marker(0, 0, previous: nil),
                .next(500, .camera(turned)),
                .next(1350, .camera(second)), marker(1350, 2, previous: 0),
            ])
        #expect(viewModel.framing == landscape)
        // Store 0 sits in the middle of the landscape map's visible rect.
        let onScreen = landscape.screenPoint(of: coordinate(0), under: turned.viewpoint)
        #expect(abs(onScreen.x - 422) < 1e-6 && abs(onScreen.y - 135) < 1e-6)
    }

    @Test func aFramingThatDoesNotValidateIsRefusedAndTheOldOneStays() throws {
        let framing = Self.map(.inset, zoom: 13)
        let viewModel = MapSyncViewModel(scheduler: scheduler, framing: framing)
        var broken = framing
        broken.mapWidth = -1
        #expect(throws: MapFramingError.self) { try viewModel.setFraming(broken) }
        #expect(viewModel.framing == framing)
    }

    @Test func aTapInInsetModeFliesAtOnceAndTheSettlingScrollDoesNotEcho() throws {
        // Zoom 13 (a 2,097,152-pt world): store 5 is 0.05° away, 291.3 pt
        // east and 367.3 pt north; both cameras are shifted alike by the
        // inset, so u1 = √(291.3² + 367.3²) = 468.7 pt at the same zoom:
        // b0 = 1.42² · 468.7 / (2 · 844) = 0.5599, S = 2 · asinh(0.5599) / 1.42
        // = 0.7524, a flight of 1000 · S / 1.2 = 627.0 ms (< 2000: fly).
        let framing = Self.map(.inset, zoom: 13)
        let viewModel = MapSyncViewModel(scheduler: scheduler, framing: framing)
        let map = record(viewModel)
        let layout = try layout(8)
        try viewModel.load(stores, layout: layout)
        _ = scheduler.schedule(at: 1000, lane: .input) { try? viewModel.tapMarker(5) }
        for (step, card) in [1, 2, 3, 4, 5, 5].enumerated() {
            frame(viewModel, at: 1016 + 50 * Double(step), focus: card, in: layout)
        }
        scheduler.run()

        let first = try camera(0, framing, from: nil)
        let tapped = try camera(5, framing, from: first.viewpoint)
        expectEvents(
            map.events,
            [
                .next(0, .camera(first)), marker(0, 0, previous: nil),
                .next(1000, .camera(tapped)), marker(1000, 5, previous: 0),
            ])
        let flight = try #require(tapped.animation)
        #expect(flight.kind == .fly)
        #expect(abs(flight.durationMs - 626.96) < 0.01, "\(flight)")
        #expect(tapped.target == coordinate(5) && tapped.padding == MapInsets(bottom: 240))
    }

    @Test func aTapInKeepModeOnAMarkerInViewSelectsItWithoutMovingTheCamera() throws {
        let framing = Self.map(.keep, zoom: 12)
        let viewModel = MapSyncViewModel(scheduler: scheduler, framing: framing)
        let map = record(viewModel)
        let scrolls = scheduler.record(viewModel.carouselScroll)
        try viewModel.load(stores, layout: layout(8))
        _ = scheduler.schedule(at: 500, lane: .input) { try? viewModel.tapMarker(2) }
        scheduler.run()
        expectEvents(map.events, [.next(0, .camera(try camera(0, framing, from: nil))), marker(0, 0, previous: nil), marker(500, 2, previous: 0)])
        #expect(scrolls.values.map(\.dataIndex) == [2], "the carousel still scrolls to the card")
    }

    @Test func fitFramesTheFocusedStoreWithItsNeighbours() throws {
        let framing = Self.map(.fit, zoom: 16)
        let viewModel = MapSyncViewModel(scheduler: scheduler, framing: framing)
        let cameras = scheduler.record(viewModel.camera)
        try viewModel.load(stores, layout: layout(8), focusedIndex: 4)
        let framed = try #require(framing.frame(coordinate(4), fitting: [coordinate(3), coordinate(5)]))
        let camera = try #require(cameras.values.first)
        #expect(camera.viewpoint == framed.viewpoint && camera.target == framed.target)
        // Stores 3…5 span 0.02° (58 pt at zoom 12): the fit zooms far in, below maxZoom.
        #expect(camera.zoom > 14 && camera.zoom < 20, "\(camera.zoom)")
        for index in 3...5 {
            let screen = framing.screenPoint(of: coordinate(index), under: camera.viewpoint)
            #expect(framing.visibleRect.insetBy(framing.fitPadding - 1e-6).contains(screen), "\(index): \(screen)")
        }
    }

    @Test func aScriptsMapObjectFramesEveryCameraOfTheSimulation() throws {
        let json = #"""
            {"map": {"mapWidth": 390, "mapHeight": 844, "insets": [0, 0, 240, 0], "framing": "keep", "zoom": 12},
             "events": [{"at": 0, "drag": {"by": 320, "durationMs": 150, "velocity": 1}}, {"at": 3000, "end": true}]}
            """#
        let script = try ScrollScript(json: Data(json.utf8))
        #expect(script.map == Self.map(.keep, zoom: 12))
        let run = try ScrollSimulation(script: script, stores: stores).run()
        let kinds = run.timeline.map(\.kind.name)
        // The swipe lands on card 1, in view at zoom 12: its marker, no camera.
        #expect(kinds == ["camera", "marker", "marker"], "\(run.timeline)")
        if case .camera(let camera) = run.timeline[0].kind {
            #expect(camera.animation == CameraTransition.none && camera.padding == MapInsets(bottom: 240))
        }
    }

    @Test func aBadMapObjectNamesItsKeyAndRange() {
        func message(_ map: String) -> String? {
            do {
                _ = try ScrollScript(json: Data(#"{"map": \#(map), "events": []}"#.utf8))
                return nil
            } catch {
                return error.description
            }
        }
        #expect(message(#"{"tileSize": 300}"#) == "scroll script: map.tileSize must be 256 or 512 (got 300)")
        #expect(message(#"{"framing": "zoom"}"#) == "scroll script: map.framing must be one of center, inset, fit, keep (got 'zoom')")
        #expect(message(#"{"mapWidth": 0}"#) == "scroll script: map.mapWidth must be a finite number of points in (0, 100000] (got 0)")
        #expect(
            message(#"{"insets": {"bottom": 900}}"#)
                == "scroll script: map.insets must be top + bottom < mapHeight 844 so the visible rect has a height (got top + bottom = 900)")
        #expect(message(#"{"zoom": 21}"#) == "scroll script: map.zoom must be a zoom in [minZoom 0, maxZoom 20] (got 21)")
        #expect(message(#"{"insets": [1, 2]}"#) == "scroll script: map.insets must be [top, left, bottom, right]: 4 numbers (got 2)")
        #expect(message(#"{"zoomLevel": 3}"#)?.hasPrefix("scroll script: unknown key 'zoomLevel' in map") == true)
    }
}
