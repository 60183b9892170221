import Foundation
import FuzzSupport
import MapSyncCatalog
import StoreCatalog

@testable import CarouselServer

/// The list the sessions run on: 12 stores, a little apart, in a catalog
/// in memory, and that catalog (a session's searches read it).
private let (catalog, stores): (Catalog, CatalogStoreDirectory) = {
    let csv =
        "id,name,latitude,longitude\n"
        + (0..<12).map { "s\($0),Store \($0),\(37.5 + Double($0) / 100),\(127 + Double($0) / 100)" }
        .joined(separator: "\n")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-fuzz-session-\(getpid()).csv")
    do {
        try Data(csv.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let catalog = try Catalog.inMemory()
        _ = try catalog.importList(named: "fuzz", from: makeStoreRowReader(for: file, format: .csv))
        var pins: [StorePin] = []
        try catalog.forEachPin(list: "fuzz") { _, pin in pins.append(pin) }
        return (catalog, CatalogStoreDirectory(list: "fuzz", pins: pins))
    } catch {
        fatalError("cannot make the fuzz list: \(error)")
    }
}()

private let limits = ServerLimits()

/// libFuzzer's entry point: one input, its lines the text messages of one
/// session's client (at most 16, each within the server's message limit),
/// handled as the server handles them. Every line the session sends back
/// must be a JSON object with a `type`: an error for what it refuses,
/// never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let messages = text.split(separator: "\n").prefix(16).map(String.init).filter { $0.utf8.count <= limits.maxSessionMessage }
    // The reader alone first: it refuses with a message or parses.
    for message in messages {
        do {
            _ = try SessionInput(text: message)
        } catch {
            precondition(!error.description.isEmpty)
        }
    }
    let session = LiveSession(stores: stores, engine: catalog) { line in
        let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        precondition(object?["type"] is String, "not a session line: \(line)")
    }
    for message in messages { session.receive(message) }
    // The session's task handles the messages, then ends with the session.
    try? runBlocking {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await session.run() }
            await session.handled()
            session.close()
        }
    }
    return 0
}

/// The entry point SwiftPM names: libFuzzer's driver over the target above.
@_cdecl("FuzzSessionMessage_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzTestOneInput)
}
