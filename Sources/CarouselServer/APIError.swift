import CarouselJSON
import CatalogServing
import HTTPTypes
import Hummingbird
import StoreCatalog

/// A client's mistake, answered as `{"error": {"code", "message"}}` with a
/// 4xx status: what went wrong and, where it can, what to send instead.
///
/// Every error a handler throws ends up as one of these (`APIMiddleware`
/// maps the rest); a 500 means a bug or a failing disk, never bad input.
public struct APIError: Error, Sendable, CustomStringConvertible {
    public var status: HTTPResponse.Status
    /// A stable, machine-readable name (`bad_parameter`, `list_not_found`…).
    public var code: String
    public var message: String
    /// Further members of the error object, already JSON (an import's report).
    var extra: [(key: String, json: String)] = []
    /// Seconds for a `Retry-After` header (a 503 the client may retry).
    var retryAfterSeconds: Int?
    /// Headers the answer carries (a 415's `Accept-Encoding`, a 426's
    /// `Sec-WebSocket-Version`).
    var headers: [(HTTPField.Name, String)] = []

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    /// The JSON body.
    var json: String {
        var text = "{\"error\":{\"code\":\(StoreJSON.quoted(code)),\"message\":\(StoreJSON.quoted(message))"
        for (key, json) in extra { text += ",\(StoreJSON.quoted(key)):\(json)" }
        return text + "}}"
    }

    static func badParameter(_ message: String) -> APIError { APIError(.badRequest, "bad_parameter", message) }
    static func badBody(_ message: String) -> APIError { APIError(.badRequest, "bad_body", message) }
    static func notFound(_ message: String) -> APIError { APIError(.notFound, "not_found", message) }
    static func tooLarge(_ message: String) -> APIError { APIError(.contentTooLarge, "too_large", message) }
    static func unprocessable(_ code: String, _ message: String) -> APIError { APIError(.unprocessableContent, code, message) }
    /// 503 with `Retry-After: 1`: the server is at its limit of some work.
    static func busy(_ message: String) -> APIError {
        var error = APIError(.serviceUnavailable, "busy", message)
        error.retryAfterSeconds = 1
        return error
    }
    /// 507: the server's disk (the catalog's or the temporary folder) is full.
    static func storageFull(_ what: String) -> APIError {
        APIError(HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), "storage_full", "the server has no room for \(what); try again later")
    }

    /// 503 for a write to a catalog the server opened read-only (its file or
    /// folder is not writable): reads are served, writes never will be
    /// until an operator changes that, so no `Retry-After`. Names no path.
    static let readOnlyCatalog = APIError(
        .serviceUnavailable, "read_only", "this server's catalog is read-only: it serves reads, not writes")

    /// The catalog's errors in HTTP terms: a missing list is 404, an existing
    /// one 409, a bad argument 400, rejected rows 422 with the report.
    init(_ error: CatalogError) {
        switch error {
        case .listNotFound(let name):
            self.init(.notFound, "list_not_found", "no list named '\(name)'; GET /lists names them")
        case .listExists(let name):
            self.init(.conflict, "list_exists", "list '\(name)' already exists; add replace=true to replace it")
        case let .positionOutOfRange(list, position, count):
            self.init(.notFound, "position_out_of_range", "list '\(list)' has no position \(position) (it holds \(count) stores)")
        case .invalidArgument(let reason):
            self.init(.badRequest, "bad_parameter", reason)
        case .rowsRejected(let report):
            self.init(
                .unprocessableContent, "rows_rejected",
                report.stoppedEarly
                    ? "nothing imported into '\(report.list)': too many errors (stopped after \(report.rejected) invalid rows)"
                    : "nothing imported into '\(report.list)': \(report.rejected) invalid row\(report.rejected == 1 ? "" : "s"); "
                        + "fix them or add skipInvalid=true")
            extra = [("report", CatalogJSON.importReport(report))]
        case let .sqlite(code, _) where code & 0xFF == 13:  // SQLITE_FULL
            self = .storageFull("the import")
        case let .sqlite(code, _) where code & 0xFF == 8:  // SQLITE_READONLY
            self = .readOnlyCatalog
        case .newerSchema, .notACatalog, .database, .cannotOpen, .sqlite:
            // The server's own database, not the client's input: a fault
            // of the server, which may pass (busy, read-only, an I/O error).
            // The message names no path and no SQL: those go to the log.
            self.init(.serviceUnavailable, "database_unavailable", "the catalog cannot do this now; try again later")
            retryAfterSeconds = 5
        }
    }
}

extension APIError: HTTPResponseError {
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response.json(json, status: status)
    }
}

extension Response {
    /// A JSON document as the body.
    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        .json(ByteBuffer(string: text), status: status)
    }

    /// Stores as a JSON array (`StoreJSON`), written as bytes for the body.
    static func json(stores rows: [(store: Store, distanceMeters: Double?)]) -> Response {
        var body: [UInt8] = []
        StoreJSON.appendArray(rows, to: &body)
        return .json(ByteBuffer(bytes: body))
    }

    /// A page of stores, `{"stores":[…],"next":cursor}`: `next` is the
    /// next page's cursor as a JSON literal (`null` on the last page).
    static func json(stores rows: [(store: Store, distanceMeters: Double?)], next: String) -> Response {
        var body = Array(#"{"stores":"#.utf8)
        StoreJSON.appendArray(rows, to: &body)
        body += #","next":\#(next)}"#.utf8
        return .json(ByteBuffer(bytes: body))
    }

    /// A JSON document already in bytes as the body.
    static func json(_ bytes: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: bytes))
    }
}
