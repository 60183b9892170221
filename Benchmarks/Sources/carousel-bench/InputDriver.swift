import Observables

/// A virtual clock that can be moved to an input's instant: everything due
/// before it runs, timers due at that instant wait, so the input sent next is
/// seen before them (inputs before timers at the same instant, as `VirtualTimeScheduler` orders them). Both benchmark schedulers have it.
protocol InputClock {
    func advance(toInputAt time: Double)
}

extension VirtualTimeScheduler: InputClock {}
extension OpenCombineVirtualScheduler: InputClock {}

/// The one feeding loop of both pipelines: the same driver on both sides is
/// what makes their events per second comparable.
enum InputDriver {
    /// Sends each event at its time: the clock moved to it as for an input,
    /// then the offset sent directly.
    @inline(__always)
    static func feed(_ events: [OffsetEvent], through clock: some InputClock, send: (Double) -> Void) {
        for event in events {
            clock.advance(toInputAt: event.time)
            send(event.offset)
        }
    }

    /// The driver alone, every event sent to a no-op: what feeding costs
    /// before any operator runs.
    @inline(__always)
    static func driveOnly(_ events: [OffsetEvent], through clock: some InputClock) {
        let sink = DiscardingSink()
        feed(events, through: clock) { offset in sink.take(offset) }
    }
}

/// Takes an offset and does nothing with it, out of line so the optimizer
/// keeps the call.
final class DiscardingSink: Sendable {
    @inline(never)
    func take(_ offset: Double) {}
}
