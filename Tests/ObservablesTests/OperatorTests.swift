import Observables
import ObservablesTesting
import Testing

@Suite struct OperatorTests {
    let scheduler = VirtualTimeScheduler()

    @Test func mapTransformsValuesAndKeepsTheirTimes() {
        let input = scheduler.hotObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let events = scheduler.recordUntilIdle(input.map { $0 * 10 })
        expectEvents(events, [.next(10, 10), .next(20, 20), .completed(30)])
    }

    @Test func filterKeepsOnlyMatchingValues() {
        let input = scheduler.hotObservable([.next(10, 1), .next(20, 2), .next(30, 3), .error(40, TestError())])
        let events = scheduler.recordUntilIdle(input.filter { $0 % 2 == 1 })
        expectEvents(events, [.next(10, 1), .next(30, 3), .error(40, TestError())])
    }

    @Test func theMapSyncPipelineShapeEmitsOnceTheCarouselRests() {
        // Focused index per frame → debounce → distinct → lookup, as MapSync runs it.
        let stores = ["Gangnam", "Jamsil", "Hongdae"]
        let frame = 1000.0 / 60
        let frames: [(Milliseconds, Int)] = (0..<30).map { (Double($0) * frame, $0 < 20 ? 1 : 2) }
        let input = scheduler.hotObservable(Recorded.values(frames) + [.completed(2000)])
        let pipeline =
            input
            .debounce(250, scheduler: scheduler)
            .distinctUntilChanged()
            .map { stores[$0] }
        let events = scheduler.recordUntilIdle(pipeline)
        expectEvents(events, [.next(29 * frame + 250, "Hongdae"), .completed(2000)])
    }
}
