/// A handle on a resource — a subscription, a scheduled action — that can be released.
///
/// `dispose()` is idempotent and thread-safe in every implementation of this
/// module: the first call releases, later calls do nothing.
public protocol Disposable: Sendable {
    /// Releases the resource; nothing is delivered through it afterwards.
    func dispose()
}

extension Disposable {
    /// Adds this disposable to `bag`, to be released with it.
    public func disposed(by bag: CompositeDisposable) {
        bag.insert(self)
    }
}
