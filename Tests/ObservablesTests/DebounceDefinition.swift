import Observables
import ObservablesTesting
import TestSupport

/// A random input timeline for `debounce`: values at increasing times, then
/// a completion or an error.
struct Timeline {
    var values: [(time: Milliseconds, value: String)]
    var terminal: Recorded<String>

    var inputs: [Recorded<String>] {
        values.map { .next($0.time, $0.value) } + [terminal]
    }
}

/// Seeded timelines whose gaps fall below, exactly at, and beyond `due`.
struct SeededTimeline {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    mutating func timeline(count: Int, due: Milliseconds) -> Timeline {
        let frame = 1000.0 / 60
        let gaps = [0, frame, 100, due - 1, due, due + 1, 2 * due]
        var time: Milliseconds = 0
        var values: [(Milliseconds, String)] = []
        for _ in 0..<count {
            time += gaps.randomElement(using: &random)!
            values.append((time, ["A", "B", "C"].randomElement(using: &random)!))
        }
        let end = time + gaps.randomElement(using: &random)!
        let terminal: Recorded<String> =
            Bool.random(using: &random)
            ? .completed(end)
            : .error(end, TestError("end"))
        return Timeline(values: values, terminal: terminal)
    }
}

/// What `debounce` must emit, straight from its definition (RxSwift's): a value
/// is emitted `due` after it arrived unless another value arrives by then
/// (an input at the due instant comes first); at a completion the pending
/// value is emitted first; at an error it is dropped.
enum DebounceDefinition {
    static func expected(_ timeline: Timeline, due: Milliseconds) -> [Recorded<String>] {
        let end = timeline.terminal.time
        var expected: [Recorded<String>] = []
        for (index, input) in timeline.values.enumerated() {
            let dueTime = input.time + due
            let nextTime = index + 1 < timeline.values.count ? timeline.values[index + 1].time : .infinity
            if nextTime <= dueTime { continue }  // silenced by a newer value
            if dueTime < end {
                expected.append(.next(dueTime, input.value))
            } else if case .completed = timeline.terminal.event {
                expected.append(.next(end, input.value))  // flushed by the completion
            }
        }
        return expected + [timeline.terminal]
    }
}
