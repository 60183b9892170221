import Locks
import Observables
import ObservablesTesting
import Testing

/// The Rx grammar `next* (error | completed)?` at the subscription boundary.
@Suite struct GrammarTests {
    let scheduler = VirtualTimeScheduler()

    @Test func nothingIsDeliveredAfterATerminalEvent() {
        let misbehaving = EventStream<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.onError(TestError())
            observer.onCompleted()
            return Disposables.empty
        }
        expectEvents(scheduler.recordUntilIdle(misbehaving), [.next(0, 1), .completed(0)])
    }

    @Test func aSourceThatStopsDuringSubscribeIsReleasedAtOnce() {
        let disposed = AtomicWord(0)
        let source = EventStream<Int>.create { observer in
            observer.onCompleted()
            return Disposables.create { disposed.store(1) }
        }
        let subscription = source.subscribe()
        let isDisposed = disposed.load() == 1
        #expect(isDisposed)
        subscription.dispose()
    }

    @Test func nothingIsDeliveredAfterDispose() {
        let subject = PublishSubject<Int>()
        let received = Log<Int>()
        let subscription = subject.asObservable().subscribe(onNext: received.append)
        subject.onNext(1)
        subscription.dispose()
        subject.onNext(2)
        #expect(received.entries == [1])
        #expect(!subject.hasObservers)
    }

    @Test func disposingFromInsideOnNextStopsTheNextValues() {
        let subject = PublishSubject<Int>()
        let received = Log<Int>()
        let subscription = SerialDisposable()
        subscription.disposable = subject.asObservable().subscribe(onNext: { value in
            received.append(value)
            if value == 2 { subscription.dispose() }
        })
        for value in 1...4 {
            subject.onNext(value)
        }
        #expect(received.entries == [1, 2])
    }

    @Test func disposingTwiceIsHarmless() {
        let runs = Log<Void>()
        let disposable = Disposables.create { runs.append(()) }
        disposable.dispose()
        disposable.dispose()
        #expect(runs.entries.count == 1)
    }
}
