import CarouselServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreCatalog
import TestSupport
import Testing

/// A server over a fresh catalog file holding the sample list `seoul`
/// (44 coffee shops), and helpers that check every response against the
/// OpenAPI document as they read it.
struct ServerFixture {
    let directory: TemporaryDirectory
    let catalog: Catalog
    let server: CarouselServer
    /// A write token and a read token of the catalog (nil: made without).
    let writeToken: String?
    let readToken: String

    init(
        limits: ServerLimits = ServerLimits(), options: ServerOptions = ServerOptions(), withWriteToken: Bool = true,
        nearestInMemoryEntries: Int = CarouselServer.standardNearestInMemoryEntries
    ) throws {
        directory = try TemporaryDirectory("carousel-server-test")
        catalog = try Catalog(path: directory.path("catalog.sqlite").path)
        try catalog.importList(
            named: "seoul",
            from: makeStoreRowReader(for: Paths.sampleData.appendingPathComponent("seoul-coffee.csv"), format: .csv))
        writeToken = withWriteToken ? try catalog.createToken(named: "test-writer", scope: .write) : nil
        readToken = try catalog.createToken(named: "test-reader", scope: .read)
        server = try CarouselServer(engine: catalog, limits: limits, options: options, nearestInMemoryEntries: nearestInMemoryEntries)
    }

    /// `Authorization: Bearer` the write token, and a Content-Type if given.
    func writeHeaders(contentType: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [.authorization: "Bearer \(writeToken ?? "none")"]
        if let contentType { fields[.contentType] = contentType }
        return fields
    }

    var application: some ApplicationProtocol {
        server.application(host: "127.0.0.1", port: 0)
    }
}

/// A response as the tests read it: status, content type, body, and the body as JSON.
struct CheckedResponse {
    var status: Int
    var contentType: String?
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: Any? { try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
    var array: [[String: Any]] { json as? [[String: Any]] ?? [] }
    var object: [String: Any] { json as? [String: Any] ?? [:] }
    /// `error.code` of an error response.
    var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
}

extension TestClientProtocol {
    /// Sends a request and checks the response against the OpenAPI document
    /// entry `template` (e.g. `/lists/{name}/stores`): declared status,
    /// media type and schema. Never a 5xx.
    func checked(
        _ method: HTTPRequest.Method, _ uri: String, template: String,
        headers: HTTPFields = [:], body: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CheckedResponse {
        try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
            let checked = CheckedResponse(
                status: Int(response.status.code), contentType: response.headers[.contentType],
                body: Data(buffer: response.body))
            #expect(checked.status < 500, "\(method) \(uri) answered \(checked.status): \(checked.text)", sourceLocation: sourceLocation)
            let problems = OpenAPIValidator.shared.problems(
                method: method.rawValue, path: template, status: checked.status, contentType: checked.contentType,
                body: checked.body)
            #expect(problems.isEmpty, "\(method) \(uri): \(problems)", sourceLocation: sourceLocation)
            return checked
        }
    }
}
