import Foundation
import StoreCatalog

/// Reads `bytes` as a file of `format` to the end, as an import would: every
/// row through the format's reader and the row validator. A file error is a
/// fine outcome; a trap, a hang or a memory error is what the fuzzer finds.
public func fuzzImport(_ bytes: UnsafeRawBufferPointer, format: ImportFormat) {
    // The readers stream from a file (they never hold a whole input): give
    // them one, in the fastest temporary place there is.
    let file = scratchFile(format)
    guard FileManager.default.createFile(atPath: file.path, contents: Data(bytes)) else {
        fatalError("cannot write \(file.path)")
    }
    do {
        var reader = try makeStoreRowReader(for: file, format: format)
        while let row = try reader.next() {
            // A valid row's store must really be valid.
            if case .valid(let store, _) = row {
                precondition((-90...90).contains(store.latitude) && (-180...180).contains(store.longitude))
                precondition(!store.id.isEmpty && !store.name.isEmpty)
            }
        }
    } catch {
        // ImportFileError: the input was refused, with a message.
        _ = "\(error)"
    }
}

/// One file per process and format, in /dev/shm when there is one.
private func scratchFile(_ format: ImportFormat) -> URL {
    let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    return URL(fileURLWithPath: folder)
        .appendingPathComponent("carousel-fuzz-\(ProcessInfo.processInfo.processIdentifier).\(format.rawValue)")
}

/// libFuzzer's driver, in the fuzzer runtime `-sanitize=fuzzer` links.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer over `testOneInput` with the command line's options.
///
/// SwiftPM links an executable's `main` to `<Target>_main` (so that tests
/// can link the target), which a target without top-level code does not
/// define; each target defines that symbol as a call to this, and libFuzzer
/// runs as from its own `main`.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
}
