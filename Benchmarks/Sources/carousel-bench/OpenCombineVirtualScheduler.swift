import OpenCombine

/// A virtual-time `OpenCombine.Scheduler`, written for the benchmark:
/// OpenCombine ships none (Combine's peers are `DispatchQueue` and
/// `RunLoop`, on the wall clock).
///
/// Same ordering rules as our `VirtualTimeScheduler`, so the two
/// pipelines can be held to identical outputs: actions run in order of due
/// time; at equal times, inputs before timers (an input is fed by
/// ``advance(toInputAt:)`` then sent, never queued); then in scheduling
/// order; `now` is an action's due time while it runs.
///
/// Single-threaded, so no lock: it runs the peer on the benchmark's thread
/// only, and a lock-free peer is the conservative choice for a ratio in our
/// favour.
final class OpenCombineVirtualScheduler: OpenCombine.Scheduler {
    typealias SchedulerTimeType = Time
    typealias SchedulerOptions = Never

    /// An instant, in milliseconds of virtual time (our `Milliseconds`).
    struct Time: Strideable, Hashable {
        var milliseconds: Double

        func distance(to other: Time) -> Stride {
            Stride(milliseconds: other.milliseconds - milliseconds)
        }

        func advanced(by stride: Stride) -> Time {
            Time(milliseconds: milliseconds + stride.milliseconds)
        }

        static func < (lhs: Time, rhs: Time) -> Bool {
            lhs.milliseconds < rhs.milliseconds
        }
    }

    /// A duration, in milliseconds: the same `Double` arithmetic as our
    /// observable's, so `t + 250` lands on the same instant in both pipelines.
    struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable {
        var milliseconds: Double

        init(milliseconds: Double) {
            self.milliseconds = milliseconds
        }

        init(integerLiteral milliseconds: Int) {
            self.milliseconds = Double(milliseconds)
        }

        init?<Source: BinaryInteger>(exactly source: Source) {
            guard let milliseconds = Double(exactly: source) else { return nil }
            self.milliseconds = milliseconds
        }

        var magnitude: Double { milliseconds.magnitude }

        static func seconds(_ s: Int) -> Stride { Stride(milliseconds: Double(s) * 1e3) }
        static func seconds(_ s: Double) -> Stride { Stride(milliseconds: s * 1e3) }
        static func milliseconds(_ ms: Int) -> Stride { Stride(milliseconds: Double(ms)) }
        static func microseconds(_ us: Int) -> Stride { Stride(milliseconds: Double(us) / 1e3) }
        static func nanoseconds(_ ns: Int) -> Stride { Stride(milliseconds: Double(ns) / 1e6) }

        static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.milliseconds < rhs.milliseconds }
        static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(milliseconds: lhs.milliseconds + rhs.milliseconds) }
        static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(milliseconds: lhs.milliseconds - rhs.milliseconds) }
        static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(milliseconds: lhs.milliseconds * rhs.milliseconds) }
        static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
        static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
        static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
    }

    /// A scheduled action; cancelling drops the closure at once, and the
    /// entry is skipped when it comes due.
    private final class Task: Cancellable {
        var action: (() -> Void)?
        /// Set for a repeating action: it is queued again this long after each run.
        let interval: Stride?

        init(_ action: @escaping () -> Void, interval: Stride?) {
            self.action = action
            self.interval = interval
        }

        func cancel() {
            action = nil
        }
    }

    /// A place in line: due time, then lane and scheduling order packed in
    /// one integer (lane in the top bit), as in our scheduler.
    private struct Entry {
        let time: Double
        let order: UInt64
        let task: Task

        func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && order < other.order)
        }
    }

    private enum Lane: UInt64 {
        case input = 0
        case timer = 1
    }

    private(set) var now = Time(milliseconds: 0)
    var minimumTolerance: Stride { .zero }

    /// The queue, sorted latest first so the next action is `popLast()`.
    /// A sorted array rather than a heap: debounce keeps at most one live
    /// timer per frame within its window (about 15 at 60 fps and 250 ms),
    /// and for so few entries a binary-searched insert beats a heap's sifts.
    private var queue: [Entry] = []
    private var nextSequence: UInt64 = 0

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        enqueue(Task(action, interval: nil), at: now.milliseconds, lane: .timer)
    }

    func schedule(after date: Time, tolerance: Stride, options: Never?, _ action: @escaping () -> Void) {
        enqueue(Task(action, interval: nil), at: date.milliseconds, lane: .timer)
    }

    func schedule(
        after date: Time,
        interval: Stride,
        tolerance: Stride,
        options: Never?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let task = Task(action, interval: interval)
        enqueue(task, at: date.milliseconds, lane: .timer)
        return task
    }

    /// Moves the clock to `time`, running every action due by then,
    /// including those scheduled meanwhile.
    func advance(to time: Double) {
        precondition(time >= now.milliseconds, "cannot go back in time from \(now.milliseconds) ms to \(time) ms")
        while let next = queue.last, next.time <= time {
            runNext()
        }
        now = Time(milliseconds: time)
    }

    /// Moves the clock to `time` for an input arriving then, without queueing
    /// it: runs every action due before `time` and the inputs due at `time`,
    /// then sets `now`; timers due at `time` stay queued, so the input sent
    /// next is seen before them. The exact equivalent of our
    /// `VirtualTimeScheduler.advance(toInputAt:)`, so both pipelines are fed
    /// the same way.
    func advance(toInputAt time: Double) {
        precondition(time >= now.milliseconds, "cannot go back in time from \(now.milliseconds) ms to \(time) ms")
        let firstTimer = Lane.timer.rawValue << 63
        while let next = queue.last, next.time < time || (next.time == time && next.order < firstTimer) {
            runNext()
        }
        now = Time(milliseconds: time)
    }

    /// Runs actions until none is pending (repeating ones must be cancelled).
    func run() {
        while !queue.isEmpty {
            runNext()
        }
    }

    private func runNext() {
        let entry = queue.removeLast()
        guard let action = entry.task.action else { return }
        now = Time(milliseconds: entry.time)
        action()
        if let interval = entry.task.interval, entry.task.action != nil {
            enqueue(entry.task, at: entry.time + interval.milliseconds, lane: .timer)
        }
    }

    private func enqueue(_ task: Task, at time: Double, lane: Lane) {
        // A time already past runs now, as our scheduler does.
        let entry = Entry(time: max(time, now.milliseconds), order: lane.rawValue << 63 | nextSequence, task: task)
        nextSequence += 1
        // Binary search for the first entry that runs before the new one;
        // the new entry goes just ahead of it in the (latest-first) array.
        var low = 0
        var high = queue.count
        while low < high {
            let middle = (low + high) / 2
            if queue[middle].precedes(entry) { high = middle } else { low = middle + 1 }
        }
        queue.insert(entry, at: low)
    }
}
