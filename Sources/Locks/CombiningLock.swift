/// A value that several threads change by jobs, one job at a time, and
/// where no thread ever waits for another: a thread that finds the value
/// busy leaves its job for the thread that holds it, which runs it before
/// letting go.
///
/// The pattern is RxJava's "emitter loop" (`SerializedObserver`) and, more
/// generally, flat combining (Hendler, Incze, Shavit and Tzafrir, "Flat
/// Combining and the Synchronization-Parallelism Tradeoff", SPAA 2010). It
/// serializes work that calls out — a subject's delivery to observers that
/// may send into the same subject — where a lock held across the call would
/// deadlock and a thread waiting for the call would block on someone else's
/// observer.
///
/// Why not a ``StateLock`` around a "busy" flag and a backlog: that costs two
/// lock passes per job (take the value, then check for jobs left and let
/// go), four atomic read-modify-writes. Here the job of a thread that finds
/// the value free costs two compare-and-swaps on one word, and the backlog's
/// lock is taken only when a job had to wait. On the 2-core Intel machine of
/// 2026-11-27 an uncontended atomic read-modify-write costs about 7 ns, and
/// the focus pipeline's subject spent 17 % of its time in the second lock
/// pass alone (`perf annotate`, `scripts/benchmark --only pipeline`).
///
/// Jobs run in the order they were submitted by each thread, and a job
/// submitted while another runs (from another thread, or from inside that
/// job on the same thread) runs after it, before `submit` returns to the
/// thread that holds the value.
@usableFromInline
package final class CombiningLock<State: CombinableState>: @unchecked Sendable {
    // @unchecked: `state` is read and written only by the thread that moved
    // `word` from `free` to `held` (an acquiring-and-releasing
    // compare-and-swap), until it moves it back; `backlog` is under its own
    // lock. Every access to the value is thus ordered after the previous
    // holder's.

    /// `free`, `held`, or `heldWithJobsLeft`.
    @usableFromInline let word = AtomicWord(free)
    @usableFromInline let state: UnsafeMutablePointer<State>
    /// Jobs submitted while the value was held, in order.
    @usableFromInline let backlog = StateLock<[State.Job]>([])

    @usableFromInline static var free: UInt64 { 0 }
    @usableFromInline static var held: UInt64 { 1 }
    /// Held, and the backlog has jobs the holder has not taken yet.
    @usableFromInline static var heldWithJobsLeft: UInt64 { 2 }

    @inlinable
    package init(_ state: State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
    }

    @inlinable
    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `job` on the value: now, on this thread, if no thread holds it;
    /// else later, on the thread that holds it, before it lets go. Never
    /// waits for a job to finish.
    @inlinable
    package func submit(_ job: State.Job) {
        guard word.compareExchange(expected: Self.free, desired: Self.held) else {
            leave(job)
            return
        }
        state.pointee.perform(job)
        if !word.compareExchange(expected: Self.held, desired: Self.free) {
            runBacklogThenLetGo()
        }
    }

    /// Queues `job` for the holder, or becomes the holder if the value was
    /// let go meanwhile.
    @usableFromInline
    func leave(_ job: State.Job) {
        backlog.withLock { $0.append(job) }
        while true {
            let seen = word.load()
            if seen == Self.free {
                // Let go between our first try and the append: the job is in
                // the backlog, and taking the value makes it ours to run.
                guard word.compareExchange(expected: Self.free, desired: Self.held) else { continue }
                runBacklogThenLetGo(flagged: false)
                return
            }
            // A read-modify-write even when the flag is already up, so that
            // the holder's next compare-and-swap is ordered after our append.
            if word.compareExchange(expected: seen, desired: Self.heldWithJobsLeft) { return }
        }
    }

    /// Holding the value: runs the backlog until it stays empty, then lets
    /// go. `flagged`: the word reads `heldWithJobsLeft`.
    @usableFromInline
    func runBacklogThenLetGo(flagged: Bool = true) {
        var batch: [State.Job] = []
        var flagged = flagged
        while true {
            if flagged {
                // Only the holder lowers the flag; senders only raise it.
                let lowered = word.compareExchange(expected: Self.heldWithJobsLeft, desired: Self.held)
                precondition(lowered, "CombiningLock: the flag changed under its holder")
            }
            // Hand our emptied buffer back, reusing its capacity.
            backlog.withLock { swap(&batch, &$0) }
            for job in batch {
                state.pointee.perform(job)
            }
            batch.removeAll(keepingCapacity: true)
            if word.compareExchange(expected: Self.held, desired: Self.free) { return }
            flagged = true
        }
    }
}

/// A value a ``CombiningLock`` guards: it changes only by `perform`.
@usableFromInline
package protocol CombinableState: Sendable {
    /// One change, with what it needs.
    associatedtype Job: Sendable
    /// Applies `job`. Runs on the thread holding the lock; it may submit
    /// further jobs to the same lock, which run after it.
    mutating func perform(_ job: Job)
}
