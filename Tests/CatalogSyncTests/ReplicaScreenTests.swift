import CarouselEngine
import Foundation
import MapSync
import MapSyncCatalog
import Observables
import StoreCatalog
import Testing

@testable import CatalogSync

/// A screen over a replica, as an app shows a synced list: the carousel
/// keeps the card the user rests on across a sync that moves, renames or
/// removes stores around it.
@MainActor
@Suite("A screen over a replica")
struct ReplicaScreenTests {
    let scheduler = VirtualTimeScheduler()

    /// The directory and layout of the replica's local list: what the
    /// screen reads after a sync.
    static func read(_ device: Catalog) async throws -> (stores: CatalogStoreDirectory, layout: CarouselLayout) {
        let stores = try await CatalogStoreDirectory(engine: device, list: "a")
        return (stores, try LayoutSpec().layout(dataCount: stores.count))
    }

    @Test("a sync that moves the focused store keeps it in focus, renamed, at its new place")
    func focusKeptAcrossASync() async throws {
        let server = try Catalog.inMemory()
        let device = try Catalog.inMemory()
        var stores = (0..<20).map { ReplicaTests.store("s\($0)") }
        try await server.importList(named: "a", from: StoreArray(stores))
        let replica = ReplicaTests.replica(device, InProcessServer(catalog: server), "a")
        try await replica.sync()

        let model = MapSyncAppModel(scheduler: scheduler)
        var markers = model.markerSelections.makeAsyncIterator()
        var statuses = model.accessibilityStatuses.makeAsyncIterator()
        #expect(try await model.load(focusedIndex: 12) { try await Self.read(device) })
        #expect(try await markers.next()?.storeId == "s12")

        // The server: three stores before s12, s0 gone, s12 renamed and
        // moved 1 km north.
        stores.insert(contentsOf: ["n1", "n2", "n3"].map { ReplicaTests.store($0) }, at: 5)
        stores.removeFirst()
        let moved = stores.firstIndex { $0.id == "s12" }!
        stores[moved].name = "S12 (moved)"
        stores[moved].latitude += 0.009
        try await server.importList(named: "a", from: StoreArray(stores), options: ImportOptions(replace: true))
        let report = try await replica.sync()
        #expect(report.added == 3 && report.removed == 1 && report.changed == 1 && report.listWritten)

        let command = try await model.reload { try await Self.read(device) }
        #expect(command?.dataIndex == 14 && moved == 14, "s12: 12 + 3 inserted before it - 1 removed")
        #expect(try await markers.next() == MarkerSelection(index: 14, storeId: "s12", previousIndex: nil))
        #expect(model.accessibilityScroll(.next))
        #expect(try await statuses.next()?.text == "Store 16 of 22, S13")
        #expect(model.accessibilityScroll(.previous))
        #expect(try await statuses.next()?.text == "Store 15 of 22, S12 (moved)")
    }

    @Test("a sync that removes the focused store rests on the card that took its place")
    func focusedStoreRemovedBySync() async throws {
        let server = try Catalog.inMemory()
        let device = try Catalog.inMemory()
        var stores = (0..<10).map { ReplicaTests.store("s\($0)") }
        try await server.importList(named: "a", from: StoreArray(stores))
        let replica = ReplicaTests.replica(device, InProcessServer(catalog: server), "a")
        try await replica.sync()
        let model = MapSyncAppModel(scheduler: scheduler)
        var markers = model.markerSelections.makeAsyncIterator()
        #expect(try await model.load(focusedIndex: 4) { try await Self.read(device) })
        #expect(try await markers.next()?.storeId == "s4")

        stores.remove(at: 4)
        try await server.importList(named: "a", from: StoreArray(stores), options: ImportOptions(replace: true))
        #expect(try await replica.sync().removed == 1)
        let command = try await model.reload { try await Self.read(device) }
        #expect(command?.dataIndex == 4)
        #expect(try await markers.next() == MarkerSelection(index: 4, storeId: "s5", previousIndex: nil))
    }
}
