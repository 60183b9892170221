import CarouselJSON
import CatalogServing
import Hummingbird
import Logging
import NIOCore
import StoreCatalog

/// Wraps every request: refuses an over-long URL (414) and turns every
/// error into the JSON error object (``RequestLogMiddleware``, around it,
/// logs the request).
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
            response = try await next(request, context)
        } catch {
            response = Self.response(for: error, request: request, logger: context.logger)
        }
        return response
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
        return response
    }
}
