#if canImport(Darwin) || PORTABLE_LOCKS
    /// A 64-bit word read and written from several threads without a data race:
    /// here (Apple platforms, `-DPORTABLE_LOCKS`) a word under a ``StateLock``.
    ///
    /// `Synchronization.Atomic` needs iOS 18 / macOS 15, above the package's
    /// floor. A lock gives every operation acquire-and-release ordering, at
    /// least what each caller asks for, at the cost of a lock instead of one
    /// instruction. The API is the part of `Atomic<UInt64>`'s the package uses,
    /// with the orderings fixed (loads acquire, stores release, exchanges both).
    @usableFromInline
    package struct AtomicWord: ~Copyable, Sendable {
        @usableFromInline
        let word: StateLock<UInt64>

        @inlinable
        package init(_ value: UInt64) {
            word = StateLock(value)
        }

        @inlinable
        package borrowing func load() -> UInt64 {
            word.withLock { $0 }
        }

        @inlinable
        package borrowing func store(_ value: UInt64) {
            word.withLock { $0 = value }
        }

        /// Sets the word to `desired` if it holds `expected`; whether it did.
        @inlinable
        package borrowing func compareExchange(expected: UInt64, desired: UInt64) -> Bool {
            word.withLock { word in
                guard word == expected else { return false }
                word = desired
                return true
            }
        }

        /// Sets the word to `value`; the value it held.
        @inlinable
        package borrowing func exchange(_ value: UInt64) -> UInt64 {
            word.withLock { word in
                defer { word = value }
                return word
            }
        }

        /// Adds `delta` (wrapping) and returns the new value.
        @inlinable
        @discardableResult
        package borrowing func add(_ delta: UInt64) -> UInt64 {
            word.withLock { word in
                word &+= delta
                return word
            }
        }
        /// Subtracts `delta` (wrapping) and returns the new value.
        @inlinable
        @discardableResult
        package borrowing func subtract(_ delta: UInt64) -> UInt64 {
            word.withLock { word in
                word &-= delta
                return word
            }
        }
    }
#else
    import Synchronization

    /// A 64-bit word read and written from several threads without a data race:
    /// on Linux `Synchronization.Atomic<UInt64>` (no availability floor there).
    /// Apple platforms get the locked word of the other branch of this file,
    /// as `Atomic` needs iOS 18 / macOS 15; see there. Loads acquire, stores
    /// release, exchanges both.
    @usableFromInline
    package struct AtomicWord: ~Copyable, Sendable {
        @usableFromInline
        let word: Atomic<UInt64>

        @inlinable
        package init(_ value: UInt64) {
            word = Atomic(value)
        }

        @inlinable
        package borrowing func load() -> UInt64 {
            word.load(ordering: .acquiring)
        }

        @inlinable
        package borrowing func store(_ value: UInt64) {
            word.store(value, ordering: .releasing)
        }

        /// Sets the word to `desired` if it holds `expected`; whether it did.
        @inlinable
        package borrowing func compareExchange(expected: UInt64, desired: UInt64) -> Bool {
            word.compareExchange(expected: expected, desired: desired, ordering: .acquiringAndReleasing).exchanged
        }

        /// Sets the word to `value`; the value it held.
        @inlinable
        package borrowing func exchange(_ value: UInt64) -> UInt64 {
            word.exchange(value, ordering: .acquiringAndReleasing)
        }

        /// Adds `delta` (wrapping) and returns the new value.
        @inlinable
        @discardableResult
        package borrowing func add(_ delta: UInt64) -> UInt64 {
            word.wrappingAdd(delta, ordering: .acquiringAndReleasing).newValue
        }

        /// Subtracts `delta` (wrapping) and returns the new value.
        @inlinable
        @discardableResult
        package borrowing func subtract(_ delta: UInt64) -> UInt64 {
            word.wrappingSubtract(delta, ordering: .acquiringAndReleasing).newValue
        }
    }
#endif
