/// Factories for the common disposables (RxSwift's `Disposables`).
public enum Disposables {
    /// A disposable that does nothing: for subscriptions that hold no resource.
    public static let empty: any Disposable = EmptyDisposable()

    /// A disposable that runs `action` once, on its first `dispose()`.
    public static func create(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        AnonymousDisposable(action)
    }

    /// A disposable that disposes `first` then `second`, once.
    public static func create(_ first: any Disposable, _ second: any Disposable) -> any Disposable {
        AnonymousDisposable {
            first.dispose()
            second.dispose()
        }
    }
}

/// The disposable that holds nothing.
private struct EmptyDisposable: Disposable {
    func dispose() {}
}
