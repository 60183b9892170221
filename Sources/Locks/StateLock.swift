#if canImport(Darwin) || PORTABLE_LOCKS
    #if canImport(Darwin)
        import Darwin
    #elseif canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// The lock around every piece of shared state in the package: on Apple
    /// platforms (and in a Linux build with `-DPORTABLE_LOCKS`) a
    /// `pthread_mutex_t` of our own, stored in the same allocation as the value.
    ///
    /// Why not `Synchronization.Mutex`: it arrives with iOS 18 and macOS 15, and
    /// the package supports iOS 16 and macOS 13. GRDB keeps its own lock for the
    /// same reason; the layout here — one `ManagedBuffer` holding the value with
    /// the mutex as its tail element, so a lock costs one allocation and the
    /// mutex never moves — is swift-nio's `NIOLockedValueBox`
    /// (`Sources/NIOConcurrencyHelpers/NIOLock.swift`), which also uses a
    /// pthread mutex on Darwin. `os_unfair_lock` would be a little faster there,
    /// but a pthread mutex keeps one code path that this Linux machine compiles
    /// and tests (`-DPORTABLE_LOCKS`), and ThreadSanitizer understands it.
    ///
    /// The API is the part of `Mutex`'s that the package uses, so either type
    /// compiles at every site. To compile this branch on Linux:
    /// `swift build -Xswiftc -DPORTABLE_LOCKS --scratch-path .build-portable`.
    @usableFromInline
    package struct StateLock<Value>: ~Copyable, @unchecked Sendable {
        @usableFromInline
        let storage: LockStorage<Value>

        @inlinable
        package init(_ value: consuming Value) {
            storage = LockStorage.make(value)
        }

        /// Runs `body` with the value, holding the lock.
        ///
        /// Without `Mutex`'s `sending` annotations, which a pointer into the
        /// buffer cannot satisfy: this signature accepts everything `Mutex`'s
        /// does, so code the Linux build checks against `Mutex` (that no
        /// non-`Sendable` value leaves the lock) compiles here unchanged.
        @inlinable
        package borrowing func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
            try storage.withLock(body)
        }
    }

    /// The value and its mutex in one allocation (the mutex is the tail element).
    @usableFromInline
    package final class LockStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
        @inlinable
        static func make(_ value: consuming Value) -> LockStorage {
            let buffer = create(minimumCapacity: 1) { [value] _ in value }
            // `create` is declared to return ManagedBuffer; it builds an instance
            // of the class it is called on.
            let storage = unsafeDowncast(buffer, to: LockStorage.self)
            storage.withUnsafeMutablePointerToElements { mutex in
                mutex.initialize(to: pthread_mutex_t())
                let status = pthread_mutex_init(mutex, nil)
                precondition(status == 0, "pthread_mutex_init failed: \(status)")
            }
            return storage
        }

        /// Destroys the mutex. Not the value: it is `ManagedBuffer`'s `header`,
        /// a stored property that the buffer's own deinit destroys.
        @inlinable
        deinit {
            withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                mutex.deinitialize(count: 1)
            }
        }

        @inlinable
        func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
            try withUnsafeMutablePointers { (value, mutex) throws(E) -> Result in
                pthread_mutex_lock(mutex)
                defer { pthread_mutex_unlock(mutex) }
                return try body(&value.pointee)
            }
        }
    }
#else
    import Synchronization

    /// The lock around every piece of shared state in the package: on Linux,
    /// `Synchronization.Mutex`, which has no availability floor there.
    ///
    /// On Apple platforms `Mutex` needs iOS 18 / macOS 15, above the package's
    /// floor, so they get the pthread lock of the other branch of this file
    /// (also what a Linux build with `-DPORTABLE_LOCKS` compiles, for
    /// ThreadSanitizer, which does not see through `Mutex`'s futex calls, and to
    /// test the Apple code path here). Linux keeps `Mutex` because it is faster
    /// on the hot path: the pipeline benchmark measured 24.4–24.6 M events/s
    /// with `Mutex` against 13.3–13.5 M with a pthread mutex (BENCHMARKS.md,
    /// "Observable locks as pthread mutexes").
    ///
    /// A wrapper rather than a type alias, so that code inlined from other
    /// modules needs only `Locks`, never `Synchronization` itself.
    @usableFromInline
    package struct StateLock<Value>: ~Copyable, @unchecked Sendable {
        @usableFromInline
        let mutex: Mutex<Value>

        @inlinable
        package init(_ value: consuming sending Value) {
            mutex = Mutex(value)
        }

        /// Runs `body` with the value, holding the lock.
        @inlinable
        package borrowing func withLock<Result: ~Copyable, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            try mutex.withLock(body)
        }
    }
#endif
