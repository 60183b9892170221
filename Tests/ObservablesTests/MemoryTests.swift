import Observables
import Testing

/// Disposing, or the end of the sequence, releases the whole chain: no
/// retain cycle keeps the subject, the operators or the observer alive.
@Suite struct MemoryTests {
    /// Something to capture in a closure and watch die.
    final class Canary: Sendable {
        func touch() {}
    }

    /// Weak references to what one subscription captured.
    struct Watched {
        weak var subject: PublishSubject<Int>?
        weak var scheduler: VirtualTimeScheduler?
        weak var operatorCanary: Canary?
        weak var observerCanary: Canary?

        var allFreed: Bool {
            subject == nil && scheduler == nil && operatorCanary == nil && observerCanary == nil
        }
    }

    /// Subscribes map → debounce → distinct → filter to a subject, leaves a
    /// debounce timer pending, then lets `finish` end it; returns the
    /// subscription (still held by the caller) and the weak references.
    private func subscribeThenFinish(
        _ finish: (PublishSubject<Int>, any Disposable) -> Void
    ) -> (subscription: any Disposable, watched: Watched) {
        let subject = PublishSubject<Int>()
        let scheduler = VirtualTimeScheduler()
        let operatorCanary = Canary()
        let observerCanary = Canary()
        let subscription = subject.asObservable()
            .map {
                operatorCanary.touch(); return $0 + 1
            }
            .debounce(100, scheduler: scheduler)
            .distinctUntilChanged()
            .filter { $0 > 0 }
            .subscribe(onNext: { _ in observerCanary.touch() })
        subject.onNext(1)
        scheduler.advance(by: 150)
        subject.onNext(2)  // leaves a timer armed
        #expect(scheduler.pendingCount == 1)
        finish(subject, subscription)
        #expect(scheduler.pendingCount == 0)
        #expect(!subject.hasObservers)
        return (
            subscription,
            Watched(
                subject: subject, scheduler: scheduler,
                operatorCanary: operatorCanary, observerCanary: observerCanary
            )
        )
    }

    @Test func disposeReleasesTheSubjectTheChainAndTheObserver() {
        let (subscription, watched) = subscribeThenFinish { _, subscription in subscription.dispose() }
        #expect(watched.allFreed)
        withExtendedLifetime(subscription) {}
    }

    @Test func completionReleasesTheSubjectTheChainAndTheObserver() {
        let (subscription, watched) = subscribeThenFinish { subject, _ in subject.onCompleted() }
        #expect(watched.allFreed)
        withExtendedLifetime(subscription) {}
    }

    @Test func anErrorReleasesTheSubjectTheChainAndTheObserver() {
        let (subscription, watched) = subscribeThenFinish { subject, _ in subject.onError(CancellationError()) }
        #expect(watched.allFreed)
        withExtendedLifetime(subscription) {}
    }
}
