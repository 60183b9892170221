import Foundation

/// Opens `url` for streaming as `format`: rows come out validated, one at a
/// time, and the file is never loaded whole (memory stays flat with its size).
///
/// Fails before any row when the file as a whole cannot be read as stores:
/// missing or unreadable, empty, a required column missing from the header,
/// duplicate column names, not a GeoJSON FeatureCollection…
public func makeStoreRowReader(
    for url: URL,
    format: ImportFormat
) throws(ImportFileError) -> any StoreRowReader {
    try makeStoreRowReader(for: url, format: format, chunkSize: ByteReader.defaultChunkSize)
}

/// `makeStoreRowReader(for:format:)` reading `chunkSize` bytes at a time, so
/// tests can put chunk boundaries anywhere.
package func makeStoreRowReader(
    for url: URL,
    format: ImportFormat,
    chunkSize: Int
) throws(ImportFileError) -> any StoreRowReader {
    let path = url.path
    switch format {
    case .csv: return try CSVStoreRowReader(path: path, delimiter: UInt8(ascii: ","), chunkSize: chunkSize)
    case .tsv: return try CSVStoreRowReader(path: path, delimiter: UInt8(ascii: "\t"), chunkSize: chunkSize)
    case .json: return try JSONStoreRowReader(path: path, layout: .array, chunkSize: chunkSize)
    case .jsonl: return try JSONStoreRowReader(path: path, layout: .lines, chunkSize: chunkSize)
    case .geojson: return try GeoJSONStoreRowReader(path: path, chunkSize: chunkSize)
    }
}
