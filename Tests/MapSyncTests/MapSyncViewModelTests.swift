import CarouselEngine
import MapSync
import MapSyncSimulation
import Observables
import ObservablesTesting
import Testing

/// The view model against its contract (debounce, then distinct, then lookup), fed frames on a virtual clock and
/// compared as marble diagrams.
@Suite struct MapSyncViewModelTests {
    let scheduler = VirtualTimeScheduler()
    let stores = sampleStores(8)

    /// Records camera and marker into one timeline, as the simulator does.
    private func recordMap(_ viewModel: MapSyncViewModel) -> EventRecorder<TimelineEntry.Kind> {
        let recorder = EventRecorder<TimelineEntry.Kind>(scheduler: scheduler)
        _ = viewModel.camera.subscribe(onNext: { recorder.observer.onNext(.camera($0)) })
        _ = viewModel.marker.subscribe(onNext: { recorder.observer.onNext(.marker($0)) })
        return recorder
    }

    /// A view model showing `stores` on the default layout, resting on card
    /// 0, with its camera and marker recorded.
    private func loaded(
        debounceMs: Milliseconds = 250, zoom: Double = 16
    ) throws -> (MapSyncViewModel, EventRecorder<TimelineEntry.Kind>, CarouselLayout) {
        let viewModel = MapSyncViewModel(scheduler: scheduler, debounceMs: debounceMs, zoom: zoom)
        let map = recordMap(viewModel)
        let layout = try layout(stores.count)
        try viewModel.load(stores, layout: layout)
        return (viewModel, map, layout)
    }

    /// Sends a frame resting on data item `index` at `time`, on the input lane.
    private func frame(_ viewModel: MapSyncViewModel, at time: Milliseconds, focus index: Int, in layout: CarouselLayout) {
        let offset = layout.rest(layout.firstDataItem + index)
        let frame = Frame(
            time: time, offset: offset, index: layout.focusedItem(at: offset),
            dataIndex: layout.focusedDataIndex(at: offset), direction: .none, isSettled: false)
        _ = scheduler.schedule(at: time, lane: .input) { viewModel.frame(frame) }
    }

    @Test func loadEmitsTheInitialStoreAtOnceWithoutWaitingForTheDebounce() throws {
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let map = recordMap(viewModel)
        try viewModel.load(stores, layout: layout(8), focusedIndex: 2)
        expectEvents(map.events, selection(0, 2, previous: nil, in: stores))
    }

    @Test func framesThatKeepTheInitialFocusEmitNothingMore() throws {
        let (viewModel, map, layout) = try loaded()
        for t in stride(from: 0.0, through: 1000, by: 100) { frame(viewModel, at: t, focus: 0, in: layout) }
        scheduler.run()
        expectEvents(map.events, selection(0, 0, previous: nil, in: stores))
    }

    @Test func aFocusChangeEmitsDebounceMsAfterTheLastFrame() throws {
        let (viewModel, map, layout) = try loaded()
        // Card 1 reported every 100 ms until 600: the camera waits for the silence.
        for t in stride(from: 100.0, through: 600, by: 100) { frame(viewModel, at: t, focus: 1, in: layout) }
        scheduler.run()
        expectEvents(map.events, selection(0, 0, previous: nil, in: stores) + selection(850, 1, previous: 0, in: stores))
    }

    @Test func backAndForthWithinTheWindowEmitsNothing() throws {
        // A → B → A inside 250 ms: debounce keeps A, distinct drops it (debounce first, then distinct).
        let (viewModel, map, layout) = try loaded()
        frame(viewModel, at: 100, focus: 1, in: layout)
        frame(viewModel, at: 200, focus: 0, in: layout)
        scheduler.run()
        expectEvents(map.events, selection(0, 0, previous: nil, in: stores))
    }

    @Test func aFrameAtTheInstantTheTimerFallsDueRestartsIt() throws {
        // Inputs before timers at equal times: the frame at 350
        // (card 2) lands before the timer armed for card 1 at 350.
        let (viewModel, map, layout) = try loaded()
        frame(viewModel, at: 100, focus: 1, in: layout)
        frame(viewModel, at: 350, focus: 2, in: layout)
        scheduler.run()
        expectEvents(map.events, selection(0, 0, previous: nil, in: stores) + selection(600, 2, previous: 0, in: stores))
    }

    @Test func aMarkerTapSelectsAtOnceCommandsAScrollAndDoesNotEchoWhenTheCarouselSettles() throws {
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let map = recordMap(viewModel)
        let scrolls = scheduler.record(viewModel.carouselScroll)
        let layout = try layout(8)
        try viewModel.load(stores, layout: layout)
        _ = scheduler.schedule(at: 1000, lane: .input) { try? viewModel.tapMarker(5) }
        // The scroll's frames pass cards 1…4 and settle on 5.
        for (step, card) in [1, 2, 3, 4, 5, 5].enumerated() {
            frame(viewModel, at: 1016 + 50 * Double(step), focus: card, in: layout)
        }
        scheduler.run()
        expectEvents(map.events, selection(0, 0, previous: nil, in: stores) + selection(1000, 5, previous: 0, in: stores))
        expectEvents(scrolls.events, [.next(1000, ScrollCommand(index: 5, dataIndex: 5, targetOffset: 1560, animated: true))])
    }

    @Test func aMarkerTapInALoopScrollsToTheNearestTwin() throws {
        // 5 stores, 2 copies each end: data 4 is shown by items 1 and 6.
        // Resting on data 0 (item 2, offset 624), item 1 is the near one.
        let stores = sampleStores(5)
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let scrolls = scheduler.record(viewModel.carouselScroll)
        try viewModel.load(stores, layout: layout(5, LayoutSpec(loop: true)))
        try viewModel.tapMarker(4)
        expectEvents(scrolls.events, [.next(0, ScrollCommand(index: 1, dataIndex: 4, targetOffset: 312, animated: true))])
    }

    @Test func aNewListResetsTheInitialEmissionAndDropsThePendingValue() throws {
        let (viewModel, map, layout) = try loaded()
        frame(viewModel, at: 100, focus: 3, in: layout)  // pending until 350…
        let other = InMemoryStoreDirectory(Array(stores.pins.reversed()))
        _ = scheduler.schedule(at: 200, lane: .input) { try? viewModel.load(other, layout: layout) }  // …dropped here
        scheduler.run()
        // Index 0 again, yet emitted: distinct is re-seeded; no previous marker in the new list.
        expectEvents(map.events, selection(0, 0, previous: nil, in: stores) + selection(200, 0, previous: nil, in: other))
    }

    @Test func anEmptyListEmitsNothingAndDoesNotCrash() throws {
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let map = recordMap(viewModel)
        let cards = scheduler.record(viewModel.cards)
        let empty = InMemoryStoreDirectory([])
        let layout = try layout(0)
        try viewModel.load(empty, layout: layout)
        viewModel.frame(Frame(time: 0, offset: 0, index: nil, dataIndex: nil, direction: .none, isSettled: true))
        #expect(throws: MapSyncError.indexOutOfRange(index: 0, count: 0)) { try viewModel.tapMarker(0) }
        scheduler.run()
        #expect(map.events.isEmpty)
        #expect(cards.values == [CardState(focusedIndex: nil, direction: .none, visibleItems: layout.visibleItems(at: 0))])
        #expect(cards.values.first?.visibleItems.isEmpty == true)
    }

    @Test func cardsFollowEveryFrameWithVisibleItemsAndScale() throws {
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let cards = scheduler.record(viewModel.cards)
        let layout = try layout(8)
        try viewModel.load(stores, layout: layout)
        // Centred card 1 at offset 312: viewport [312, 702]; card 1 spans
        // [357, 657], its neighbours show 33 pt each (the visibleItemsInvalidationHandler article's percentVisible).
        viewModel.frame(Frame(time: 0, offset: 312, index: 1, dataIndex: 1, direction: .forward, isSettled: true))
        let state = try #require(cards.values.first)
        #expect(state.focusedIndex == 1)
        #expect(state.direction == .forward)
        #expect(state.visibleItems.map(\.index) == [0, 1, 2])
        let peek: Double = 33.0 / 300
        #expect(state.visibleItems.map(\.fraction) == [peek, 1, peek])
        #expect(state.visibleItems[1].scale == 1)
        #expect(abs(state.visibleItems[0].scale - (0.7 + 0.3 * peek)) < 1e-12)
    }

    @Test func finishFlushesThePendingValueAtOnce() throws {
        let (viewModel, map, layout) = try loaded()
        frame(viewModel, at: 100, focus: 4, in: layout)
        _ = scheduler.schedule(at: 200, lane: .input) { viewModel.finish() }
        scheduler.run()
        expectEvents(map.events, selection(0, 0, previous: nil, in: stores) + selection(200, 4, previous: 0, in: stores))
    }

    @Test func zeroDebouncePassesEveryChangeThroughAtOnce() throws {
        let (viewModel, map, layout) = try loaded(debounceMs: 0, zoom: 14)
        frame(viewModel, at: 10, focus: 1, in: layout)
        frame(viewModel, at: 20, focus: 1, in: layout)
        frame(viewModel, at: 30, focus: 2, in: layout)
        scheduler.run()
        expectEvents(
            map.events,
            selection(0, 0, previous: nil, in: stores, zoom: 14)
                + selection(10, 1, previous: 0, in: stores, zoom: 14)
                + selection(30, 2, previous: 1, in: stores, zoom: 14))
    }

    @Test func aFailingLookupEndsTheMapOutputsWithItsError() throws {
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let camera = scheduler.record(viewModel.camera)
        try viewModel.load(FailingStoreDirectory(count: 3), layout: layout(3))
        expectEvents(camera.events, [.error(0, FailingStoreDirectory.Failure())])
    }

    @Test func loadRejectsAMismatchedLayoutOrAnInitialIndexOutOfRange() throws {
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        #expect(throws: MapSyncError.layoutCountMismatch(layoutCount: 5, storeCount: 8)) {
            try viewModel.load(stores, layout: layout(5))
        }
        #expect(throws: MapSyncError.indexOutOfRange(index: 8, count: 8)) {
            try viewModel.load(stores, layout: layout(8), focusedIndex: 8)
        }
        #expect(
            MapSyncError.indexOutOfRange(index: 8, count: 8).description
                == "store 8 is out of range: the list has 8 stores (0...7)")
    }
}
