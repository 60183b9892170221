import Foundation
import FuzzSupport
import MapSync

@testable import CarouselServer

/// The stores a fuzzed script runs over: 12, a little apart.
private let stores = InMemoryStoreDirectory(
    (0..<12).map { index in
        StorePin(id: "s\(index)", latitude: 37.5 + Double(index) / 100, longitude: 127 + Double(index) / 100)
    })

/// The server's limits, but for a script's length in time and its
/// timeline's size, cut so that each input runs in milliseconds in a
/// debug build: what matters is that a body ends in a refusal or a
/// timeline, never in a trap or a hang.
private let limits: ServerLimits = {
    var limits = ServerLimits()
    limits.simulation.maxVirtualMs = 60_000
    limits.maxTimelineBytes = 256 << 10
    return limits
}()

/// libFuzzer's entry point: one input as a `POST /simulate` body, read by
/// the route's own reader and, if it passes, run by the route's own
/// runner. A refusal is an `APIError` with a 4xx status; a timeline is a
/// JSON array within the limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    do {
        let (_, script, trace) = try SimulateRoute.parse(data, limits: limits)
        let timeline = try SimulateRoute.timeline(
            of: script, over: stores, trace: trace, limits: limits.simulation, maxBytes: limits.maxTimelineBytes)
        precondition(timeline.utf8.count <= limits.maxTimelineBytes, "a timeline past its limit")
        precondition(timeline.hasPrefix("[") && timeline.hasSuffix("]"), "not a JSON array")
    } catch let error as APIError {
        precondition((400..<500).contains(Int(error.status.code)), "a body answered \(error.status.code): \(error.message)")
    } catch {
        preconditionFailure("not an API error: \(error)")
    }
    return 0
}

/// The entry point SwiftPM names: libFuzzer's driver over the target above.
@_cdecl("FuzzSimulateBody_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzTestOneInput)
}
