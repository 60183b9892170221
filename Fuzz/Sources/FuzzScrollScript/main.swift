import FuzzSupport
import Foundation
import MapSync
import MapSyncSimulation

/// The stores a fuzzed script runs over: 12, a little apart.
private let stores = InMemoryStoreDirectory((0..<12).map { index in
    StorePin(id: "s\(index)", latitude: 37.5 + Double(index) / 100, longitude: 127 + Double(index) / 100)
})

/// Limits far below the defaults, so that each input runs in milliseconds:
/// what matters here is that a script ends in an error or a timeline, never
/// in a trap or a hang.
private let limits = SimulationLimits(maxVirtualMs: 120_000, maxFrames: 20_000)

/// libFuzzer's entry point: one input, read as a scroll script and, if it
/// is one, simulated with tracing on.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let script = try? ScrollScript(json: data),
          let simulator = try? ScrollSimulation(script: script, stores: stores)
    else { return 0 }
    do {
        _ = try simulator.run(trace: true, limits: limits) { _ in }
    } catch {
        _ = "\(error)"
    }
    return 0
}

/// The entry point SwiftPM names: libFuzzer's driver over the target above.
@_cdecl("FuzzScrollScript_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzTestOneInput)
}
