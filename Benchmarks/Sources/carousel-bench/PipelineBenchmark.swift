import Foundation

/// The pipeline benchmark: a million raw offset events through
/// focus → debounce(250 ms) → distinctUntilChanged → store lookup in virtual
/// time, on our observable and on OpenCombine; events per second both ways,
/// and the two outputs checked identical.
struct PipelineBenchmark {
    /// The imported list, in memory: the lookup both pipelines call.
    var stores: StoreDirectory
    var eventCount: Int
    /// Runs of each pipeline, alternating ours and the peer's so that a
    /// change in machine load hits both alike; the median counts.
    var runs: Int
    var seed: UInt64 = 0x5EED_F0C5
    /// The view model's default (250 ms, as the visibleItemsInvalidationHandler article's relay debounces).
    var debounceMs: Double = 250

    func run(into report: inout Report) throws {
        let layout = try GestureStream.layout(storeCount: stores.count)
        let events = try GestureStream.events(count: eventCount, layout: layout, seed: seed)
        var ourSeconds: [Double] = []
        var peerSeconds: [Double] = []
        var ourDriverSeconds: [Double] = []
        var peerDriverSeconds: [Double] = []
        var emissionCount = 0
        for run in 1...runs {
            progress("pipeline: run \(run)/\(runs)")
            let ours = Stopwatch.time { ObservablesPipeline.run(events, layout: layout, stores: stores, debounceMs: debounceMs) }
            let peer = Stopwatch.time { OpenCombinePipeline.run(events, layout: layout, stores: stores, debounceMs: debounceMs) }
            try FocusEmission.requireIdentical(ours: ours.result, peer: peer.result, peerName: "OpenCombine")
            guard !ours.result.isEmpty else { throw BenchError("the pipelines emitted nothing: the gesture stream is broken") }
            ourSeconds.append(ours.seconds)
            peerSeconds.append(peer.seconds)
            emissionCount = ours.result.count
            ourDriverSeconds.append(Stopwatch.time { ObservablesPipeline.driveOnly(events) }.seconds)
            peerDriverSeconds.append(Stopwatch.time { OpenCombinePipeline.driveOnly(events) }.seconds)
        }
        let ourRate = Double(events.count) / Samples(ourSeconds).median
        let peerRate = Double(events.count) / Samples(peerSeconds).median
        report.rows.append(ReportRow(
            "focus pipeline, \(Format.count(events.count)) events: events/s",
            ours: Format.rate(ourRate), peer: Format.rate(peerRate) + " (OpenCombine 0.14)",
            ratio: Format.ratio(ourRate / peerRate), target: .atLeast(10, "10×"), measured: ourRate / peerRate
        ))
        // The breakdown that explains the ratio: what the shared driver
        // (the clock moved to each event's time, then a send) costs alone.
        let ourDriver = Samples(ourDriverSeconds).median
        let peerDriver = Samples(peerDriverSeconds).median
        report.rows.append(ReportRow(
            "  of which the input driver, ns/event (peer ÷ ours)",
            ours: nanosecondsPerEvent(ourDriver, events.count), peer: nanosecondsPerEvent(peerDriver, events.count),
            ratio: Format.ratio(peerDriver / ourDriver)
        ))
        let ourRest = Samples(ourSeconds).median - ourDriver
        let peerRest = Samples(peerSeconds).median - peerDriver
        report.rows.append(ReportRow(
            "  of which operators and lookup (peer ÷ ours)",
            ours: nanosecondsPerEvent(ourRest, events.count), peer: nanosecondsPerEvent(peerRest, events.count),
            ratio: Format.ratio(peerRest / ourRest)
        ))
        let span = (events.last?.time ?? 0) / 60_000
        report.notes.append("""
            pipeline: \(Format.count(events.count)) frames at 60 fps (\(Int(span)) virtual minutes of drags and \
            flings, seed \(String(seed, radix: 16))), median of \(runs) alternating runs; both emitted the same \
            \(Format.count(emissionCount)) (time, index, store id) values; lookup: an in-memory array of \
            (id, latitude, longitude) of the \(Format.count(stores.count)) stores, loaded from the imported \
            catalog's list (`Catalog.stores(list:)`)
            """)
    }
}

private func nanosecondsPerEvent(_ seconds: Double, _ count: Int) -> String {
    String(format: "%.0f ns", seconds / Double(count) * 1e9)
}
