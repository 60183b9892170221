import Locks

extension EventStream {
    /// Drops each value equivalent to the last one emitted, comparing keys
    /// (Rx `distinctUntilChanged(_:comparer:)`).
    ///
    /// The first value passes; a value passes when its key differs from the
    /// key of the last **emitted** value (as RxSwift) — so A, A, B, B, A gives
    /// A, B, A. The key of each value is computed once.
    @inlinable
    public func distinctUntilChanged<Key: Sendable>(
        by key: @escaping @Sendable (Element) -> Key,
        comparer isEquivalent: @escaping @Sendable (Key, Key) -> Bool
    ) -> EventStream {
        EventStream(trusted: { observer in
            let sink = DistinctUntilChangedSink(downstream: observer, key: key, isEquivalent: isEquivalent)
            return subscribeTrusted(Observer { event in sink.on(event) })
        })
    }

    /// Drops each value whose key equals the key of the last value emitted.
    ///
    /// `distinctUntilChanged(by: \.storeID)` keeps a store once per run of
    /// equal ids.
    @inlinable
    public func distinctUntilChanged<Key: Equatable & Sendable>(
        by key: @escaping @Sendable (Element) -> Key
    ) -> EventStream {
        distinctUntilChanged(by: key, comparer: ==)
    }

    /// Drops each value that `isEquivalent` deems equal to the last value emitted.
    @inlinable
    public func distinctUntilChanged(
        _ isEquivalent: @escaping @Sendable (Element, Element) -> Bool
    ) -> EventStream {
        distinctUntilChanged(by: { $0 }, comparer: isEquivalent)
    }
}

extension EventStream where Element: Equatable {
    /// Drops each value equal to the last value emitted: A, A, B, B, A gives A, B, A.
    @inlinable
    public func distinctUntilChanged() -> EventStream {
        distinctUntilChanged(by: { $0 }, comparer: ==)
    }
}

/// The state of one `distinctUntilChanged` subscription: the key of the last
/// emitted value.
@usableFromInline
final class DistinctUntilChangedSink<Element: Sendable, Key: Sendable>: Sendable {
    @usableFromInline let downstream: Observer<Element>
    @usableFromInline let key: @Sendable (Element) -> Key
    @usableFromInline let isEquivalent: @Sendable (Key, Key) -> Bool
    /// Deliveries are serialized by the grammar, so this lock is never
    /// contended; it makes the sink `Sendable` without `@unchecked`.
    @usableFromInline let lastEmittedKey = StateLock<Key?>(nil)

    @inlinable
    init(
        downstream: Observer<Element>,
        key: @escaping @Sendable (Element) -> Key,
        isEquivalent: @escaping @Sendable (Key, Key) -> Bool
    ) {
        self.downstream = downstream
        self.key = key
        self.isEquivalent = isEquivalent
    }

    @inlinable
    func on(_ event: Event<Element>) {
        if case .next(let element) = event {
            let newKey = key(element)
            // The comparer is a pure function of two keys, so running it under
            // the (uncontended) lock is safe.
            let isChange = lastEmittedKey.withLock { last in
                if let last, isEquivalent(last, newKey) { return false }
                last = newKey
                return true
            }
            guard isChange else { return }
        }
        downstream.on(event)
    }
}
