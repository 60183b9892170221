import CarouselEngine
import Locks
import MapSync
import MapSyncSimulation
import Observables
import ObservablesTesting
import Testing

/// The entry points an app calls: raw scroll offsets, reloads that keep the
/// focused store.
@Suite struct MapSyncViewModelAppTests {
    let scheduler = VirtualTimeScheduler()

    private func recordMap(_ viewModel: MapSyncViewModel) -> EventRecorder<TimelineEntry.Kind> {
        let recorder = EventRecorder<TimelineEntry.Kind>(scheduler: scheduler)
        _ = viewModel.camera.subscribe(onNext: { recorder.observer.onNext(.camera($0)) })
        _ = viewModel.marker.subscribe(onNext: { recorder.observer.onNext(.marker($0)) })
        return recorder
    }

    /// The engine's frames for a fling and a drag back, and the offsets a
    /// scroll view would have reported for them (before any loop jump).
    private func engineFrames(_ layout: CarouselLayout, velocity: Double) throws -> [(reported: Double, frame: Frame)] {
        var scroller = try CarouselScroller(layout: layout, initialIndex: 3)
        let direction = velocity > 0 ? 1.0 : -1.0
        var frames: [(Double, Frame)] = []
        func drain(until end: Double) throws {
            while let due = scroller.nextFrameTime, due <= end {
                let frame = try scroller.frame(at: due)
                // One jump per frame here: the scroll view reported its `from`.
                frames.append((frame.jump?.from ?? frame.offset, frame))
            }
        }
        try scroller.beginDrag(at: 0)
        for step in 1...10 {
            try scroller.drag(translation: Double(step) * 40 * direction, at: Double(step) * 16)
            try drain(until: Double(step) * 16)
        }
        try scroller.release(velocity: velocity, at: 170)
        try drain(until: 5_000)
        try scroller.beginDrag(at: 5_000)
        try scroller.drag(translation: -200 * direction, at: 5_016)
        try drain(until: 5_016)
        try scroller.release(velocity: 0, at: 5_032)
        try drain(until: 10_000)
        return frames
    }

    @Test(arguments: [false, true], [2.5, -2.5])
    func framesDerivedFromOffsetsMatchTheEngines(loop: Bool, velocity: Double) throws {
        let stores = sampleStores(6)
        let layout = try layout(stores.count, LayoutSpec(behavior: .continuous, loop: loop))
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        try viewModel.load(stores, layout: layout, focusedIndex: 3)
        let frames = try engineFrames(layout, velocity: velocity)
        #expect(frames.count > 20)
        if loop { #expect(frames.contains { $0.frame.jump != nil }, "the fling should cross the padding") }
        for (reported, engine) in frames {
            let derived = try #require(try viewModel.scrolled(to: reported))
            #expect(derived.offset == engine.offset, "at \(engine.time)")
            #expect(derived.index == engine.index, "at \(engine.time)")
            #expect(derived.dataIndex == engine.dataIndex, "at \(engine.time)")
            #expect(derived.direction == engine.direction, "at \(engine.time)")
            #expect(derived.jump == engine.jump, "at \(engine.time)")
        }
    }

    /// A right-to-left app reports the flipped flow layout's offsets: the
    /// view model derives the engine's frames from them, direction included
    /// (forward toward later cards while the offset shrinks).
    @Test(arguments: [false, true], [2.5, -2.5])
    func rightToLeftFramesDerivedFromOffsetsMatchTheEngines(loop: Bool, velocity: Double) throws {
        let stores = sampleStores(6)
        let layout = try layout(
            stores.count, LayoutSpec(behavior: .continuous, loop: loop, layoutDirection: .rightToLeft))
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        try viewModel.load(stores, layout: layout, focusedIndex: 3)
        let frames = try engineFrames(layout, velocity: velocity)
        #expect(frames.contains { $0.frame.direction == .forward } && frames.contains { $0.frame.direction == .backward })
        if loop { #expect(frames.contains { $0.frame.jump != nil }, "the fling should cross the padding") }
        for (reported, engine) in frames {
            let derived = try #require(try viewModel.scrolled(to: reported))
            #expect(derived.offset == engine.offset, "at \(engine.time)")
            #expect(derived.dataIndex == engine.dataIndex, "at \(engine.time)")
            #expect(derived.direction == engine.direction, "at \(engine.time)")
            #expect(derived.jump == engine.jump, "at \(engine.time)")
        }
    }

    @Test func scrolledOffsetsPublishTheCardsAndMoveTheCameraAfterTheDebounce() throws {
        let stores = sampleStores(6)
        let layout = try layout(stores.count)
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let map = recordMap(viewModel)
        let cards = EventRecorder<CardState>(scheduler: scheduler)
        cards.record(viewModel.cards)
        try viewModel.load(stores, layout: layout)
        for (time, offset) in [(100.0, 150.0), (116, 250), (132, layout.rest(1))] {
            _ = scheduler.schedule(at: time, lane: .input) { _ = try? viewModel.scrolled(to: offset) }
        }
        scheduler.run()
        expectEvents(map.events, selection(0, 0, previous: nil, in: stores) + selection(382, 1, previous: 0, in: stores))
        #expect(cards.values.map(\.focusedIndex) == [0, 1, 1])
        #expect(cards.values.map(\.direction) == [.forward, .forward, .forward])
        #expect(cards.values.last?.visibleItems == layout.visibleItems(at: layout.rest(1)))
    }

    @Test func aScrollBeforeAnyLoadIsIgnoredAndANonFiniteOffsetIsAnError() throws {
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        #expect(try viewModel.scrolled(to: 100) == nil)
        try viewModel.load(sampleStores(3), layout: layout(3))
        #expect(throws: MapSyncError.nonFiniteOffset(.infinity)) { try viewModel.scrolled(to: .infinity) }
        #expect(throws: MapSyncError.self) { try viewModel.scrolled(to: .nan) }
    }

    // MARK: Reload keeping focus

    /// `pins` of `stores`, by id.
    private func directory(_ ids: [Int], from stores: InMemoryStoreDirectory) -> InMemoryStoreDirectory {
        InMemoryStoreDirectory(ids.map { stores.pins[$0] })
    }

    @Test func aReloadThatKeepsTheStoreInPlaceMovesNoCamera() throws {
        let stores = sampleStores(8)
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let map = recordMap(viewModel)
        try viewModel.load(stores, layout: layout(8), focusedIndex: 3)
        let refreshed = directory([0, 1, 2, 3, 4, 5, 6, 7], from: stores)
        let command = try viewModel.reload(refreshed, layout: layout(8), keepingFocusOn: "s3")
        scheduler.run()
        let camera = map.values.filter { if case .camera = $0 { true } else { false } }
        #expect(camera.count == 1, "only the load's camera: \(map.values)")
        #expect(map.values.last == .marker(MarkerSelection(index: 3, storeId: "s3", previousIndex: nil)))
        #expect(command == ScrollCommand(index: 3, dataIndex: 3, targetOffset: try layout(8).rest(3), animated: false))
    }

    @Test func aReloadFollowsAMovedStoreWithoutMovingTheCamera() throws {
        let stores = sampleStores(8)
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let map = recordMap(viewModel)
        let oldLayout = try layout(8, LayoutSpec(loop: true))
        try viewModel.load(stores, layout: oldLayout, focusedIndex: 3)
        // Re-sorted and shortened: s3 is now the first card of five.
        let resorted = directory([3, 7, 0, 5, 1], from: stores)
        let newLayout = try layout(5, LayoutSpec(loop: true))
        let command = try #require(try viewModel.reload(resorted, layout: newLayout, keepingFocusOn: "s3"))
        #expect(command.dataIndex == 0)
        #expect(command.targetOffset == newLayout.rest(newLayout.firstDataItem))
        expectEvents(
            map.events,
            selection(0, 3, previous: nil, in: stores) + [
                .next(0, .marker(MarkerSelection(index: 0, storeId: "s3", previousIndex: nil)))
            ])
        // Distinct is seeded with the kept store: frames resting on it emit
        // nothing; the next card moves the camera as usual, from index 0.
        _ = scheduler.schedule(at: 100, lane: .input) { _ = try? viewModel.scrolled(to: command.targetOffset) }
        _ = scheduler.schedule(at: 200, lane: .input) { _ = try? viewModel.scrolled(to: newLayout.rest(newLayout.firstDataItem + 1)) }
        scheduler.run()
        expectEvents(Array(map.events.dropFirst(3)), selection(450, 1, previous: 0, in: resorted))
    }

    @Test func aReloadWithoutTheStoreGoesToTheNearestPositionAndMovesTheCamera() throws {
        let stores = sampleStores(8)
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let map = recordMap(viewModel)
        try viewModel.load(stores, layout: layout(8), focusedIndex: 6)
        // s6 removed, and the list now has 4 stores: the last card is nearest.
        let filtered = directory([0, 2, 4, 7], from: stores)
        let command = try viewModel.reload(filtered, layout: layout(4), keepingFocusOn: "s6")
        #expect(command?.dataIndex == 3)
        expectEvents(map.events, selection(0, 6, previous: nil, in: stores) + selection(0, 3, previous: nil, in: filtered))

        // A store removed from a list as long as before: the same position.
        try viewModel.load(stores, layout: layout(8), focusedIndex: 2)
        let shifted = directory([0, 1, 3, 4, 5, 6, 7], from: stores)
        #expect(try viewModel.reload(shifted, layout: layout(7), keepingFocusOn: "s2")?.dataIndex == 2)
        #expect(map.values.last == .marker(MarkerSelection(index: 2, storeId: "s3", previousIndex: nil)))
    }

    @Test func aReloadToAnEmptyListEmitsNothingAndAMismatchedLayoutIsRefused() throws {
        let stores = sampleStores(4)
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let map = recordMap(viewModel)
        try viewModel.load(stores, layout: layout(4))
        #expect(try viewModel.reload(InMemoryStoreDirectory([]), layout: layout(0), keepingFocusOn: "s0") == nil)
        #expect(throws: MapSyncError.layoutCountMismatch(layoutCount: 3, storeCount: 4)) {
            try viewModel.reload(stores, layout: layout(3), keepingFocusOn: "s0")
        }
        expectEvents(map.events, selection(0, 0, previous: nil, in: stores))
    }
}

/// The example of the "Testing a carousel with virtual time" article, as written there.
@Test func theCameraFollowsTheCarousel250MsAfterItsLastFrame() throws {
    let scheduler = VirtualTimeScheduler()
    let viewModel = MapSyncViewModel(scheduler: scheduler, debounceMs: 250)
    let stores = InMemoryStoreDirectory([
        StorePin(id: "a", latitude: 37.50, longitude: 127.00),
        StorePin(id: "b", latitude: 37.51, longitude: 127.01),
    ])
    let layout = try LayoutSpec().layout(dataCount: stores.count)

    let cameras = StateLock<[(time: Double, store: String)]>([])
    _ = viewModel.camera.subscribe(onNext: { camera in
        cameras.withLock { $0.append((scheduler.now, camera.storeId)) }
    })
    try viewModel.load(stores, layout: layout)  // store a at t = 0, at once

    // The user drags to card b: frames every 16 ms until t = 160.
    for (step, time) in stride(from: 16.0, through: 160, by: 16).enumerated() {
        let offset = layout.rest(1) * Double(step + 1) / 10
        _ = scheduler.schedule(at: time, lane: .input) { _ = try? viewModel.scrolled(to: offset) }
    }
    scheduler.run()

    let seen = cameras.withLock { $0 }
    #expect(seen.map(\.store) == ["a", "b"])
    #expect(seen.last?.time == 410)  // 160 + 250: exactly 250 ms after the last frame
}
