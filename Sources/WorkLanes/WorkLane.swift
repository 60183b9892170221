import Foundation
import Locks

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A bounded pool of threads of our own on which async callers run work that
/// blocks: SQLite calls, and the CPU-heavy answers built from them. The
/// caller suspends (never blocks) while its work waits and runs; the work
/// runs synchronously on one of the lane's threads.
///
/// Why not the cooperative pool, an event loop or a dispatch queue: those
/// threads are few (one per core) and shared with every connection and
/// live session, and one SQLite call that waits (an import holds the write
/// lock for seconds) or computes for long (a list's cluster index, a world
/// box of clusters) stalls them all: with two loops of imports beside 50
/// live sessions a camera came more than 5 s late (issue 40). A lane's
/// threads are its own, their number is its bound, and bulk work gets a
/// lane of its own at a lower priority, so that it never queues ahead of,
/// nor takes the cores from, latency-critical work.
///
/// The process has three lanes (docs/concurrency.md):
/// - ``interactive``: short reads a person waits for (a store, a page, a
///   nearest search, a version check); normal priority.
/// - ``bulk``: work measured in milliseconds to seconds — cluster indexes,
///   searches, whole-list reads, simulations — at the lowest priority the
///   platform gives a thread (nice 19 on Linux once a server asks for it,
///   ``putLowLanesBehind()``; the utility quality of service on Apple
///   platforms), so that the scheduler runs any interactive thread, event
///   loop or session first.
/// - ``writes``: imports and every other write to a SQLite catalog, one at
///   a time, at the same low priority. SQLite lets one connection write at
///   once: a second import queued here waits without holding a thread,
///   where on the bulk lane it would have slept in SQLite's busy handler
///   on one of its threads, with the searches queued behind it.
///
/// Jobs run in the order they were queued; a lane starts its threads as
/// work arrives, up to its bound, and keeps them.
package final class WorkLane: @unchecked Sendable {
    /// How a lane's threads are scheduled against the rest of the process.
    package enum Priority: Sendable {
        case normal
        /// Below every other thread of the process: it runs on what they
        /// leave.
        case low
    }

    /// Short reads a person waits for: normal priority, as many threads as
    /// cores (at least two).
    package static let interactive = WorkLane(name: "carousel.interactive", threads: defaultThreadCount, priority: .normal)

    /// Cluster indexes, searches, whole-list reads, simulations: low
    /// priority, as many threads as cores (at least two).
    package static let bulk = WorkLane(name: "carousel.bulk", threads: defaultThreadCount, priority: .low)

    /// Imports and other writes: one thread (SQLite's one writer), low
    /// priority.
    package static let writes = WorkLane(name: "carousel.writes", threads: 1, priority: .low)

    /// The cores the process may run on, at least two.
    package static var defaultThreadCount: Int {
        max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// The lane's name: its threads are named after it (`top -H`, gdb).
    package let name: String
    /// The most threads the lane runs at once.
    package let maxThreads: Int
    package let priority: Priority

    /// Guards `jobs`, `threads` and `idle`; `wake` is signalled when a job
    /// arrives for an idle thread.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs = JobQueue()
    private var threads = 0
    private var idle = 0

    /// Which lane and which of its threads the calling thread is, if it is
    /// one: so that work can keep something of its own per thread (a
    /// SQLite catalog's read connection) without a lock.
    package static var current: (lane: WorkLane, thread: Int)? {
        guard let slot = pthread_getspecific(currentThreadKey) else { return nil }
        let thread = slot.load(as: LaneThread.self)
        return (thread.lane, thread.index)
    }

    package init(name: String, threads: Int, priority: Priority) {
        precondition(threads > 0, "a lane needs at least one thread")
        self.name = name
        self.maxThreads = threads
        self.priority = priority
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(wake, nil)
    }

    deinit {
        // The shared lanes live as long as the process; a lane made for a
        // test ends with its threads parked, which hold it.
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(mutex)
        wake.deallocate()
        mutex.deallocate()
    }

    /// Runs `work` on one of the lane's threads and returns what it
    /// returned or throws what it threw; the calling task is suspended
    /// meanwhile, its thread free for other work.
    ///
    /// `work` need not be `Sendable` nor escaping: it runs exactly once,
    /// on one thread, while its caller waits for it, as a synchronous call
    /// would — the caller's state is never touched by two threads at once.
    /// That is what makes the unchecked hand-over below sound.
    package func run<T>(_ work: () throws -> T) async throws -> T {
        try await withoutActuallyEscaping(work) { work in
            let call = UncheckedCall(work)
            let result: UncheckedResult<T> = await withUnsafeContinuation { continuation in
                enqueue { continuation.resume(returning: call.run()) }
            }
            return try result.value.get()
        }
    }

    /// Runs `work` on one of the lane's threads, later; nothing waits for it.
    package func enqueue(_ job: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        jobs.append(job)
        let newThread = idle == 0 && threads < maxThreads ? threads : nil
        if newThread != nil { threads += 1 }
        let wakesThread = idle > 0
        pthread_mutex_unlock(mutex)
        if wakesThread { pthread_cond_signal(wake) }
        if let newThread { startThread(index: newThread) }
    }

    /// The jobs queued and not yet started, and the threads running now:
    /// for tests and metrics.
    package var load: (queued: Int, threads: Int) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return (jobs.count, threads)
    }

    /// A thread's life: take the oldest job, run it, wait when there is none.
    fileprivate func serve() {
        var lowered = false
        while true {
            pthread_mutex_lock(mutex)
            while jobs.isEmpty {
                idle += 1
                pthread_cond_wait(wake, mutex)
                idle -= 1
            }
            let job = jobs.removeFirst()
            pthread_mutex_unlock(mutex)
            lowerPriorityIfAsked(&lowered)
            job()
        }
    }

    private func startThread(index: Int) {
        let context = UnsafeMutablePointer<LaneThread>.allocate(capacity: 1)
        context.initialize(to: LaneThread(lane: self, index: index))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
            // A thread's quality of service is set before it starts.
            if priority == .low { pthread_attr_set_qos_class_np(&attributes, QOS_CLASS_UTILITY, 0) }
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, &attributes, laneThreadMain, context)
        precondition(status == 0, "\(name): cannot start a thread (error \(status))")
    }

    fileprivate func prepareThread() {
        // Linux keeps 15 bytes of a thread's name.
        Thread.current.name = String(name.suffix(15))
    }

    /// Whether the low lanes' threads run below the rest of the process on
    /// Linux (``putLowLanesBehind()``).
    private static let lowLanesBehind = AtomicWord(0)

    /// Puts the low lanes' threads behind every other thread of the process
    /// on Linux, from their next job on: nice 19. A server calls it, so that
    /// its imports and cluster builds never take a core from a live session.
    /// A command-line import is its user's foreground work and keeps the
    /// normal priority (on Apple platforms the low lanes always run at the
    /// utility quality of service).
    package static func putLowLanesBehind() {
        lowLanesBehind.store(1)
    }

    /// Lowers this thread's priority once ``putLowLanesBehind()`` asked for it.
    fileprivate func lowerPriorityIfAsked(_ lowered: inout Bool) {
        #if canImport(Glibc) || canImport(Musl)
            guard priority == .low, !lowered, Self.lowLanesBehind.load() == 1 else { return }
            // On Linux a nice value is a thread's own: `who` 0 is the
            // calling thread (setpriority(2), "BUGS"). 19 weighs 15
            // against 1024 for a thread at 0 in the scheduler's shares,
            // and a thread at 0 that wakes preempts it. Threads this
            // one starts inherit it (the import's reader thread).
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            lowered = true
        #endif
    }
}

/// What a lane's thread knows of itself: its lane (held for the thread's
/// life, which is the process's) and its place among the lane's threads.
private struct LaneThread {
    let lane: WorkLane
    let index: Int
}

/// Where each lane thread keeps its ``LaneThread`` (``WorkLane/current``).
private let currentThreadKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "cannot make a thread-specific key (error \(status))")
    return key
}()

/// The entry point of a lane's thread; the context is its ``LaneThread``,
/// never freed.
private func laneThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    pthread_setspecific(currentThreadKey, context)
    let lane = context!.load(as: LaneThread.self).lane
    lane.prepareThread()
    lane.serve()
    return nil
}

/// A growable ring of jobs, oldest first: appending and taking are O(1)
/// without moving the others.
private struct JobQueue {
    private var slots: [(@Sendable () -> Void)?] = Array(repeating: nil, count: 16)
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ job: @escaping @Sendable () -> Void) {
        if count == slots.count {
            let old = slots
            slots = Array(repeating: nil, count: old.count * 2)
            for index in 0..<count { slots[index] = old[(head + index) % old.count] }
            head = 0
        }
        slots[(head + count) % slots.count] = job
        count += 1
    }

    mutating func removeFirst() -> @Sendable () -> Void {
        let job = slots[head]!
        slots[head] = nil
        head = (head + 1) % slots.count
        count -= 1
        return job
    }
}

/// A synchronous call handed to a lane's thread while its caller waits
/// (see ``WorkLane/run(_:)``).
///
/// A class that lets go of `work` before the result goes back: the caller
/// resumes at once, and `withoutActuallyEscaping` traps if the closure is
/// still referenced then — as it was, now and then, by the lane thread's
/// job that had not yet been released.
private final class UncheckedCall<T>: @unchecked Sendable {
    private var work: (() throws -> T)?
    init(_ work: @escaping () throws -> T) { self.work = work }

    func run() -> UncheckedResult<T> {
        let result = UncheckedResult(Result { try work!() })
        work = nil
        return result
    }
}

/// The call's result handed back to its caller, which was suspended all
/// the while.
private struct UncheckedResult<T>: @unchecked Sendable {
    let value: Result<T, any Error>
    init(_ value: Result<T, any Error>) { self.value = value }
}
