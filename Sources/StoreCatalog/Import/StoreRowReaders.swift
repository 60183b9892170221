import Foundation

/// Opens `url` for streaming as `format`.
///
/// Placeholder while the readers are built: every format is refused.
public func makeStoreRowReader(
    for url: URL,
    format: ImportFormat
) throws(ImportFileError) -> any StoreRowReader {
    throw ImportFileError(path: url.path, reason: "\(format.rawValue) import is not available yet")
}
