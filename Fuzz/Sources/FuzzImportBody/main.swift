import Foundation
import FuzzSupport
import Hummingbird
import NIOCore
import StoreCatalog

@testable import CarouselServer

/// One catalog in memory for every input: each import replaces the list.
private let catalog: Catalog = {
    do {
        return try Catalog.inMemory()
    } catch {
        fatalError("cannot open a catalog in memory: \(error)")
    }
}()

/// The server's limits, as `carousel serve` runs with them.
private let limits = ServerLimits()

/// The upload's folder, one per process, in /dev/shm when there is one.
private let folder: URL = {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let url = URL(fileURLWithPath: base).appendingPathComponent("carousel-fuzz-upload-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// libFuzzer's entry point: one input as a `POST /lists/fuzz/import` body.
/// Its first byte picks the format (of the five, in `ImportFormat`'s order)
/// and `skipInvalid`; the rest is the body, streamed to a file in chunks
/// of up to 257 bytes by the route's own writer, under the server's
/// limit, then imported by the route's own import. A refusal is an
/// `APIError` with a 4xx status; an import that commits holds exactly the
/// rows its report counts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let formats = ImportFormat.allCases
    let format = formats[Int(start[0]) % formats.count]
    let options = ImportOptions(skipInvalid: Int(start[0]) / formats.count % 2 == 1, replace: true)
    let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    // The body as the network hands it over: in chunks.
    let (chunks, source) = AsyncStream.makeStream(of: ByteBuffer.self)
    for offset in stride(from: 0, to: bytes.count, by: 257) { source.yield(ByteBuffer(bytes: bytes[offset..<min(offset + 257, bytes.count)])) }
    source.finish()
    let file = folder.appendingPathComponent("body.\(format.rawValue)")
    defer { try? FileManager.default.removeItem(at: file) }
    do {
        try runBlocking {
            try await ImportRoute.stream(
                RequestBody(asyncSequence: chunks), to: file, limit: limits.maxImportBody, declaredLength: bytes.count)
        }
        let report = try runBlocking {
            try await ImportRoute.importFile(file, format: format, into: catalog, list: "fuzz", options: options)
        }
        let held = try catalog.count(list: "fuzz")
        precondition(held == report.imported, "the list holds other rows than its report counts")
        precondition(report.issues.count <= options.issueLimit, "the report is not bounded")
    } catch let error as APIError {
        precondition((400..<500).contains(Int(error.status.code)), "a body answered \(error.status.code): \(error.message)")
    } catch {
        preconditionFailure("not an API error: \(error)")
    }
    return 0
}

/// The entry point SwiftPM names: libFuzzer's driver over the target above.
@_cdecl("FuzzImportBody_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzTestOneInput)
}
