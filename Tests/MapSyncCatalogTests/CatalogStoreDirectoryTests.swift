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

    @Test func pinsAndPositionsComeFromTheList() async throws {
        let (catalog, directory) = try catalog(["seoul": [("a", 37.5, 127.0), ("b", 37.6, 127.1), ("c", 37.7, 127.2)]])
        _ = directory
        let stores = try await CatalogStoreDirectory(engine: catalog, list: "seoul")
        #expect(stores.count == 3)
        #expect(try stores.pin(at: 1) == StorePin(id: "b", latitude: 37.6, longitude: 127.1))
        #expect(try stores.index(ofStore: "c") == 2)
        #expect(try stores.index(ofStore: "missing") == nil)
        #expect(throws: CatalogError.self) { try stores.pin(at: 3) }
        await #expect(throws: CatalogError.self) { try await CatalogStoreDirectory(engine: catalog, list: "busan") }
    }

    /// The names are read ahead with the pins, for an accessibility
    /// status's `{name}`: a screen reader says the store's name, not its id.
    @Test func namesAreReadAheadForTheAccessibilityStatus() async throws {
        let (catalog, directory) = try catalog(["seoul": [("a", 37.5, 127.0), ("b", 37.6, 127.1)]])
        let stores = try await CatalogStoreDirectory(engine: catalog, list: "seoul")
        try FileManager.default.removeItem(at: directory.url)
        #expect(try stores.statusDetails(at: 1) == StoreStatusDetails(name: "Store b"))
        #expect(throws: CatalogError.self) { try stores.statusDetails(at: 2) }
        let template = try StatusTemplate("{name}, {position} of {count}")
        let scheduler = VirtualTimeScheduler()
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let statuses = EventRecorder<AccessibilityStatus>(scheduler: scheduler)
        statuses.record(viewModel.accessibilityStatus)
        viewModel.setStatusTemplate(template)
        try viewModel.load(stores, layout: LayoutSpec().layout(dataCount: 2))
        #expect(viewModel.accessibilityScroll(.next))
        #expect(statuses.values.map(\.text).last == "Store b, 2 of 2")
        // A directory of bare pins has no names: `{name}` says the id.
        #expect(try CatalogStoreDirectory(list: "l", pins: [StorePin(id: "x", latitude: 0, longitude: 0)]).statusDetails(at: 0).name == nil)
    }

    /// The pins are read ahead: once made, the directory answers with the
    /// catalog gone, so a lookup never waits for SQLite (nor for an import
    /// holding it).
    @Test func lookupsAfterTheReadNeverTouchTheCatalog() async throws {
        let (catalog, directory) = try catalog(["seoul": [("a", 37.5, 127.0), ("b", 37.6, 127.1)]])
        let stores = try await CatalogStoreDirectory(engine: catalog, list: "seoul")
        try FileManager.default.removeItem(at: directory.url)
        #expect(try stores.pin(at: 0) == StorePin(id: "a", latitude: 37.5, longitude: 127.0))
        #expect(try stores.index(ofStore: "b") == 1)
    }

    /// What an app does: open the catalog and read a list's pins without
    /// its own thread touching SQLite.
    @Test func anAppOpensTheCatalogAndReadsTheListAsynchronously() async throws {
        let (catalog, directory) = try catalog(["seoul": [("a", 37.5, 127.0), ("b", 37.6, 127.1)]])
        _ = catalog
        let opened = try await Catalog.open(path: directory.path("catalog.sqlite").path, access: .read)
        let stores = try await CatalogStoreDirectory(engine: opened, list: "seoul")
        #expect(try stores.pin(at: 1).id == "b")
    }

    @Test func idsOfAnyLengthAndScriptRoundTrip() throws {
        let pins = [
            StorePin(id: "", latitude: 0, longitude: 0), StorePin(id: "하늘-카페-강남역-1호점", latitude: 37.5, longitude: 127),
            StorePin(id: String(repeating: "x", count: 300), latitude: -33.9, longitude: 151.2),
        ]
        let stores = CatalogStoreDirectory(list: "l", pins: pins)
        #expect(try (0..<3).map { try stores.pin(at: $0) } == pins)
        #expect(try stores.index(ofStore: "하늘-카페-강남역-1호점") == 1)
        #expect(try stores.index(ofStore: String(repeating: "x", count: 300)) == 2)
        #expect(try stores.index(ofStore: "") == 0)
        #expect(try stores.index(ofStore: "하늘") == nil)
    }

    @Test func aReloadedCatalogListKeepsTheFocusedStore() async throws {
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

        let before = try await CatalogStoreDirectory(engine: catalog, list: "before")
        try viewModel.load(before, layout: LayoutSpec().layout(dataCount: before.count), focusedIndex: 2)
        let after = try await CatalogStoreDirectory(engine: catalog, list: "after")
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
