import CarouselJSON
import Foundation
import Hummingbird
import HummingbirdWebSocket
import StoreCatalog

/// `POST /lists/{name}/import?format=&replace=&skipInvalid=`: the body is a
/// store file, imported with the rules of `carousel import` (all or
/// nothing unless skipInvalid; replace swaps the list atomically).
///
/// The body is streamed to a temporary file as it arrives, never held in
/// memory, and stops with a 413 past the server's limit; the catalog's
/// importer then streams the file as it does for the CLI.
struct ImportRoute {
    let catalog: Catalog
    let limits: ServerLimits
    /// Told of every import that commits (the metrics count them).
    var onImport: @Sendable (ImportReport) -> Void = { _ in }

    func register(on router: Router<CarouselRequestContext>) {
        router.post("/lists/{name}/import") { request, context in try await handle(request, context) }
    }

    func handle(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let list = try request.pathParameter("name", context: context)
        let query = QueryParameters(request, limits: limits)
        let format = try Self.format(query.text("format"), contentType: request.headers[.contentType])
        let options = ImportOptions(skipInvalid: try query.flag("skipInvalid"), replace: try query.flag("replace"))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body.\(format.rawValue)")
        try await Self.stream(request.body, to: file, limit: limits.maxImportBody)

        let catalog = catalog
        do {
            let report = try await Offload.run {
                try catalog.importList(named: list, from: try makeStoreRowReader(for: file, format: format), options: options)
            }
            onImport(report)
            return .json(CatalogJSON.importReport(report), status: .ok)
        } catch let error as CatalogError {
            throw APIError(error)
        } catch let error as ImportFileError {
            // The whole body is unusable (no header, a required column missing, not JSON…).
            var reason = error.reason
            if let line = error.line { reason = "line \(line): " + reason }
            throw APIError.unprocessable("invalid_file", "the body is not a \(format.rawValue) store file: \(reason)")
        }
    }

    /// The format from `format=`, else from the Content-Type.
    static func format(_ name: String?, contentType: String?) throws(APIError) -> ImportFormat {
        let names = ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")
        if let name {
            guard let format = ImportFormat(rawValue: name.lowercased()) else {
                throw .badParameter("unknown format '\(name.prefix(40))'; use one of \(names)")
            }
            return format
        }
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        switch mediaType {
        case "text/csv": return .csv
        case "text/tab-separated-values": return .tsv
        case "application/json": return .json
        case "application/x-ndjson", "application/jsonl", "application/json-lines": return .jsonl
        case "application/geo+json": return .geojson
        default: throw .badParameter("give format=\(names.replacingOccurrences(of: ", ", with: "|")) (or a Content-Type that says it)")
        }
    }

    /// Writes the body's chunks to `file` as they arrive; 413 past `limit` bytes.
    static func stream(_ body: RequestBody, to file: URL, limit: Int) async throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: file)
        else { throw APIError(.internalServerError, "storage", "cannot write the upload to a temporary file") }
        defer { try? handle.close() }
        var written = 0
        for try await chunk in body {
            written += chunk.readableBytes
            guard written <= limit else {
                throw APIError.tooLarge("the body is over \(limit) bytes; split the import")
            }
            try handle.write(contentsOf: chunk.readableBytesView)
        }
    }
}
