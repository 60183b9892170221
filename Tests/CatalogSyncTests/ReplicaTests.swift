import CarouselJSON
import Foundation
import Locks
import StoreCatalog
import TestSupport
import Testing

@testable import CatalogSync

/// A server in the test's process: `GET /lists/{name}/changes` answered
/// from a catalog, as the server's route answers it, and cut short or
/// failed when the test says so.
final class InProcessServer: ChangeTransport, @unchecked Sendable {
    let catalog: Catalog
    /// What the next answer does: nil, whole; a byte count, cut there; -1, a lost connection.
    let fault = StateLock<Int?>(nil)
    let requests = StateLock(0)

    init(catalog: Catalog) { self.catalog = catalog }

    struct LostConnection: Error {}

    func get(_ url: URL, headers: [String: String]) async throws -> (status: Int, body: Data) {
        requests.withLock { $0 += 1 }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        let name = components.path.split(separator: "/")[1].removingPercentEncoding!
        let items = components.queryItems ?? []
        let since = items.first { $0.name == "since" }?.value
        let limit = Int(items.first { $0.name == "limit" }!.value!)!
        let body: Data
        do {
            body = Data(ChangeJSON.page(try await catalog.changes(list: name, since: since, limit: limit)))
        } catch ChangeCursorError.resyncRequired {
            return (410, Data(#"{"error":{"code":"resync_required","message":"resync"}}"#.utf8))
        } catch let error as ChangeCursorError {
            return (400, Data(#"{"error":{"code":"bad_cursor","message":"\#(error)"}}"#.utf8))
        } catch CatalogError.listNotFound {
            return (404, Data(#"{"error":{"code":"list_not_found","message":"no list"}}"#.utf8))
        }
        let planned: Int? = fault.withLock { value -> Int? in
            let planned = value
            value = nil
            return planned
        }
        switch planned {
        case nil: return (200, body)
        case .some(-1): throw LostConnection()
        case let cut?: return (200, body.prefix(min(cut, max(0, body.count - 1))))
        }
    }
}

@Suite("Catalog replica")
struct ReplicaTests {
    static func store(_ id: String, latitude: Double = 37.5) -> Store {
        Store(id: id, name: id.uppercased(), latitude: latitude, longitude: 127, phone: "02", attributes: ["floor": .string("1")])
    }

    static func stores(_ catalog: Catalog, _ list: String) throws -> [Store]? {
        var stores: [Store] = []
        do {
            try catalog.forEachStore(list: list, offset: 0, limit: nil) { _, store in stores.append(store) }
        } catch CatalogError.listNotFound { return nil }
        return stores
    }

    static func replica(_ device: Catalog, _ server: InProcessServer, _ list: String) -> CatalogReplica {
        CatalogReplica(
            catalog: device, list: list,
            source: ChangeSource(server: URL(string: "http://test.invalid")!, list: list, transport: server))
    }

    @Test("a first sync, a delta and a sync with nothing new")
    func firstThenDelta() async throws {
        let server = try Catalog.inMemory()
        let device = try Catalog.inMemory()
        var stores = (0..<40).map { Self.store("s\($0)") }
        try await server.importList(named: "a", from: StoreArray(stores))
        let transport = InProcessServer(catalog: server)
        let replica = Self.replica(device, transport, "a")
        let first = try await replica.sync(pageSize: 7)
        #expect(first.added == 40 && first.pages == 6 && first.listWritten)
        #expect(try Self.stores(device, "a") == stores)

        stores[3].name = "changed"
        stores.remove(at: 10)
        stores.insert(Self.store("new"), at: 20)
        try await server.importList(named: "a", from: StoreArray(stores), options: ImportOptions(replace: true))
        let delta = try await replica.sync()
        #expect(delta.added == 1 && delta.changed == 1 && delta.removed == 1 && delta.pages == 1)
        #expect(try Self.stores(device, "a") == stores)
        let nothing = try await replica.sync()
        #expect(nothing.added + nothing.changed + nothing.removed == 0 && !nothing.listWritten)
    }

    @Test("stores that keep their place are updated in place: rows, spatial index, version and change log")
    func inPlaceUpdate() async throws {
        let server = try Catalog.inMemory()
        let device = try Catalog.inMemory()
        var stores = (0..<30).map { Self.store("s\($0)") }
        try await server.importList(named: "a", from: StoreArray(stores))
        let replica = Self.replica(device, InProcessServer(catalog: server), "a")
        try await replica.sync()
        let version = try await device.listVersion(named: "a")
        let before = try await device.changes(list: "a", since: nil, limit: 1000).next
        stores[7].name = "renamed"
        stores[12].latitude = -33.86
        try await server.importList(named: "a", from: StoreArray(stores), options: ImportOptions(replace: true))
        let report = try await replica.sync()
        #expect(report.changed == 2 && report.listWritten)
        #expect(try Self.stores(device, "a") == stores)
        #expect(try await device.listVersion(named: "a") != version)
        let nearest = try await device.nearest(to: Coordinate(latitude: -33.86, longitude: 127), limit: 1, withinMeters: nil, list: "a")
        #expect(nearest.first?.store.id == "s12")
        // The device's own change log follows: the two stores, at their ranks.
        let local = try await device.changes(list: "a", since: before, limit: 1000)
        #expect(Set(local.changes.map(\.id)) == ["s7", "s12"])
        #expect(try await device.compactChanges() == 0)
    }

    @Test("a cut answer or a lost connection leaves the replica as it was; the next sync resumes")
    func cutsResume() async throws {
        let server = try Catalog.inMemory()
        let device = try Catalog.inMemory()
        let stores = (0..<20).map { Self.store("s\($0)") }
        try await server.importList(named: "a", from: StoreArray(stores))
        let transport = InProcessServer(catalog: server)
        let replica = Self.replica(device, transport, "a")
        transport.fault.withLock { $0 = 100 }
        await #expect(throws: SyncError.self) { try await replica.sync(pageSize: 5) }
        #expect(try device.replicaState(list: "a")?.cursor == nil)
        transport.fault.withLock { $0 = -1 }
        await #expect(throws: InProcessServer.LostConnection.self) { try await replica.sync(pageSize: 5) }
        #expect(try Self.stores(device, "a") == nil)
        let report = try await replica.sync(pageSize: 5)
        #expect(report.added == 20)
        #expect(try Self.stores(device, "a") == stores)
    }

    @Test("a cursor past the retention (410) downloads the list again and says so")
    func resyncOn410() async throws {
        let server = try Catalog.inMemory()
        let clock = Clock(Date(timeIntervalSince1970: 1_700_000_000))
        server.changeLogOptions = ChangeLogOptions(retention: .seconds(60), now: { clock.now })
        let device = try Catalog.inMemory()
        try await server.importList(named: "a", from: StoreArray([Self.store("s1"), Self.store("s2")]))
        let transport = InProcessServer(catalog: server)
        let replica = Self.replica(device, transport, "a")
        try await replica.sync()
        try await server.importList(named: "a", from: StoreArray([Self.store("s1")]), options: ImportOptions(replace: true))
        clock.advance(120)
        try await server.compactChanges()
        let report = try await replica.sync()
        #expect(report.resyncs.count == 1)
        #expect(try Self.stores(device, "a")?.map(\.id) == ["s1"])
    }

    @Test("garbage from the server changes nothing")
    func garbage() async throws {
        let device = try Catalog.inMemory()
        struct Garbage: ChangeTransport {
            let body: String
            func get(_ url: URL, headers: [String: String]) async throws -> (status: Int, body: Data) { (200, Data(body.utf8)) }
        }
        for body in [
            "not json", #"{"changes":[],"next":"","upToDate":true,"checksum":null,"exists":true}"#,
            #"{"changes":[{"seq":1,"id":"x","rank":1,"store":{"name":"X","latitude":99,"longitude":0}}],"next":"1-0-0","upToDate":false,"checksum":null,"exists":true}"#,
            #"{"changes":[{"seq":1,"id":"x","rank":1,"store":{"name":"X","latitude":1,"longitude":0}}],"next":"1-0-0","upToDate":true,"checksum":"0000000000000000","exists":true}"#,
        ] {
            let replica = CatalogReplica(
                catalog: device, list: "a", source: ChangeSource(server: URL(string: "http://x.invalid")!, list: "a", transport: Garbage(body: body)))
            await #expect(throws: SyncError.self) { try await replica.sync() }
            #expect(try Self.stores(device, "a") == nil)
            #expect(try device.replicaState(list: "a")?.cursor == nil)
        }
    }

    /// 1,000 rounds on tiny lists: imports, replaces, renames, deletes and
    /// syncs, a fifth of the answers cut at a random byte or lost; after
    /// every sync that completes, the replica's list is the server's.
    @Test("1,000 random rounds of writes and syncs, some cut short")
    func randomRounds() async throws {
        var random = SplitMix64(seed: 45)
        let server = try Catalog.inMemory()
        let device = try Catalog.inMemory()
        let transport = InProcessServer(catalog: server)
        var lists: [String: [Store]] = [:]
        var serial = 0
        var completed = 0
        for round in 0..<1000 {
            let name = ["a", "b"].randomElement(using: &random)!
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                var stores = lists[name] ?? []
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0 where !stores.isEmpty: stores.remove(at: Int.random(in: 0..<stores.count, using: &random))
                    case 1 where !stores.isEmpty:
                        stores[Int.random(in: 0..<stores.count, using: &random)].address = "r\(round)"
                    case 2 where !stores.isEmpty:
                        let moved = stores.remove(at: Int.random(in: 0..<stores.count, using: &random))
                        stores.insert(moved, at: Int.random(in: 0...stores.count, using: &random))
                    default:
                        serial += 1
                        stores.insert(Self.store("n\(serial)"), at: Int.random(in: 0...stores.count, using: &random))
                    }
                }
                try await server.importList(named: name, from: StoreArray(stores), options: ImportOptions(replace: true))
                lists[name] = stores
            case 4:
                let other = name == "a" ? "b" : "a"
                if lists[name] != nil, lists[other] == nil {
                    try await server.renameList(name, to: other)
                    lists[other] = lists.removeValue(forKey: name)
                }
            case 5:
                if lists[name] != nil {
                    try await server.deleteList(name)
                    lists[name] = nil
                }
            default:
                let fault: Int? =
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0: Int.random(in: 0..<400, using: &random)
                    case 1: -1
                    default: nil
                    }
                transport.fault.withLock { $0 = fault }
                let replica = Self.replica(device, transport, name)
                do {
                    try await replica.sync(pageSize: Int.random(in: 1...6, using: &random))
                    completed += 1
                    #expect(try Self.stores(device, name) == lists[name], "round \(round)")
                } catch SyncError.server(status: 404, _) {
                    #expect(lists[name] == nil)
                } catch is SyncError, is InProcessServer.LostConnection {
                    #expect(fault != nil, "round \(round)")
                }
                transport.fault.withLock { $0 = nil }
            }
        }
        #expect(completed > 100)
    }
}

/// Stores in memory as an import's rows.
struct StoreArray: StoreRowReader {
    private var stores: [Store]
    private var index = 0
    init(_ stores: [Store]) { self.stores = stores }
    mutating func next() throws(ImportFileError) -> ImportRow? {
        guard index < stores.count else { return nil }
        defer { index += 1 }
        return .valid(stores[index], line: index + 2)
    }
}

final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date
    init(_ start: Date) { value = start }
    var now: Date { lock.withLock { value } }
    func advance(_ seconds: TimeInterval) { lock.withLock { value += seconds } }
}
