import Synchronization

#if OBSERVABLES_PTHREAD_LOCKS
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock around every piece of shared state in the observables: here, in
/// a build with `-DOBSERVABLES_PTHREAD_LOCKS`, a `pthread_mutex_t`.
///
/// ThreadSanitizer understands pthread mutexes, but not the futex system
/// calls that `Synchronization.Mutex` makes on Linux: it reports every
/// access under a `Mutex` from two threads as a race (a four-line program
/// appending to a `Mutex<[Int]>` from 8 threads gets the same warnings on
/// Swift 6.3). `scripts/sanitize` builds with this flag, so that a TSan
/// report on the observables points at a real race. The API is the part of
/// `Mutex`'s that the package uses, so either type compiles at every site.
@usableFromInline
package final class StateLock<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    @usableFromInline
    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @usableFromInline
    package func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
#else
/// The lock around every piece of shared state in the observables:
/// `Synchronization.Mutex`, or a pthread mutex in a build with
/// `-DOBSERVABLES_PTHREAD_LOCKS` that ThreadSanitizer can see through
/// (`scripts/sanitize`; see the other branch of this file).
///
/// `package`, so that tests sharing state between threads use the same lock
/// and a TSan run sees through theirs too.
@usableFromInline
package typealias StateLock<Value> = Mutex<Value>
#endif
