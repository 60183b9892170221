import Locks
import Testing

/// The package's lock and atomic word. On Linux these run on
/// Synchronization; built with `-DPORTABLE_LOCKS` they run the pthread lock
/// Apple platforms use.
@Suite struct LocksTests {
    final class Tracked: @unchecked Sendable {
        let onDeinit: @Sendable () -> Void
        init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    @Test func theLockedValueIsReleasedOnceWithTheLock() {
        let releases = StateLock(0)
        do {
            let lock = StateLock(Tracked { releases.withLock { $0 += 1 } })
            lock.withLock { _ in }
        }
        #expect(releases.withLock { $0 } == 1)
    }

    @Test func withLockMutatesAndReturnsUnderTheLock() throws {
        struct Failure: Error {}
        let lock = StateLock([Int]())
        let count = lock.withLock { values in
            values.append(contentsOf: [1, 2, 3])
            return values.count
        }
        #expect(count == 3)
        #expect(throws: Failure.self) {
            try lock.withLock { (values: inout [Int]) throws(Failure) in
                values.append(4)
                throw Failure()
            }
        }
        // What the body did before it threw stays.
        #expect(lock.withLock { $0 } == [1, 2, 3, 4])
    }

    @Test func theAtomicWordsOperations() {
        let word = AtomicWord(5)
        #expect(word.load() == 5)
        word.store(7)
        #expect(word.exchange(9) == 7)
        #expect(word.compareExchange(expected: 8, desired: 1) == false)
        #expect(word.compareExchange(expected: 9, desired: 1) == true)
        #expect(word.add(2) == 3)
        #expect(word.subtract(4) == UInt64.max)
        #expect(word.add(1) == 0)
    }
}
