import CarouselEngine
import Foundation
import MapCamera
import MapSync
import Observables
import Observation
import Testing

/// The app-facing view model: main-actor inputs, async sequences on virtual
/// time, off-main catalog reads, and Observation state.
@MainActor
@Suite struct MapSyncAppModelTests {
    let scheduler = VirtualTimeScheduler()
    let stores = sampleStores(8)

    func model(framing: MapFraming? = nil) -> MapSyncAppModel {
        framing.map { MapSyncAppModel(scheduler: scheduler, framing: $0) } ?? MapSyncAppModel(scheduler: scheduler)
    }

    /// The carousel resting on card `index` at virtual time `time`.
    func frame(_ model: MapSyncAppModel, at time: Milliseconds, focus index: Int, in layout: CarouselLayout) {
        scheduler.advance(to: time)
        model.frame(
            Frame(
                time: time, offset: layout.rest(index), index: index, dataIndex: index, direction: .none, isSettled: false))
    }

    @Test func cameraUpdatesAndMarkerSelectionsArriveAsAsyncSequencesOnVirtualTime() async throws {
        let model = model()
        let layout = try layout(8)
        var cameras = model.cameraUpdates.makeAsyncIterator()
        var markers = model.markerSelections.makeAsyncIterator()
        try model.load(stores, layout: layout)
        #expect(try await cameras.next()?.storeId == "s0")
        #expect(try await markers.next() == MarkerSelection(index: 0, storeId: "s0", previousIndex: nil))

        frame(model, at: 100, focus: 3, in: layout)
        frame(model, at: 200, focus: 4, in: layout)
        // 249 ms after the last frame: nothing yet; at 250 ms, store 4.
        scheduler.advance(to: 449)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(to: 450)
        let camera = try await cameras.next()
        #expect(camera == CameraPosition(index: 4, pin: stores.pins[4], zoom: MapSyncViewModel.defaultZoom))
        #expect(try await markers.next() == MarkerSelection(index: 4, storeId: "s4", previousIndex: 0))

        model.finish()
        #expect(try await cameras.next() == nil)
        #expect(try await markers.next() == nil)
    }

    @Test func aMarkerTapSendsTheScrollCommandAndTheCameraAtOnce() async throws {
        let model = model()
        let layout = try layout(8)
        try model.load(stores, layout: layout)
        var scrolls = model.scrollCommands.makeAsyncIterator()
        var cameras = model.cameraUpdates.makeAsyncIterator()
        try model.tapMarker(5)
        #expect(try await scrolls.next() == ScrollCommand(index: 5, dataIndex: 5, targetOffset: layout.rest(5), animated: true))
        #expect(try await cameras.next()?.index == 5)
        #expect(throws: MapSyncError.indexOutOfRange(index: 8, count: 8)) { try model.tapMarker(8) }
    }

    @Test func aFramedCameraCarriesTheSpanOfTheMapView() async throws {
        let framing = MapFraming(insets: MapInsets(bottom: 240), mode: .inset, zoom: 15)
        let model = model(framing: framing)
        var cameras = model.cameraUpdates.makeAsyncIterator()
        try model.load(stores, layout: try layout(8))
        let camera = try #require(try await cameras.next())
        #expect(camera.span == framing.span(at: camera.viewpoint))
        #expect(camera.span.map { $0.latitudeDelta > 0 && $0.longitudeDelta > 0 } == true)
    }

    @Test func withoutAFramingACameraHasNoSpan() async throws {
        let model = model()
        var cameras = model.cameraUpdates.makeAsyncIterator()
        try model.load(stores, layout: try layout(8))
        #expect(try await cameras.next()?.span == nil)
    }

    @Test func anAsyncLoadReadsOffTheMainActorAndAppliesOnIt() async throws {
        let model = model()
        let stores = stores
        var cameras = model.cameraUpdates.makeAsyncIterator()
        // That the read runs off the main actor is shown by the next test,
        // whose read blocks until the main actor has done something else.
        let applied = try await model.load(focusedIndex: 2) {
            (stores, try layout(stores.count))
        }
        #expect(applied)
        #expect(try await cameras.next()?.index == 2)
    }

    /// Also shows that the read runs off the main actor: it blocks until the
    /// test, on the main actor, has loaded another list — on the main actor
    /// it would deadlock.
    @Test func aSlowReadSupersededByANewerLoadIsDropped() async throws {
        let model = model()
        let stores = stores
        let (started, reading) = AsyncStream<Void>.makeStream()
        let gate = DispatchSemaphore(value: 0)
        // The first load's read blocks (off the main actor) until the test
        // has loaded a newer list.
        let slow = Task { @MainActor in
            try await model.load(focusedIndex: 1) {
                reading.yield()
                gate.wait()
                return (stores, try layout(stores.count))
            }
        }
        for await _ in started { break }
        try model.load(sampleStores(3), layout: try layout(3))
        gate.signal()
        #expect(try await slow.value == false)
        // The newer list of 3 stays loaded.
        #expect(throws: MapSyncError.indexOutOfRange(index: 5, count: 3)) { try model.tapMarker(5) }
    }

    @Test func aReloadKeepsTheFocusedStore() async throws {
        let model = model()
        let layout = try layout(8)
        try model.load(stores, layout: layout, focusedIndex: 3)
        let reversed = InMemoryStoreDirectory(stores.pins.reversed())
        let command = try await model.reload(keepingFocusOn: "s3") { (reversed, layout) }
        // s3 is at position 4 of the reversed list.
        #expect(command == ScrollCommand(index: 4, dataIndex: 4, targetOffset: layout.rest(4), animated: false))
    }

    /// A reload without an id keeps the card the user rests on at the
    /// reload, not the one the map showed when the read began: here the
    /// user swipes to s6 while the new list is read, before the debounce
    /// has moved the map.
    @Test func aReloadKeepsTheCardInFocusAtTheReloadWithoutBeingToldItsId() async throws {
        let model = model()
        let layout = try layout(8)
        var markers = model.markerSelections.makeAsyncIterator()
        try model.load(stores, layout: layout, focusedIndex: 3)
        #expect(try await markers.next()?.storeId == "s3")
        frame(model, at: 100, focus: 6, in: layout)
        let reversed = InMemoryStoreDirectory(stores.pins.reversed())
        let command = try await model.reload { (reversed, layout) }
        // s6 is at position 1 of the reversed list; the camera goes there
        // at once (the map still showed s3).
        #expect(command == ScrollCommand(index: 1, dataIndex: 1, targetOffset: layout.rest(1), animated: false))
        #expect(try await markers.next() == MarkerSelection(index: 1, storeId: "s6", previousIndex: nil))
    }

    /// A tap's scroll in flight: the store it heads for is the one kept.
    @Test func aReloadDuringATapsScrollKeepsItsTarget() throws {
        let model = model()
        let (eight, six) = (try layout(8), try layout(6))
        try model.load(stores, layout: eight, focusedIndex: 0)
        try model.tapMarker(5)
        let shorter = InMemoryStoreDirectory(Array(stores.pins[2...]))
        let command = try model.reload(shorter, layout: six)
        #expect(command?.dataIndex == 3, "s5 is at 3 of s2...s7")
    }

    /// The focused store gone from the new list: the nearest position, as
    /// `reload(keepingFocusOn:)` does; no list before: the first store;
    /// an empty list: no command.
    @Test func aReloadWithoutAFocusedStoreFallsBackAsALoadDoes() throws {
        let model = model()
        let fresh = try model.reload(stores, layout: try layout(8))
        #expect(fresh == ScrollCommand(index: 0, dataIndex: 0, targetOffset: try layout(8).rest(0), animated: false))
        frame(model, at: 10, focus: 7, in: try layout(8))
        let shorter = InMemoryStoreDirectory(Array(stores.pins[0..<4]))
        #expect(try model.reload(shorter, layout: try layout(4))?.dataIndex == 3)
        #expect(try model.reload(InMemoryStoreDirectory([]), layout: try layout(0)) == nil)
        #expect(try model.reload(stores, layout: try layout(8))?.dataIndex == 0)
    }

    @Test func observationTracksTheCameraTheMarkerAndTheFocus() throws {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
        let model = model()
        let layout = try layout(8)
        let state = MapSyncState(observing: model)
        let cameraChanged = LockedFlag(), markerChanged = LockedFlag(), focusChanged = LockedFlag()
        withObservationTracking {
            _ = state.camera
        } onChange: {
            cameraChanged.set(true)
        }
        withObservationTracking {
            _ = state.selectedMarker
        } onChange: {
            markerChanged.set(true)
        }
        withObservationTracking {
            _ = state.focusedIndex
        } onChange: {
            focusChanged.set(true)
        }

        try model.load(stores, layout: layout)
        // Observation calls `onChange` before the change, synchronously, in
        // the model's main-actor call (the state's sinks assume the main
        // actor, and would trap off it).
        #expect(cameraChanged.value == true && markerChanged.value == true)
        #expect(state.camera?.storeId == "s0" && state.selectedMarker?.index == 0)
        #expect(focusChanged.value == nil)

        frame(model, at: 10, focus: 2, in: layout)
        #expect(focusChanged.value == true && state.focusedIndex == 2)
        // The debounced camera, 250 ms later, is observed as well.
        let again = LockedFlag()
        withObservationTracking {
            _ = state.camera
        } onChange: {
            again.set(true)
        }
        scheduler.advance(to: 260)
        #expect(again.value == true && state.camera?.index == 2)
    }

    @Test func aFrameThatKeepsTheFocusDoesNotNotifyObservers() throws {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
        let model = model()
        let layout = try layout(8)
        let state = MapSyncState(observing: model)
        try model.load(stores, layout: layout)
        frame(model, at: 10, focus: 0, in: layout)
        let changed = LockedFlag()
        withObservationTracking {
            _ = state.focusedIndex
        } onChange: {
            changed.set(true)
        }
        frame(model, at: 20, focus: 0, in: layout)
        #expect(changed.value == nil)
    }

    @Test func theModelIsMainActorIsolated() async {
        // Its inputs can be called here, on the main actor, without `await`;
        // from elsewhere they need an `await` hop (a call from a nonisolated
        // context without one does not compile).
        let model = model()
        let offMain = Task.detached { () -> Bool in
            await model.finish()
            return true
        }
        #expect(await offMain.value)
        MainActor.assertIsolated()
    }
}

/// A value set from an `onChange` closure, read by the test.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool?
    var value: Bool? { lock.withLock { stored } }
    func set(_ value: Bool) { lock.withLock { stored = value } }
}

/// The article "Testing a carousel with virtual time", as written there.
@MainActor
@Test func theAppModelsCameraFollowsTheCarousel250MsAfterItsLastFrame() async throws {
    let scheduler = VirtualTimeScheduler()
    let viewModel = MapSyncAppModel(scheduler: scheduler, debounceMs: 250)
    let stores = InMemoryStoreDirectory([
        StorePin(id: "a", latitude: 37.50, longitude: 127.00),
        StorePin(id: "b", latitude: 37.51, longitude: 127.01),
    ])
    let layout = try LayoutSpec().layout(dataCount: stores.count)

    var cameras = viewModel.cameraUpdates.makeAsyncIterator()
    try viewModel.load(stores, layout: layout)  // store a at t = 0, at once
    #expect(try await cameras.next()?.storeId == "a")

    // The user drags to card b: frames every 16 ms until t = 160.
    for (step, time) in stride(from: 16.0, through: 160, by: 16).enumerated() {
        scheduler.advance(to: time)
        try viewModel.scrolled(to: layout.rest(1) * Double(step + 1) / 10)
    }
    // 160 + 250: the camera falls due exactly 250 ms after the last frame.
    scheduler.advance(to: 409.9)
    #expect(scheduler.pendingCount == 1)  // its timer, still waiting
    scheduler.advance(to: 410)
    #expect(scheduler.pendingCount == 0)
    #expect(try await cameras.next()?.storeId == "b")
}
