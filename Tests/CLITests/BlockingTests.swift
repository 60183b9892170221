import CarouselCommandLine
import Dispatch
import Foundation
import Locks
import Testing

/// `Blocking.wait`: async work awaited from synchronous code, as the
/// command line runs its commands and looks stores up.
@Suite struct BlockingTests {
    struct Failure: Error {}

    @Test func returnsWhatTheWorkReturnedAndThrowsWhatItThrew() async throws {
        let value = try Blocking.wait {
            await Task.yield()
            return 42
        }
        #expect(value == 42)
        #expect(throws: Failure.self) { try Blocking.wait { () async throws -> Int in throw Failure() } }
    }

    /// More waiting threads than half of libdispatch's 255 workers, all
    /// waiting at once: when each wait handed its work to another thread,
    /// the pool ran out before the work could start and every one of them
    /// hung (a server with 512 live sessions did).
    @Test func waitersOnMoreThanHalfTheDispatchPoolAllFinish() {
        let waiters = 200
        let arrived = StateLock(0)
        let finished = StateLock(0)
        let group = DispatchGroup()
        for index in 0..<waiters {
            DispatchQueue(label: "blocking-test-\(index)").async(group: group) {
                let together = try? Blocking.wait { () async -> Bool in
                    arrived.withLock { $0 += 1 }
                    // Bounded: 20 s for every waiter to arrive.
                    let deadline = DispatchTime.now() + .seconds(20)
                    while arrived.withLock({ $0 }) < waiters {
                        guard DispatchTime.now() < deadline else { return false }
                        usleep(1_000)
                    }
                    return true
                }
                if together == true { finished.withLock { $0 += 1 } }
            }
        }
        #expect(group.wait(timeout: .now() + .seconds(60)) == .success)
        #expect(finished.withLock { $0 } == waiters)
    }

    @Test func aJobFromAnotherThreadWakesTheWaitingOne() throws {
        // The continuation is resumed from a dispatch thread, as an event
        // loop resumes one: its job is queued to the waiting thread.
        let value = try Blocking.wait {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { continuation.resume(returning: 7) }
            }
        }
        #expect(value == 7)
    }
}
