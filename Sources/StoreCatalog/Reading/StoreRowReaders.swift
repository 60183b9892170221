import Foundation
import TextInput

/// Opens `url` for streaming as `format`: rows come out validated, one at a
/// time, and the file is never loaded whole (memory stays flat with its size).
///
/// Fails before any row when the file as a whole cannot be read as stores:
/// missing or unreadable, empty, a required column missing from the header,
/// duplicate column names, not a GeoJSON FeatureCollection…
///
/// A row (a CSV record, a JSON Lines line, a JSON array element, a GeoJSON
/// feature) longer than `maxRowBytes` (1 MiB unless given) fails the file
/// with its line and the limit: a row is held whole while it is read.
public func makeStoreRowReader(
    for url: URL,
    format: ImportFormat,
    maxRowBytes: Int = 1 << 20
) throws(ImportFileError) -> any StoreRowReader {
    try makeStoreRowReader(for: url, format: format, chunkSize: ByteReader.defaultChunkSize, maxRowBytes: maxRowBytes)
}

/// `makeStoreRowReader(for:format:)` reading `chunkSize` bytes at a time, so
/// tests can put chunk boundaries anywhere.
package func makeStoreRowReader(
    for url: URL,
    format: ImportFormat,
    chunkSize: Int,
    maxRowBytes: Int = ByteReader.defaultMaxRowBytes
) throws(ImportFileError) -> any StoreRowReader {
    guard maxRowBytes > 0 else {
        throw ImportFileError(path: url.path, reason: "the row limit must be at least 1 byte (got \(maxRowBytes))")
    }
    let path = url.path
    switch format {
    case .csv:
        return try CSVStoreRowReader(path: path, delimiter: UInt8(ascii: ","), chunkSize: chunkSize, maxRowBytes: maxRowBytes)
    case .tsv:
        return try CSVStoreRowReader(path: path, delimiter: UInt8(ascii: "\t"), chunkSize: chunkSize, maxRowBytes: maxRowBytes)
    case .json: return try JSONStoreRowReader(path: path, layout: .array, chunkSize: chunkSize, maxRowBytes: maxRowBytes)
    case .jsonl: return try JSONStoreRowReader(path: path, layout: .lines, chunkSize: chunkSize, maxRowBytes: maxRowBytes)
    case .geojson: return try GeoJSONStoreRowReader(path: path, chunkSize: chunkSize, maxRowBytes: maxRowBytes)
    }
}
