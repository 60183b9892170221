import Observables
import ObservablesTesting
import Testing

@Suite struct DistinctUntilChangedTests {
    let scheduler = VirtualTimeScheduler()

    private struct Store: Equatable, Sendable {
        let id: Int
        let name: String
    }

    @Test func aValuePassesWhenItDiffersFromTheLastEmittedOne() {
        let input = scheduler.hotObservable([
            .next(10, "A"), .next(20, "A"), .next(30, "B"), .next(40, "B"), .next(50, "A"), .completed(60),
        ])
        let events = scheduler.recordUntilIdle(input.distinctUntilChanged())
        expectEvents(events, [.next(10, "A"), .next(30, "B"), .next(50, "A"), .completed(60)])
    }

    @Test func aKeyComparesOnlyThatPartOfEachValue() {
        let input = scheduler.hotObservable([
            .next(10, Store(id: 1, name: "Gangnam")),
            .next(20, Store(id: 1, name: "Gangnam (renamed)")),
            .next(30, Store(id: 2, name: "Jamsil")),
            .next(40, Store(id: 1, name: "Gangnam")),
        ])
        let events = scheduler.recordUntilIdle(input.distinctUntilChanged(by: \.id))
        expectEvents(
            events,
            [
                .next(10, Store(id: 1, name: "Gangnam")),
                .next(30, Store(id: 2, name: "Jamsil")),
                .next(40, Store(id: 1, name: "Gangnam")),
            ])
    }

    @Test func aComparerDecidesEquivalence() {
        let input = scheduler.hotObservable([.next(10, "a"), .next(20, "A"), .next(30, "b"), .next(40, "B")])
        let events = scheduler.recordUntilIdle(input.distinctUntilChanged { $0.lowercased() == $1.lowercased() })
        expectEvents(events, [.next(10, "a"), .next(30, "b")])
    }

    @Test func comparisonIsAgainstTheLastEmittedValueNotTheLastSeen() {
        // Equivalent when within 1 of each other: 0, 1, 2 drifts, but each is
        // compared with 0, the last emitted, so 2 passes.
        let input = scheduler.hotObservable([.next(10, 0), .next(20, 1), .next(30, 2), .next(40, 3)])
        let events = scheduler.recordUntilIdle(input.distinctUntilChanged { abs($0 - $1) <= 1 })
        expectEvents(events, [.next(10, 0), .next(30, 2)])
    }

    @Test func errorsPassThrough() {
        let input = scheduler.hotObservable([.next(10, "A"), .error(20, TestError("gone"))])
        let events = scheduler.recordUntilIdle(input.distinctUntilChanged())
        expectEvents(events, [.next(10, "A"), .error(20, TestError("gone"))])
    }

    @Test func debounceThenDistinctIgnoresAnAToBToAWobble() {
        // Debounce first, then distinct, so A→B→A inside one window
        // emits nothing new after A.
        let input = scheduler.hotObservable([
            .next(0, "A"),
            .next(1000, "B"), .next(1100, "A"),
            .next(2000, "C"),
            .completed(3000),
        ])
        let pipeline = input.debounce(250, scheduler: scheduler).distinctUntilChanged()
        let events = scheduler.recordUntilIdle(pipeline)
        expectEvents(events, [.next(250, "A"), .next(2250, "C"), .completed(3000)])
    }
}
