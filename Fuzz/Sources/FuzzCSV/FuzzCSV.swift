import FuzzSupport

/// libFuzzer's entry point: one input, read as a CSV file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzImport(UnsafeRawBufferPointer(start: start, count: count), format: .csv)
    return 0
}
