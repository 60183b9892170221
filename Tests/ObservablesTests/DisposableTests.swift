import Locks
import Observables
import Testing

@Suite struct DisposableTests {
    /// Counts how many times each disposable was disposed.
    final class Tally: Sendable {
        private let counts = StateLock<[String: Int]>([:])

        func disposable(_ name: String) -> any Disposable {
            Disposables.create { [self] in counts.withLock { $0[name, default: 0] += 1 } }
        }

        var disposed: [String: Int] { counts.withLock { $0 } }
    }

    let tally = Tally()

    @Test func aCompositeDisposesEveryMemberOnce() {
        let bag = CompositeDisposable(tally.disposable("a"), tally.disposable("b"))
        tally.disposable("c").disposed(by: bag)
        #expect(bag.count == 3)
        bag.dispose()
        bag.dispose()
        #expect(tally.disposed == ["a": 1, "b": 1, "c": 1])
        #expect(bag.isDisposed)
    }

    @Test func aCompositeDisposesARemovedMemberAtOnceAndSkipsItLater() throws {
        let bag = CompositeDisposable()
        let key = try #require(bag.insert(tally.disposable("a")))
        bag.insert(tally.disposable("b"))
        bag.remove(for: key)
        #expect(tally.disposed == ["a": 1])
        bag.dispose()
        #expect(tally.disposed == ["a": 1, "b": 1])
    }

    @Test func aCompositeDisposesWhatIsAddedAfterItWasDisposed() {
        let bag = CompositeDisposable()
        bag.dispose()
        #expect(bag.insert(tally.disposable("late")) == nil)
        #expect(tally.disposed == ["late": 1])
    }

    @Test func aSerialDisposesThePreviousOneOnReplacement() {
        let serial = SerialDisposable()
        serial.disposable = tally.disposable("a")
        serial.disposable = tally.disposable("b")
        #expect(tally.disposed == ["a": 1])
        serial.dispose()
        #expect(tally.disposed == ["a": 1, "b": 1])
        serial.disposable = tally.disposable("c")
        #expect(tally.disposed == ["a": 1, "b": 1, "c": 1])
        #expect(serial.isDisposed)
    }

    @Test func anAnonymousDisposableRunsOnceAndReportsIt() {
        let disposable = AnonymousDisposable { [tally] in _ = tally.disposable("x") }
        #expect(!disposable.isDisposed)
        disposable.dispose()
        #expect(disposable.isDisposed)
    }
}
