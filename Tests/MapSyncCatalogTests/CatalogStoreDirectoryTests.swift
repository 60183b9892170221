import CarouselEngine
import Foundation
import MapSync
import MapSyncCatalog
import Observables
import ObservablesTesting
import StoreCatalog
import TestSupport
import Testing

/// A catalog list behind the view model, as an app that keeps its stores in
/// the catalog uses it.
@Suite struct CatalogStoreDirectoryTests {
    /// A catalog file holding `lists`, each a list of (id, latitude, longitude).
    private func catalog(_ lists: [String: [(String, Double, Double)]]) throws -> (Catalog, TemporaryDirectory) {
        let directory = try TemporaryDirectory("catalog-directory-test")
        let catalog = try Catalog(path: directory.path("catalog.sqlite").path)
        for (name, stores) in lists.sorted(by: { $0.key < $1.key }) {
            let csv = "id,name,latitude,longitude\n" + stores.map { "\($0.0),Store \($0.0),\($0.1),\($0.2)" }.joined(separator: "\n")
            let file = try directory.write("\(name).csv", csv)
            try catalog.importList(named: name, from: makeStoreRowReader(for: file, format: .csv))
        }
        return (catalog, directory)
    }

    @Test func pinsAndPositionsComeFromTheList() throws {
        let (catalog, directory) = try catalog(["seoul": [("a", 37.5, 127.0), ("b", 37.6, 127.1), ("c", 37.7, 127.2)]])
        _ = directory
        let stores = try CatalogStoreDirectory(engine: catalog, list: "seoul")
        #expect(stores.count == 3)
        #expect(try stores.pin(at: 1) == StorePin(id: "b", latitude: 37.6, longitude: 127.1))
        #expect(try stores.index(ofStore: "c") == 2)
        #expect(try stores.index(ofStore: "missing") == nil)
        #expect(throws: CatalogError.self) { try CatalogStoreDirectory(engine: catalog, list: "busan") }
    }

    @Test func aReloadedCatalogListKeepsTheFocusedStore() throws {
        let (catalog, directory) = try catalog([
            "before": [("a", 37.5, 127.0), ("b", 37.6, 127.1), ("c", 37.7, 127.2)],
            "after": [("c", 37.7, 127.2), ("d", 37.8, 127.3)],
        ])
        _ = directory
        let scheduler = VirtualTimeScheduler()
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let cameras = EventRecorder<CameraPosition>(scheduler: scheduler)
        cameras.record(viewModel.camera)
        let markers = EventRecorder<MarkerSelection>(scheduler: scheduler)
        markers.record(viewModel.marker)

        let before = try CatalogStoreDirectory(engine: catalog, list: "before")
        try viewModel.load(before, layout: LayoutSpec().layout(dataCount: before.count), focusedIndex: 2)
        let after = try CatalogStoreDirectory(engine: catalog, list: "after")
        let command = try viewModel.reload(after, layout: LayoutSpec().layout(dataCount: after.count), keepingFocusOn: "c")
        #expect(command?.dataIndex == 0)
        #expect(cameras.values.map(\.storeId) == ["c"], "the camera stays on c")
        #expect(
            markers.values == [
                MarkerSelection(index: 2, storeId: "c", previousIndex: nil),
                MarkerSelection(index: 0, storeId: "c", previousIndex: nil),
            ])
    }
}
