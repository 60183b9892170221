import CarouselEngine
import Observables

/// The focus pipeline on our observable, in virtual time, composed as the
/// map-sync view model composes it: raw offset → focused data
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
        InputDriver.feed(events, through: scheduler) { offset in offsets.onNext(offset) }
        // The last gesture's debounce falls due after the last frame.
        scheduler.run()
        subscription.dispose()
        return recorder.emissions
    }

    /// The virtual-time driver alone, each event sent nowhere: what feeding
    /// costs before any operator runs.
    @inline(never)
    static func driveOnly(_ events: [OffsetEvent]) {
        InputDriver.driveOnly(events, through: VirtualTimeScheduler())
    }
}
