import Foundation
import Locks
import Testing

/// `CombiningLock`: jobs from several threads, one at a time, none lost,
/// and no thread waiting for another's job.
@Suite struct CombiningLockTests {
    /// A log of the jobs run, with a check that no two ran at once.
    struct Journal: CombinableState {
        enum Job: Sendable {
            case record(thread: Int, index: Int)
            /// Records, then submits `then` to the same lock from inside.
            case recordThenSubmit(thread: Int, index: Int, then: Int, lock: LockBox)
            /// Copies the entries out, for the test to read.
            case copyEntries(to: LockBox)
        }

        var entries: [(thread: Int, index: Int)] = []
        let running = AtomicFlag()

        mutating func perform(_ job: Job) {
            #expect(running.raise(), "two jobs ran at once")
            defer { running.lower() }
            switch job {
            case .record(let thread, let index):
                entries.append((thread, index))
            case .recordThenSubmit(let thread, let index, let then, let box):
                entries.append((thread, index))
                // Runs after this job, before the outer submit returns.
                box.lock.submit(.record(thread: thread, index: then))
                #expect(entries.last?.index == index, "a job submitted from inside ran inside")
            case .copyEntries(let box):
                box.readout.withLock { [entries] in $0 = entries }
            }
        }
    }

    final class LockBox: Sendable {
        let lock = CombiningLock(Journal())
        let readout = StateLock<[(thread: Int, index: Int)]>([])
    }

    /// A flag raised while a job runs.
    final class AtomicFlag: Sendable {
        private let word = AtomicWord(0)
        func raise() -> Bool { word.compareExchange(expected: 0, desired: 1) }
        func lower() { word.store(0) }
    }

    @Test func aJobSubmittedFromInsideAJobRunsAfterItBeforeSubmitReturns() {
        let box = LockBox()
        box.lock.submit(.recordThenSubmit(thread: 0, index: 1, then: 2, lock: box))
        box.lock.submit(.record(thread: 0, index: 3))
        #expect(entries(of: box).map(\.index) == [1, 2, 3])
    }

    /// Four threads submit at once, some jobs submitting one more from
    /// inside: every job runs exactly once, never two at a time, each
    /// thread's in the order it submitted them, and a job submitted from
    /// inside another after it.
    @Test func concurrentJobsRunOnceEachOneAtATimeInEachThreadsOrder() {
        let box = LockBox()
        let threads = 4
        let jobs = 20_000
        // Every tenth job submits the next index from inside itself.
        let isNested: @Sendable (Int) -> Bool = { $0 % 10 == 1 }
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<jobs where !isNested(index) {
                if isNested(index + 1) {
                    box.lock.submit(.recordThenSubmit(thread: thread, index: index, then: index + 1, lock: box))
                } else {
                    box.lock.submit(.record(thread: thread, index: index))
                }
            }
        }
        let entries = entries(of: box)
        #expect(entries.count == threads * jobs)
        for thread in 0..<threads {
            let indices = entries.filter { $0.thread == thread }.map(\.index)
            #expect(indices.sorted() == Array(0..<jobs), "thread \(thread): a job lost or run twice")
            let direct = indices.filter { !isNested($0) }
            #expect(direct == direct.sorted(), "thread \(thread): jobs out of the order submitted")
            let position = Dictionary(uniqueKeysWithValues: indices.enumerated().map { ($1, $0) })
            let nestedFirst = indices.filter(isNested).filter { position[$0]! < position[$0 - 1]! }
            #expect(nestedFirst.isEmpty, "thread \(thread): a job from inside ran before its parent")
        }
    }

    /// The journal's entries, read by a job: the only way to the value.
    private func entries(of box: LockBox) -> [(thread: Int, index: Int)] {
        box.lock.submit(.copyEntries(to: box))
        return box.readout.withLock { $0 }
    }
}
