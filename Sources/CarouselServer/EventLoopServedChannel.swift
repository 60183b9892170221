import HummingbirdCore
import Locks
import Logging
import NIOCore

/// A connection served on its own event loop: `base`'s handling of the
/// connection (reading each request, the route, writing the answer) runs
/// with the channel's event loop as its task executor preference (SE-0417)
/// instead of on Swift's cooperative pool.
///
/// Why: on the pool, every request crossed threads twice — the event loop
/// woke a pool thread with the request, and the pool thread woke the event
/// loop with the answer. Profiled at one connection (`perf record -g` on
/// `serve --nearest-in-memory 0`), those wake-ups (futex, eventfd,
/// scheduling) were most of the 131 µs of server CPU per request, against
/// 13 µs for the nearest search itself. Here both hand-overs are calls on
/// the same thread.
///
/// What a route does then runs on the event loop, so a route never blocks
/// it: every SQLite call awaits a work lane (`WorkLane`, docs/concurrency.md)
/// and heavy answers are built there too; what stays on the loop is
/// parsing, routing and the JSON of small answers. Unstructured tasks
/// (`Task {}`) do not inherit the preference and run on the pool, unless
/// given it, as a live session's task is (``LiveSession``).
struct EventLoopServedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor.of(value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

/// An event loop as a task executor: each job runs as one of the loop's
/// tasks, on its thread.
///
/// One per event loop (``of(_:)``): the runtime tells executors apart by
/// identity, so a connection's task and its live session's, which run on
/// the same loop, are given the same executor; and it is one object a
/// loop rather than one a connection.
final class EventLoopTaskExecutor: SessionExecutor, Sendable {
    let eventLoop: any EventLoop

    private init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// The server's event loops are few and live as long as it does: the
    /// executors (and their loops) are kept for the process's life.
    private static let executors = StateLock<[ObjectIdentifier: EventLoopTaskExecutor]>([:])

    /// The executor of `eventLoop`.
    static func of(_ eventLoop: any EventLoop) -> EventLoopTaskExecutor {
        executors.withLock { executors in
            if let executor = executors[ObjectIdentifier(eventLoop)] { return executor }
            let executor = EventLoopTaskExecutor(eventLoop)
            executors[ObjectIdentifier(eventLoop)] = executor
            return executor
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    var isCurrent: Bool { eventLoop.inEventLoop }
}
