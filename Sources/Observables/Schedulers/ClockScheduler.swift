import Locks

/// A scheduler on a Swift `Clock` (SE-0329): `ContinuousClock` where time is
/// real, a test clock (such as swift-clocks' `TestClock`) in tests, so that
/// a debounce is proven by advancing the clock rather than by waiting.
///
/// When an action falls due it is handed to `deliver`, which runs it where
/// its owner runs everything else: a live session gives its own stream of
/// events, so that a debounce's timer never interleaves with the session's
/// inputs. Without one, the action runs on the task that waited for it.
///
/// One task waits for the earliest action at a time, however many are
/// queued: a debounce that schedules a new action at every frame and
/// cancels the last one costs a heap entry a frame, not a task, and the
/// waiting task wakes about once per debounce window. A cancelled action
/// is dropped when its time comes.
///
/// `now` counts milliseconds on the clock since the scheduler was made.
public final class ClockScheduler: EventScheduler {
    /// The time on the clock since the scheduler was made.
    private let elapsed: @Sendable () -> Duration
    /// Sleeps until the clock reads that much since the scheduler was made.
    private let sleep: @Sendable (Duration) async throws -> Void
    private let deliver: (@Sendable (@escaping @Sendable () -> Void) -> Void)?

    private struct Entry: Comparable {
        /// When it falls due, on the clock, since `origin`: compared in the
        /// clock's own unit, so a test clock advanced to the deadline finds
        /// it due to the attosecond.
        let due: Duration
        let sequence: UInt64
        let action: PendingAction

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.due, lhs.sequence) < (rhs.due, rhs.sequence)
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.due == rhs.due && lhs.sequence == rhs.sequence
        }
    }

    private struct State {
        var queue = MinHeap<Entry>()
        var nextSequence: UInt64 = 0
        /// The task waiting on the clock, and for what time.
        var waiter: (task: Task<Void, Never>, until: Duration)?
        /// Actions taken off the queue as due and not yet handed over: they
        /// are still "due" to ``hasDueActions``, which would otherwise
        /// answer false in the moment between the two, and a test would
        /// look before the action reached its owner (a session test saw it
        /// on the loaded machine).
        var handingOver = 0
    }

    private let state = StateLock(State())

    /// A scheduler on `clock`, handing each action that falls due to
    /// `deliver` (nil: running it on the task that waited for it).
    public init<C: Clock<Duration>>(clock: C, deliver: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleep = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
        self.deliver = deliver
    }

    deinit {
        state.withLock { $0.waiter?.task.cancel() }
    }

    public var now: Milliseconds {
        elapsed().milliseconds
    }

    /// Whether an action has fallen due on the clock and not yet been
    /// handed over: a test that advanced a test clock waits for this to
    /// turn false before it looks at what the action did.
    public var hasDueActions: Bool {
        let elapsed = elapsed()
        return state.withLock { state in
            state.handingOver > 0 || state.queue.contains(where: { $0.due <= elapsed && $0.action.isPending })
        }
    }

    public func schedule(at time: Milliseconds, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        precondition(!time.isNaN, "ClockScheduler: cannot schedule an action at NaN ms")
        let pending = PendingAction(action)
        // Past times are due now; +∞ never falls due.
        guard time < .infinity else { return pending }
        let due = Duration.milliseconds(Swift.max(0, time))
        state.withLock { state in
            state.queue.insert(Entry(due: due, sequence: state.nextSequence, action: pending))
            state.nextSequence &+= 1
            if let waiter = state.waiter, waiter.until <= due { return }
            // Earlier than what the waiting task waits for: wait for this.
            state.waiter?.task.cancel()
            state.waiter = (wait(until: due), due)
        }
        return pending
    }

    /// A task that sleeps until `due` and then hands over what fell due.
    /// Holds the scheduler weakly: a scheduler let go with actions queued
    /// is freed, and its actions with it.
    private func wait(until due: Duration) -> Task<Void, Never> {
        let sleep = sleep, elapsed = elapsed
        return Task { [weak self] in
            // Already due when the task starts (a test clock advanced past
            // it first, or a busy machine started the task late): fire now.
            // swift-clocks' TestClock suspends a sleep until a deadline
            // equal to its `now` until the next advance, which a test that
            // advanced exactly to the deadline never makes: it hung.
            if elapsed() < due {
                do {
                    try await sleep(due)
                } catch {
                    return  // cancelled: an earlier action took over.
                }
            } else if Task.isCancelled {
                return
            }
            self?.fire()
        }
    }

    /// Hands every action now due to `deliver`, in order, and waits for the
    /// next.
    private func fire() {
        let elapsed = elapsed()
        let due = state.withLock { state -> [PendingAction] in
            var due: [PendingAction] = []
            while let first = state.queue.min, first.due <= elapsed {
                state.queue.removeMin()
                if first.action.isPending { due.append(first.action) }
            }
            state.waiter = state.queue.min.map { next in (wait(until: next.due), next.due) }
            state.handingOver += due.count
            return due
        }
        for action in due {
            if let deliver { deliver { action.run() } } else { action.run() }
            state.withLock { $0.handingOver -= 1 }
        }
    }
}

extension Duration {
    /// This duration in milliseconds.
    var milliseconds: Milliseconds {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
