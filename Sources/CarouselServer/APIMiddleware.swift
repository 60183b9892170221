import CarouselJSON
import CatalogServing
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import StoreCatalog

/// Wraps every request: refuses an over-long URL (414), a request the
/// connection marked as malformed (400: a missing or repeated `Host`, see
/// ``MalformedRequestHandler``) and a body in a content coding (415), turns
/// every error into the JSON error object, and answers a HEAD without a
/// body (``RequestLogMiddleware``, around it, logs the request).
///
/// Errors that are not the client's (a failing disk) are logged with their
/// detail and answered 500 without it; anything else a handler or the
/// framework throws for a request (an unknown path, a body over the
/// framework's limit) keeps its 4xx status.
struct APIMiddleware<Context: RequestContext>: RouterMiddleware {
    let limits: ServerLimits

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response: Response
        do {
            guard request.uri.description.utf8.count <= limits.maxURLLength else {
                throw APIError(.uriTooLong, "uri_too_long", "the request target is over \(limits.maxURLLength) bytes")
            }
            if let marked = request.headers[MalformedRequestHandler.refusedRequestHeader],
                let refusal = MalformedRequestHandler.Refusal(headerValue: marked)
            {
                var error = APIError(HTTPResponse.Status(code: refusal.status), refusal.code, refusal.message)
                // RFC 6455 §4.4: a 426 names the versions the server speaks.
                if refusal.status == 426 { error.headers = [(.secWebSocketVersion, "13")] }
                throw error
            }
            try Self.refuseContentCoding(request.headers)
            response = try await next(request, context)
        } catch {
            response = Self.response(for: error, request: request, logger: context.logger)
        }
        // The answer to a HEAD is the GET's head alone (RFC 9110 §9.3.2),
        // its Content-Length included.
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// Refuses a body in a content coding (415): no route decodes one, and
    /// a gzipped CSV read as is would import garbage or fail far from the
    /// cause. RFC 9110 §15.5.16 names the status; its answer lists what is
    /// taken (`Accept-Encoding: identity`, §12.5.3).
    static func refuseContentCoding(_ headers: HTTPFields) throws(APIError) {
        let codings = headers[values: .contentEncoding].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard codings.contains(where: { $0 != "identity" && !$0.isEmpty }) else { return }
        var error = APIError(
            .unsupportedMediaType, "unsupported_content_encoding",
            "the body is in a content coding (\(codings.joined(separator: ", "))); send it uncompressed")
        error.headers = [(.acceptEncoding, "identity")]
        throw error
    }

    static func response(for error: any Error, request: Request, logger: Logger) -> Response {
        let apiError: APIError
        switch error {
        case let error as APIError:
            apiError = error
        case let error as CatalogError:
            apiError = APIError(error)
        case let error as CatalogUnavailableError where error.isUnavailable:
            var response = Response.json(
                APIError(.serviceUnavailable, "catalog_unavailable", "the catalog cannot be reached now; retry later").json,
                status: .serviceUnavailable)
            response.headers[.retryAfter] = "5"
            logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            return response
        case is NIOTooManyBytesError:
            apiError = .tooLarge("the body is over the limit of this endpoint")
        case let error as HTTPParserError:
            // The body's framing broke while a route read it (a chunk size
            // past 2⁶³, a negative one, bare LF line ends): the client's
            // fault, as the import already answered it.
            apiError = APIError(.badRequest, "bad_request", "the request's body is not valid HTTP/1.1 (\(error))")
        case let error as HTTPError:
            apiError =
                switch error.status {
                case .notFound: .notFound("no such endpoint: \(request.method) \(request.uri.path); see /openapi.json")
                case .contentTooLarge: .tooLarge("the body is too large")
                default: APIError(error.status, "http_error", error.body ?? error.status.reasonPhrase)
                }
        default:
            // A bug: the id finds the log line that has the detail.
            let id = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            apiError = APIError(.internalServerError, "internal", "the server failed (error \(id)); its log has the detail")
            logger.error("\(request.method) \(request.uri.path) failed with error \(id): \(error)")
            return Response.json(apiError.json, status: apiError.status)
        }
        if apiError.status.code >= 500 {
            logger.error("\(request.method) \(request.uri.path) failed: \(error)")
        }
        var response = Response.json(apiError.json, status: apiError.status)
        if let seconds = apiError.retryAfterSeconds { response.headers[.retryAfter] = String(seconds) }
        for (name, value) in apiError.headers { response.headers[name] = value }
        return response
    }
}
