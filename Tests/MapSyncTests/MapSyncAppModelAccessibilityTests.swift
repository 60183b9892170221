import CarouselEngine
import MapSync
import Observables
import Testing

/// The app model's accessibility surface on the main actor: paging, the
/// statuses and autoplay states as async sequences, reduced motion, on
/// virtual time.
@MainActor
@Suite struct MapSyncAppModelAccessibilityTests {
    let scheduler = VirtualTimeScheduler()
    let stores = sampleStores(8)

    @Test func pagingSendsTheScrollAndTheStatusAsAsyncSequences() async throws {
        let model = MapSyncAppModel(scheduler: scheduler)
        let layout = try layout(8, LayoutSpec(layoutDirection: .rightToLeft))
        try model.load(stores, layout: layout)
        var statuses = model.accessibilityStatuses.makeAsyncIterator()
        var scrolls = model.scrollCommands.makeAsyncIterator()
        model.setStatusTemplate(try StatusTemplate("{position} / {count}"))
        #expect(model.accessibilityIncrement())
        #expect(try await scrolls.next() == ScrollCommand(index: 1, dataIndex: 1, targetOffset: layout.rest(1), animated: true))
        #expect(try await statuses.next() == AccessibilityStatus(index: 1, text: "2 / 8"))
        // Reduced motion: the next page jumps.
        model.setReduceMotion(true)
        model.frame(Frame(time: 0, offset: layout.rest(1), index: 1, dataIndex: 1, direction: .forward, isSettled: true))
        #expect(model.accessibilityScroll(.next))
        #expect(try await scrolls.next()?.animated == false)
        #expect(try await statuses.next() == AccessibilityStatus(index: 2, text: "3 / 8"))
    }

    @Test func autoplayStatesArriveAsAnAsyncSequenceAndTurnOnTheVirtualClock() async throws {
        let model = MapSyncAppModel(scheduler: scheduler)
        try model.load(stores, layout: try layout(8))
        var states = model.autoplayStates.makeAsyncIterator()
        var scrolls = model.scrollCommands.makeAsyncIterator()
        model.setAutoplay(try AutoplaySettings(intervalMs: 5000))
        #expect(try await states.next() == AutoplayState(isPlaying: true, reasons: []))
        scheduler.advance(to: 5000)
        #expect(try await scrolls.next()?.dataIndex == 1)
        try model.setPause(.voiceOver, true)
        #expect(try await states.next() == AutoplayState(isPlaying: false, reasons: [.voiceOver]))
        model.stop()
        try model.setPause(.voiceOver, false)
        #expect(try await states.next() == AutoplayState(isPlaying: false, reasons: [.voiceOver, .userStop]))
        #expect(try await states.next() == AutoplayState(isPlaying: false, reasons: [.userStop]))
        model.play()
        #expect(try await states.next() == AutoplayState(isPlaying: true, reasons: []))
    }
}
