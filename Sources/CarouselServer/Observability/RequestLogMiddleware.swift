import CarouselJSON
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging

/// The outermost middleware: gives each request an id (its `X-Request-Id`
/// if it sent a sane one, else a new one) echoed in the response, logs one
/// entry per request and counts it in the metrics.
///
/// The entry names the route template and the path with its query values
/// left out (`/stores/near?lat&lng`): a `token` query item or any other
/// value never reaches the log.
struct RequestLogMiddleware<Context: RequestContext & RemoteAddressContext>: RouterMiddleware {
    let logs: Bool
    /// Whether the entry carries every field as metadata (the JSON log);
    /// the text log's line says it all, with the request id.
    var json = false
    let metrics: ServerMetrics?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let id = Self.requestID(request.headers[.xRequestID])
        var response = try await next(request, context)
        response.headers[.xRequestID] = id
        let elapsed = ContinuousClock.now - start
        let route = context.endpointPath ?? "NotFound"
        metrics?.record(route: route, method: request.method.rawValue, status: Int(response.status.code), duration: elapsed)
        if logs {
            let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            let path = Self.pathWithoutValues(request.uri)
            // Not String(format:): Foundation's formatter cost a few percent
            // of the server's time under load, in every request.
            let line: Logger.Message = "\(request.method) \(path) \(response.status.code) \(NumberFormatting.rounded(ms)) ms"
            guard json else {
                context.logger.info(line, metadata: ["requestId": .string(id)])
                return response
            }
            context.logger.info(
                line,
                metadata: [
                    "requestId": .string(id), "method": .string(request.method.rawValue), "route": .string(route),
                    "path": .string(path), "status": .stringConvertible(response.status.code),
                    "durationMs": .string(NumberFormatting.rounded(ms)), "client": .string(context.clientAddress),
                    "bytes": .stringConvertible(response.body.contentLength ?? 0),
                ])
        }
        return response
    }

    /// The client's id when it is 1 to 128 visible ASCII characters (what
    /// may go into a log line and a header as is), else 16 random hex digits.
    static func requestID(_ sent: String?) -> String {
        if let sent, (1...128).contains(sent.utf8.count), sent.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) { return sent }
        let value = UInt64.random(in: 0 ... .max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The path, and the query's names without their values.
    ///
    /// One pass over the query's bytes, copying those outside a value: in
    /// every logged request, where splitting into substrings and joining
    /// them was 2.6 % of the server's time under wrk on `/stores/near`.
    static func pathWithoutValues(_ uri: URI) -> String {
        guard let query = uri.query, !query.isEmpty else { return uri.path }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(uri.path.utf8.count + 1 + query.utf8.count)
        bytes.append(contentsOf: uri.path.utf8)
        bytes.append(UInt8(ascii: "?"))
        var inValue = false
        for byte in query.utf8 {
            switch byte {
            case UInt8(ascii: "&"):
                inValue = false
                bytes.append(byte)
            case UInt8(ascii: "=") where !inValue:
                inValue = true
            default:
                if !inValue { bytes.append(byte) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension HTTPField.Name {
    static let xRequestID = HTTPField.Name("X-Request-Id")!
}
