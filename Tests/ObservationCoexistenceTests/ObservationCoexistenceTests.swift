// Every app-facing module imported beside Observation, with Observation's
// names written unqualified: before the renames of the changelog's
// Unreleased section, `any Observable` here failed to compile ("reference to
// generic type 'Observable' requires arguments in <...>"), as `Observables`
// exported a generic `Observable` of its own. That this file compiles is the
// test; the tests below check that the names mean what an app expects.
import CarouselEngine
import MapCamera
import MapSync
import MapSyncCatalog
import Observables
import Observation
import Testing

/// An app's own model, with the macro and the protocol of Observation.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class ScreenModel {
    var title = "Stores"
    var insets = MapInsets(bottom: 240)
    var axis: ScrollAxis = .horizontal
    var alignment: CardAlignment = .center
}

/// What an app writes to accept any observable model: Observation's protocol.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
func isObservable(_ model: any Observable) -> Bool {
    true
}

/// Our event stream, by its own name, beside Observation's protocol: the
/// values it sends at once on subscription.
func immediateValues(of stream: EventStream<Int>) -> [Int] {
    final class Box: @unchecked Sendable { var values: [Int] = [] }
    let box = Box()
    stream.subscribe(onNext: { box.values.append($0) }).dispose()
    return box.values
}

@Suite struct ObservationCoexistenceTests {
    @Test @MainActor func observationsNamesAreObservations() throws {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
        let model = ScreenModel()
        #expect(isObservable(model))
        // The library's state is an Observation `Observable` too.
        let state = MapSyncState(observing: MapSyncAppModel(scheduler: VirtualTimeScheduler()))
        #expect(isObservable(state))
        #expect((state as Any) is any Observation.Observable)

        let changed = Flag()
        withObservationTracking {
            _ = model.insets
        } onChange: {
            changed.set()
        }
        model.insets = MapInsets(top: 10, bottom: 240)
        #expect(changed.isSet)
    }

    @Test func ourRenamedTypesAreOurs() {
        let scheduler: any EventScheduler = AnyEventScheduler(VirtualTimeScheduler())
        #expect(scheduler.now == 0)
        #expect(ScrollAxis.allCases == [.horizontal, .vertical])
        #expect(CardAlignment.allCases == [.leading, .center])
        #expect(MapInsets.zero == MapInsets())
        #expect(immediateValues(of: BehaviorSubject(value: 3).asObservable()) == [3])
        #expect(CatalogStoreDirectory.self as Any is any StoreDirectory.Type)
    }
}

final class Flag: @unchecked Sendable {
    private(set) var isSet = false
    func set() { isSet = true }
}
