import CarouselEngine
import MapSync
import MapSyncSimulation
import Observables
import ObservablesTesting

/// `count` stores `s0`, `s1`, … a little apart across Seoul.
func sampleStores(_ count: Int) -> InMemoryStoreDirectory {
    InMemoryStoreDirectory(
        (0..<count).map { i in
            StorePin(id: "s\(i)", latitude: 37.5 + Double(i) / 100, longitude: 127 + Double(i) / 100)
        })
}

/// The default layout (390-pt viewport, 300-pt cards, spacing 12: page 312,
/// groupPagingCentered) with `spec`'s changes, for `count` stores.
func layout(_ count: Int, _ spec: LayoutSpec = LayoutSpec()) throws -> CarouselLayout {
    try spec.layout(dataCount: count)
}

/// What the map should receive for store `index`: its camera position and
/// its marker selection, at `time`, in that order.
func selection(
    _ time: Milliseconds, _ index: Int, previous: Int?, in stores: InMemoryStoreDirectory, zoom: Double = 16
) -> [Recorded<TimelineEntry.Kind>] {
    let pin = stores.pins[index]
    return [
        .next(time, .camera(CameraPosition(index: index, pin: pin, zoom: zoom))),
        .next(time, .marker(MarkerSelection(index: index, storeId: pin.id, previousIndex: previous))),
    ]
}

extension ScrollSimulation.Outcome {
    /// The timeline as recorded events, to compare as marble diagrams.
    var marbles: [Recorded<TimelineEntry.Kind>] {
        timeline.map { .next($0.time, $0.kind) }
    }

    /// The traced frames.
    var frames: [Frame] {
        timeline.compactMap { entry in
            if case .frame(let frame) = entry.kind { frame } else { nil }
        }
    }
}

/// A store directory whose lookups fail: storage gone bad.
struct FailingStoreDirectory: StoreDirectory {
    struct Failure: Error, Equatable {}
    let count: Int
    func pin(at index: Int) throws -> StorePin { throw Failure() }
}
