import Clocks
import Foundation
import Locks
import MapSyncCatalog
import StoreCatalog
import TestSupport
import Testing

@testable import CarouselServer

/// A live session driven on a test clock: the debounce, a tap's camera at
/// once and the silence after a settling scroll, checked to the millisecond
/// of the session's own clock, whatever the machine is doing. (The same
/// session over a real WebSocket, on the wall clock, is `SessionTests`.)
@Suite struct LiveSessionClockTests {
    static let layout = #"{"layout":{"viewport":390,"itemLength":300,"spacing":12,"behavior":"groupPagingCentered","debounceMs":250}}"#

    /// A session on the 44 sample stores with a test clock, its lines kept.
    final class Harness: Sendable {
        let clock = TestClock()
        let session: LiveSession
        private let lines = Lines()

        /// The session's lines as sent, in order.
        final class Lines: Sendable {
            let texts = StateLock<[String]>([])
        }
        private let running: Task<Void, Never>?

        /// `runs`: whether the harness runs the session's task itself;
        /// `executor`: where the session's task runs.
        init(runs: Bool = true, executor: (any SessionExecutor)? = nil, send: (@Sendable (String) -> Void)? = nil) throws {
            let catalog = try Catalog.inMemory()
            try catalog.importList(
                named: "seoul",
                from: makeStoreRowReader(for: Paths.sampleData.appendingPathComponent("seoul-coffee.csv"), format: .csv))
            var stores: [Store] = []
            try catalog.forEachStore(list: "seoul", offset: 0, limit: nil) { _, store in stores.append(store) }
            let lines = lines
            session = LiveSession(
                stores: CatalogStoreDirectory(list: "seoul", stores: stores), engine: catalog, clock: clock, executor: executor
            ) { text in
                send?(text)
                lines.texts.withLock { $0.append(text) }
            }
            let session = session
            running = runs ? Task { await session.run() } : nil
        }

        deinit {
            session.close()
        }

        /// Sends `message` and returns once the session has handled it.
        func send(_ message: String) async {
            session.receive(message)
            await session.handled()
        }

        /// Every line as sent.
        var texts: [String] { lines.texts.withLock { $0 } }

        func of(_ type: String) -> [[String: Any]] {
            lines.texts.withLock { $0 }
                .map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? ["unparsed": $0] }
                .filter { $0["type"] as? String == type }
        }

        /// Moves the session's clock on by `milliseconds`; whatever fell due
        /// has been handled when this returns.
        func advance(by milliseconds: Int) async {
            await clock.advance(by: .milliseconds(milliseconds))
            // A timer that fell due is handed to the session from the task
            // that slept for it: wait for it to reach the session's queue
            // (bounded: 10 s of wall time for a loaded machine), then for
            // the session to handle what is queued.
            for _ in 0..<1_000 where session.hasPendingDue { try? await Task.sleep(for: .milliseconds(10)) }
            await session.handled()
        }
    }

    @Test func aSwipeThenSilenceGivesOneCameraADebounceAfterTheLastFrameToTheMillisecond() async throws {
        let harness = try Harness()
        await harness.send(Self.layout)
        #expect(harness.of("camera").map { $0["t"] as? Double } == [0])
        // 20 frames 16 ms apart, from card 0 to card 1: the last at 304 ms.
        for step in 1...20 {
            await harness.send(#"{"offset":\#(Double(step) * 312 / 20)}"#)
            if step < 20 { await harness.advance(by: 16) }
        }
        await harness.advance(by: 249)
        #expect(harness.of("camera").count == 1, "not before the debounce")
        await harness.advance(by: 1)
        let cameras = harness.of("camera")
        #expect(cameras.map { $0["index"] as? Int } == [0, 1])
        #expect(cameras.last?["t"] as? Double == 554)
        #expect(harness.of("marker").last?["previousIndex"] as? Int == 0)
        await harness.advance(by: 5_000)
        #expect(harness.of("camera").count == 2, "exactly once")
    }

    /// A task executor of one dispatch queue, which says whether the
    /// calling code runs on it.
    final class QueueTaskExecutor: SessionExecutor, Sendable {
        private let queue = DispatchQueue(label: "LiveSessionClockTests.executor")
        private let key = DispatchSpecificKey<Bool>()

        init() {
            queue.setSpecific(key: key, value: true)
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }

        var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

        /// Runs `body` on the executor's queue, as a server's loop runs
        /// the reading of a frame.
        func run<T>(_ body: () -> T) -> T { queue.sync(execute: body) }
    }

    @Test func theSessionHandlesItsMessagesAndSendsItsLinesOnItsExecutor() async throws {
        // In a server the executor is the connection's event loop: a frame
        // is read, handled and answered on one thread.
        let executor = QueueTaskExecutor()
        let elsewhere = StateLock<[String]>([])
        let harness = try Harness(executor: executor) { text in
            if !executor.isCurrent { elsewhere.withLock { $0.append(text) } }
        }
        await harness.send(Self.layout)
        await harness.send(#"{"tapMarker":3}"#)
        #expect(harness.of("camera").map { $0["index"] as? Int } == [0, 3])
        #expect(elsewhere.withLock { $0 } == [], "every line is sent from the session's executor")
    }

    @Test func aTapMovesTheCameraAtOnceAndItsSettlingScrollEchoesNothing() async throws {
        let harness = try Harness()
        await harness.send(Self.layout)
        await harness.advance(by: 1_000)
        await harness.send(#"{"tapMarker":5}"#)
        #expect(harness.of("camera").last?["index"] as? Int == 5)
        #expect(harness.of("camera").last?["t"] as? Double == 1_000)
        #expect(harness.of("scroll").first?["targetOffset"] as? Double == 1_560)
        for step in 1...10 {
            await harness.send(#"{"offset":\#(Double(step) * 156)}"#)
            await harness.advance(by: 16)
        }
        await harness.advance(by: 1_000)
        #expect(harness.of("camera").count == 2)
    }

    @Test func aClosedSessionHandlesNothingMoreAndItsDebounceNeverFires() async throws {
        let harness = try Harness()
        await harness.send(Self.layout)
        await harness.send(#"{"offset":312}"#)
        harness.session.close()
        harness.session.receive(#"{"tapMarker":3}"#)
        await harness.clock.advance(by: .seconds(5))
        #expect(harness.of("camera").count == 1)
        #expect(harness.of("scroll").isEmpty)
    }

    /// A connection that fails cancels its route's task group, which waits
    /// for the session's task: cancelling it must close the session, not
    /// leave it waiting for messages that never come (the whole suite hung
    /// on it once).
    @Test(.timeLimit(.minutes(1))) func cancellingTheSessionsTaskClosesIt() async throws {
        let harness = try Harness(runs: false)
        let task = Task { await harness.session.run() }
        await harness.send(Self.layout)
        #expect(harness.of("camera").count == 1)
        task.cancel()
        await task.value
        // Closed: a message now is not handled, and a look answers at once.
        await harness.send(#"{"tapMarker":3}"#)
        #expect(harness.of("scroll").isEmpty)
        #expect(await harness.session.followList() == false)
    }

    /// A frame's offset read on the session's executor, with nothing else
    /// unhandled, is handled before `receive` returns: in a server the loop
    /// reads, handles and answers it without a task switch.
    @Test func anOffsetReadOnTheExecutorWhenIdleIsHandledAtOnce() async throws {
        let executor = QueueTaskExecutor()
        let harness = try Harness(executor: executor)
        await harness.send(#"{"layout":{"viewport":390,"itemLength":300,"spacing":12,"behavior":"groupPagingCentered","debounceMs":0}}"#)
        let cameras = executor.run {
            harness.session.receive(#"{"offset":312}"#)
            return harness.of("camera").map { $0["index"] as? Int }
        }
        #expect(cameras == [0, 1])
        // Any other message waits for the session's task: a tap may look
        // at the list, which is I/O.
        let scrolls = executor.run {
            harness.session.receive(#"{"tapMarker":3}"#)
            return harness.of("scroll").count
        }
        #expect(scrolls == 0)
        await harness.session.handled()
        #expect(harness.of("scroll").count == 1)
    }

    /// An offset never overtakes what came before it: while a message is
    /// queued (the session's task not running yet), an offset read on the
    /// executor queues behind it; and one received elsewhere always queues.
    @Test func anOffsetQueuesBehindWhatIsUnhandled() async throws {
        let executor = QueueTaskExecutor()
        let harness = try Harness(runs: false, executor: executor)
        harness.session.receive(#"{"layout":{"debounceMs":0}}"#)
        harness.session.receive(#"{"tapMarker":3}"#)
        executor.run { harness.session.receive(#"{"offset":312}"#) }
        #expect(harness.texts.isEmpty, "nothing handled yet")
        let task = Task { await harness.session.run() }
        await harness.session.handled()
        // The load's camera (0), the tap's (3), then the offset's (card 1).
        #expect(harness.of("camera").map { $0["index"] as? Int } == [0, 3, 1])
        harness.session.close()
        await task.value
    }
}
