import FuzzSupport

/// libFuzzer's entry point: one input, read as a JSON file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzImport(UnsafeRawBufferPointer(start: start, count: count), format: .json)
    return 0
}
