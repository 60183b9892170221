import Locks

/// A scheduler whose clock moves only when told to: for tests and the
/// simulator (in the manner of pointfreeco's `TestScheduler`).
///
/// Scheduled actions wait in a queue until `advance(by:)`, `advance(to:)` or
/// `run()` moves the clock past their due time. The order is fully
/// deterministic:
/// - actions run in order of due time; `now` equals an action's due time
///   while it runs;
/// - at equal times, `Lane.input` actions run before `Lane.timer` actions:
///   "an input at time T is processed before a timer that falls due at T";
/// - then in the order they were scheduled;
/// - an action scheduled by a running action is run in the same pass if it
///   is due by the pass's target time.
///
/// An input from outside need not be queued: `advance(toInputAt:)` moves the
/// clock to its time, leaving that instant's timers queued, and the caller
/// sends it directly — the hot path of the simulator and the benchmark.
///
/// Actions run on the thread that advances the clock. Scheduling and
/// cancelling are thread-safe.
public final class VirtualTimeScheduler: EventScheduler {
    /// The kind of an action, which orders actions due at the same instant.
    public enum Lane: UInt8, Sendable {
        /// Inputs fed from outside the pipeline (test inputs, simulated frames,
        /// taps): first at equal time, so a timer falling due at the same
        /// instant sees the input.
        case input = 0
        /// Operators' timers (`debounce`): what `schedule(at:_:)` uses.
        case timer = 1
    }

    private struct State {
        var queue = MinHeap<QueueEntry>()
        var actions = ActionTable()
        var nextSequence: UInt64 = 0
    }

    private let state = StateLock(State())
    /// `now` as the bit pattern of its `Double`: read without a lock, because
    /// operators read the clock for every value on the hot path.
    @usableFromInline
    let clock: AtomicWord
    /// The due time of the queue's first entry (`+∞` when empty), as a bit
    /// pattern, kept in step with the queue under the lock: `advance` reads
    /// it without the lock and returns at once when nothing is due — the
    /// common case of an input fed between two timers.
    private let earliestDue = AtomicWord(Milliseconds.infinity.bitPattern)

    /// Creates a scheduler whose clock reads `now` (0 by default).
    public init(now: Milliseconds = 0) {
        clock = AtomicWord(now.bitPattern)
    }

    /// The current virtual time; it moves only by `advance` and `run`.
    @inlinable
    public private(set) var now: Milliseconds {
        get { Double(bitPattern: clock.load()) }
        set { clock.store(newValue.bitPattern) }
    }

    /// The number of actions scheduled and neither run nor cancelled yet.
    public var pendingCount: Int {
        state.withLock { $0.actions.pendingCount }
    }

    /// Schedules `action` on the timer lane at `time` (at `now` if `time` is past).
    public func schedule(at time: Milliseconds, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        schedule(at: time, lane: .timer, action)
    }

    /// Schedules `action` on `lane` at `time` (at `now` if `time` is past);
    /// dispose the result to cancel it.
    public func schedule(
        at time: Milliseconds,
        lane: Lane,
        _ action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        precondition(!time.isNaN, "VirtualTimeScheduler: cannot schedule an action at NaN ms")
        let pending = PendingAction(action)
        state.withLock { state in
            let sequence = state.nextSequence
            state.nextSequence += 1
            let slot = state.actions.store(pending)
            state.queue.insert(QueueEntry(time: Swift.max(time, now), lane: lane, sequence: sequence, slot: slot))
            publishEarliestDue(of: state.queue)
        }
        return pending
    }

    /// Moves the clock forward by `duration`, running every action due by then.
    /// `advance()` runs what is due now.
    public func advance(by duration: Milliseconds = 0) {
        advance(to: now + duration)
    }

    /// Moves the clock to `time`, running every action due by then.
    public func advance(to time: Milliseconds) {
        run(before: QueueEntry.Bound(afterEverythingAt: time), thenSetClockTo: time)
    }

    /// Moves the clock to `time` for an input arriving then, without queueing
    /// the input: runs every action due before `time` and the input-lane
    /// actions due at `time`, then sets `now` to `time`.
    ///
    /// Timers due at `time` stay queued, so the input the caller sends next is
    /// seen after the inputs queued for `time` and before those timers
    /// (an input at T is processed before a timer that falls due at
    /// T). It orders the input as `schedule(at: time, lane: .input)` followed
    /// by `advance(to: time)` would, with no closure, queue entry or
    /// disposable per input. The timers left due at `time` run on the next
    /// `advance` or `run()`, with `now` at `time`, after any further input
    /// sent at `time`.
    ///
    /// ```swift
    /// for (time, offset) in frames {
    ///     scheduler.advance(toInputAt: time)
    ///     offsets.onNext(offset)
    /// }
    /// scheduler.run()  // the timers still pending after the last input
    /// ```
    public func advance(toInputAt time: Milliseconds) {
        run(before: QueueEntry.Bound(beforeTimersAt: time), thenSetClockTo: time)
    }

    /// Moves the clock to `time` for something the caller does first at that
    /// instant: runs only the actions due before `time`, whatever their lane,
    /// then sets `now` to `time`.
    ///
    /// What the caller does next is seen before every action already queued
    /// for `time`, as if it had been scheduled before all of them. The
    /// simulator feeds script events this way one at a time, instead of
    /// queueing a million of them up front.
    public func advance(toFirstAt time: Milliseconds) {
        run(before: QueueEntry.Bound(beforeEverythingAt: time), thenSetClockTo: time)
    }

    /// Runs actions until none is pending; the clock stops at the last one's
    /// due time. An action that always schedules another never returns.
    public func run() {
        while let action = nextAction(before: QueueEntry.Bound(afterEverythingAt: .infinity)) {
            action()
        }
    }

    /// Runs every action ordered before `bound`, then moves the clock to `time`.
    private func run(before bound: QueueEntry.Bound, thenSetClockTo time: Milliseconds) {
        precondition(time >= now, "VirtualTimeScheduler: cannot go back in time from \(now) ms to \(time) ms")
        // Lock-free when nothing is due by `time`: per input fed, one atomic
        // load instead of a lock round trip.
        if Double(bitPattern: earliestDue.load()) <= time {
            while let action = nextAction(before: bound) {
                action()
            }
        }
        now = time
    }

    /// Removes the next action ordered before `bound`, skipping cancelled
    /// ones, and sets the clock to its due time. It runs outside the lock, so
    /// it may schedule or cancel freely.
    private func nextAction(before bound: QueueEntry.Bound) -> (@Sendable () -> Void)? {
        state.withLock { state in
            defer { publishEarliestDue(of: state.queue) }
            while let next = state.queue.min, next.precedes(bound) {
                state.queue.removeMin()
                if let action = state.actions.release(slot: next.slot).take() {
                    now = next.time
                    return action
                }
            }
            return nil
        }
    }

    /// Mirrors the queue's first due time into `earliestDue`; called under
    /// the lock after every change of the queue.
    private func publishEarliestDue(of queue: MinHeap<QueueEntry>) {
        earliestDue.store((queue.min?.time ?? .infinity).bitPattern)
    }
}

/// A queued action's place in line: due time, then lane, then scheduling order.
private struct QueueEntry: Comparable {
    let time: Milliseconds
    /// The lane in the top bit, the scheduling sequence number below it, so
    /// one integer comparison breaks ties by lane, then by order.
    let order: UInt64
    /// Where the closure waits in the `ActionTable`.
    let slot: Int

    init(time: Milliseconds, lane: VirtualTimeScheduler.Lane, sequence: UInt64, slot: Int) {
        self.time = time
        self.order = UInt64(lane.rawValue) << 63 | sequence
        self.slot = slot
    }

    static func < (lhs: QueueEntry, rhs: QueueEntry) -> Bool {
        lhs.time < rhs.time || (lhs.time == rhs.time && lhs.order < rhs.order)
    }

    /// An exclusive upper bound on (time, order): where a pass of the clock stops.
    struct Bound {
        let time: Milliseconds
        let order: UInt64

        /// After every action due by `time`, whatever its lane: `advance(to:)`.
        init(afterEverythingAt time: Milliseconds) {
            self.time = time
            self.order = .max
        }

        /// Before every action due at `time`: `advance(toFirstAt:)`.
        init(beforeEverythingAt time: Milliseconds) {
            self.time = time
            self.order = 0
        }

        /// After the input-lane actions due at `time`, before its timers:
        /// `advance(toInputAt:)`. The lowest order of the timer lane.
        init(beforeTimersAt time: Milliseconds) {
            self.time = time
            self.order = UInt64(VirtualTimeScheduler.Lane.timer.rawValue) << 63
        }
    }

    /// Whether this entry runs in a pass that stops at `bound`.
    func precedes(_ bound: Bound) -> Bool {
        time < bound.time || (time == bound.time && order < bound.order)
    }
}

/// The queued actions, in reusable slots: the heap stays plain data (an
/// index per entry), so sifting it never retains or releases.
private struct ActionTable {
    private var slots: [PendingAction?] = []
    private var freeSlots: [Int] = []

    /// The actions neither run nor cancelled; O(n), for diagnostics and tests.
    var pendingCount: Int {
        slots.lazy.filter { $0?.isPending == true }.count
    }

    mutating func store(_ action: PendingAction) -> Int {
        if let slot = freeSlots.popLast() {
            slots[slot] = action
            return slot
        }
        slots.append(action)
        return slots.count - 1
    }

    /// Pops: frees the slot and returns its action (cancelled or not).
    mutating func release(slot: Int) -> PendingAction {
        freeSlots.append(slot)
        defer { slots[slot] = nil }
        return slots[slot].unsafelyUnwrapped
    }
}
