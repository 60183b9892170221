import CarouselJSON
import CatalogServing
import Foundation
import Hummingbird
import HummingbirdWebSocket
import StoreCatalog
import WorkLanes

/// `POST /lists/{name}/import?format=&replace=&skipInvalid=`: the body is a
/// store file, imported with the rules of `carousel import` (all or
/// nothing unless skipInvalid; replace swaps the list atomically).
///
/// The body is streamed to a temporary file as it arrives, never held in
/// memory, and stops with a 413 past the server's limit; the catalog's
/// importer then streams the file as it does for the CLI.
struct ImportRoute {
    let engine: any ServingCatalog
    let limits: ServerLimits
    /// The imports running now, at most ``ServerLimits/maxConcurrentImports``.
    let gate: WorkGate
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
        try request.refuseDeclaredBody(over: limits.maxImportBody, advice: "split the import")
        // Before a byte of the body is spooled: the write could only fail.
        if engine.isReadOnly { throw APIError.readOnlyCatalog }
        return try await gate.run { try await importBody(request, list: list, format: format, options: options) }
    }

    private func importBody(_ request: Request, list: String, format: ImportFormat, options: ImportOptions) async throws -> Response {
        let folder = try Self.makeSpoolFolder()
        // Removed however the request ends: answered, failed, or cancelled
        // by a client that went away mid-upload.
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body.\(format.rawValue)")
        try await Self.stream(
            request.body, to: file, limit: limits.maxImportBody, declaredLength: request.headers[.contentLength].flatMap { Int($0) })

        // On SQLite, on the writes lane, one import at a time.
        let report = try await Self.importFile(file, format: format, into: engine, list: list, options: options)
        onImport(report)
        return .json(CatalogJSON.importReport(report), status: .ok)
    }

    /// Imports the uploaded `file` as list `list`, with the CLI's readers
    /// and rules; a refusal is thrown as the ``APIError`` that answers it.
    static func importFile(
        _ file: URL, format: ImportFormat, into engine: any ServingCatalog, list: String, options: ImportOptions
    ) async throws -> ImportReport {
        do {
            return try await engine.importList(named: list, from: try makeStoreRowReader(for: file, format: format), options: options)
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

    /// Writes the body's chunks to `file` as they arrive; 413 past `limit`
    /// bytes, 400 when fewer than a declared `Content-Length` came.
    ///
    /// A body that stops coming is the HTTP channel's idle timeout's (the
    /// request timeout): it closes the connection, the body then throws,
    /// and the caller's folder goes with the file. The length check is
    /// for a cut body that would end the sequence instead of throwing:
    /// its rows must not be imported as if they were the whole file.
    static func stream(_ body: RequestBody, to file: URL, limit: Int, declaredLength: Int? = nil) async throws {
        // The file is written on the bulk lane, a mebibyte at a time: a
        // write to disk may wait, and no event loop does.
        let handle = try await WorkLane.bulk.run { () throws(APIError) -> FileHandle in
            // 0600, as its folder is 0700 (``makeSpoolFolder(in:)``): an
            // upload is a client's data. O_EXCL: the file is new.
            let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw APIError.storageFull("the upload") }
            return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        }
        defer { try? handle.close() }
        var written = 0
        var pending = ByteBuffer()
        func flush() async throws {
            guard pending.readableBytes > 0 else { return }
            let bytes = pending
            pending.clear()
            do {
                try await WorkLane.bulk.run { try handle.write(contentsOf: bytes.readableBytesView) }
            } catch {
                throw storageError(error, what: "the upload")
            }
        }
        var chunks = body.makeAsyncIterator()
        while true {
            let next: ByteBuffer?
            do {
                next = try await chunks.next()
            } catch let error as HTTPError {
                throw error
            } catch {
                // The connection ended mid-body (the client went, or the
                // request timeout closed it): the client's fault, and
                // nothing of it is imported.
                throw APIError(.badRequest, "incomplete_body", "the connection ended before the body was complete")
            }
            guard var chunk = next else { break }
            written += chunk.readableBytes
            guard written <= limit else {
                throw APIError.tooLarge("the body is over \(limit) bytes; split the import")
            }
            pending.writeBuffer(&chunk)
            if pending.readableBytes >= Self.spoolWriteBytes { try await flush() }
        }
        try await flush()
        if let declaredLength, written != declaredLength {
            throw APIError(.badRequest, "incomplete_body", "the body ended after \(written) of its \(declaredLength) bytes")
        }
    }

    /// The temporary folders of uploads: `carousel-import-PID-UUID`.
    static let folderPrefix = "carousel-import-"

    /// A new upload folder in `parent` (the temporary folder), readable
    /// and searchable by this server's user only (0700): the shared
    /// temporary folder is everyone's, and an upload, a client's store
    /// file, is no one else's to read. mkdir(2) creates it with that mode
    /// (less the umask, which can only take more away), so it is never
    /// open to others, not even for a moment as a chmod after would leave it.
    static func makeSpoolFolder(in parent: URL = FileManager.default.temporaryDirectory) throws(APIError) -> URL {
        let folder = parent.appendingPathComponent("\(folderPrefix)\(getpid())-\(UUID().uuidString)")
        guard mkdir(folder.path, 0o700) == 0 else {
            let code = errno
            if code == ENOSPC || code == EDQUOT { throw .storageFull("the upload") }
            throw storageError(POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO), what: "the upload")
        }
        return folder
    }

    /// How much of an upload is gathered before a write to its spool file:
    /// a mebibyte, so that a 22 MiB upload is 22 trips to the bulk lane.
    static let spoolWriteBytes = 1 << 20

    /// A failure to store an upload in HTTP terms, naming no path: 507 for
    /// a full disk, else 503 (a temporary folder that went away, a quota).
    static func storageError(_ error: any Error, what: String) -> APIError {
        let code = (error as NSError).userInfo[NSUnderlyingErrorKey].map { ($0 as? NSError)?.code } ?? nil
        if code == Int(ENOSPC) || code == Int(EDQUOT) || (error as NSError).code == NSFileWriteOutOfSpaceError {
            return .storageFull(what)
        }
        var busy = APIError(.serviceUnavailable, "storage_unavailable", "the server cannot store \(what) now; try again later")
        busy.retryAfterSeconds = 5
        return busy
    }

    /// Removes the upload folders that servers killed mid-import left in
    /// `folder` (the temporary folder): those whose process is gone, and
    /// those of older servers, named without a process, untouched for an
    /// hour. Returns how many went. Another live server's uploads stay.
    @discardableResult
    static func removeLeftovers(in folder: URL = FileManager.default.temporaryDirectory) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(folderPrefix) {
            let path = folder.appendingPathComponent(name)
            let rest = name.dropFirst(folderPrefix.count)
            let isLeftover: Bool
            if let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0 {
                // kill(pid, 0): ESRCH when no such process runs.
                isLeftover = pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
            } else {
                let modified = (try? FileManager.default.attributesOfItem(atPath: path.path))?[.modificationDate] as? Date
                isLeftover = modified.map { Date().timeIntervalSince($0) > 3600 } ?? false
            }
            if isLeftover, (try? FileManager.default.removeItem(at: path)) != nil { removed += 1 }
        }
        return removed
    }
}
