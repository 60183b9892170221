import FuzzSupport

/// libFuzzer's entry point: one input, read as a GeoJSON file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    fuzzImport(UnsafeRawBufferPointer(start: UnsafeRawPointer(start), count: count), format: .geojson)
    return 0
}

/// The entry point SwiftPM names: libFuzzer's driver over the target above.
@_cdecl("FuzzGeoJSON_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzTestOneInput)
}
