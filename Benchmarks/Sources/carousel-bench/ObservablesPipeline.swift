import CarouselEngine
import Observables

/// The focus pipeline on our observable, in virtual time, composed as the
/// map-sync view model composes it (SPEC §5): raw offset → focused data
/// index (`CarouselLayout.focusedDataIndex(at:)`) → `debounce` →
/// `distinctUntilChanged` → store lookup.
enum ObservablesPipeline {
    /// Feeds `events` through the pipeline and returns what it emitted.
    ///
    /// Out of line, like ``driveOnly(_:)``, so that callgrind can collect
    /// each alone (`--toggle-collect`, see BENCHMARKS.md).
    @inline(never)
    static func run(
        _ events: [OffsetEvent],
        layout: CarouselLayout,
        stores: StoreDirectory,
        debounceMs: Double
    ) -> [FocusEmission] {
        let scheduler = VirtualTimeScheduler()
        let offsets = PublishSubject<Double>()
        let recorder = EmissionRecorder()
        let subscription = offsets.asObservable()
            // The benchmark's carousel is never empty, so there is always a focus.
            .map { offset in layout.focusedDataIndex(at: offset) ?? 0 }
            .debounce(debounceMs, scheduler: scheduler)
            .distinctUntilChanged()
            .map { index in (index, stores.entry(at: index)) }
            .subscribe(onNext: { index, store in
                recorder.record(FocusEmission(time: scheduler.now, index: index, storeID: store.id))
            })
        feed(events, through: scheduler) { offset in offsets.onNext(offset) }
        // The last gesture's debounce falls due after the last frame.
        scheduler.run()
        subscription.dispose()
        return recorder.emissions
    }

    /// The virtual-time driver alone, each event sent nowhere: what feeding
    /// costs before any operator runs.
    @inline(never)
    static func driveOnly(_ events: [OffsetEvent]) {
        let scheduler = VirtualTimeScheduler()
        let sink = DiscardingSink()
        feed(events, through: scheduler) { offset in sink.take(offset) }
    }

    /// Sends each event at its time: the clock moved to it as for an input
    /// (`advance(toInputAt:)`: everything due before it runs, timers due at
    /// the same instant wait), so an offset at T is seen before a debounce
    /// timer falling due at T (SPEC §5); then the offset sent directly.
    private static func feed(
        _ events: [OffsetEvent],
        through scheduler: VirtualTimeScheduler,
        send: (Double) -> Void
    ) {
        for event in events {
            scheduler.advance(toInputAt: event.time)
            send(event.offset)
        }
    }
}

/// Where the driver-only runs send their events: a call the optimizer
/// cannot remove, and nothing else.
final class DiscardingSink: Sendable {
    @inline(never)
    func take(_ offset: Double) {}
}
