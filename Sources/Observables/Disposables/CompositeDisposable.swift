import Locks

/// A bag of disposables released together (RxSwift's `CompositeDisposable`).
///
/// Once the bag is disposed, anything inserted later is disposed at once, so a
/// subscription added during teardown cannot leak.
public final class CompositeDisposable: Disposable {
    /// Identifies one member, to remove it before the bag is disposed.
    public struct Key: Hashable, Sendable {
        fileprivate let rawValue: UInt64
    }

    private struct State {
        /// Members in insertion order; `nil` once disposed.
        var members: [(key: Key, disposable: any Disposable)]? = []
        var nextKey: UInt64 = 0
    }

    private let state = StateLock(State())

    /// Creates a bag holding `disposables`.
    public init(_ disposables: any Disposable...) {
        for disposable in disposables {
            insert(disposable)
        }
    }

    /// The number of members not yet disposed.
    public var count: Int {
        state.withLock { $0.members?.count ?? 0 }
    }

    /// Whether the bag has been disposed.
    public var isDisposed: Bool {
        state.withLock { $0.members == nil }
    }

    /// Adds `disposable`; returns its key, or `nil` (and disposes it now) if
    /// the bag is already disposed.
    @discardableResult
    public func insert(_ disposable: any Disposable) -> Key? {
        let key: Key? = state.withLock { state in
            guard state.members != nil else { return nil }
            let key = Key(rawValue: state.nextKey)
            state.nextKey += 1
            state.members!.append((key, disposable))
            return key
        }
        if key == nil {
            disposable.dispose()
        }
        return key
    }

    /// Removes the member for `key` and disposes it.
    public func remove(for key: Key) {
        let removed: (any Disposable)? = state.withLock { state in
            guard let index = state.members?.firstIndex(where: { $0.key == key }) else { return nil }
            return state.members!.remove(at: index).disposable
        }
        removed?.dispose()
    }

    public func dispose() {
        let members = state.withLock { state in
            defer { state.members = nil }
            return state.members ?? []
        }
        // Outside the lock: a member's teardown may touch this bag again.
        for member in members {
            member.disposable.dispose()
        }
    }
}
