import CarouselEngine
import OpenCombine

/// The same focus pipeline on OpenCombine 0.14, the peer: raw offset →
/// focused data index → `debounce` → `removeDuplicates` → the same store
/// lookup, in virtual time on ``OpenCombineVirtualScheduler``, fed the same
/// way as ours.
enum OpenCombinePipeline {
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
        let scheduler = OpenCombineVirtualScheduler()
        let offsets = PassthroughSubject<Double, Never>()
        let recorder = EmissionRecorder()
        let subscription = offsets
            .map { offset in layout.focusedDataIndex(at: offset) ?? 0 }
            .debounce(for: .init(milliseconds: debounceMs), scheduler: scheduler)
            .removeDuplicates()
            .map { index in (index, stores.entry(at: index)) }
            .sink { index, store in
                recorder.record(FocusEmission(time: scheduler.now.milliseconds, index: index, storeID: store.id))
            }
        InputDriver.feed(events, through: scheduler) { offset in offsets.send(offset) }
        scheduler.run()
        subscription.cancel()
        return recorder.emissions
    }

    /// The virtual-time driver alone, each event sent nowhere.
    @inline(never)
    static func driveOnly(_ events: [OffsetEvent]) {
        InputDriver.driveOnly(events, through: OpenCombineVirtualScheduler())
    }
}
