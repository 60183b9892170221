import CatalogServing
import Foundation
import Hummingbird
import StoreCatalog
import Synchronization

/// Who may do what: writes need a write token, reads a read token when
/// the server requires one, and with no write token in the catalog every
/// write is refused (a fresh catalog is read-only to the network).
///
/// Tokens are checked against the catalog on every request (a lookup by
/// hash on a reader connection: a revoked token is refused from the next
/// request on); their use is recorded off the request path, at most once
/// a minute per token.
final class AccessControl: Sendable {
    let reader: any ServingCatalog
    let requireTokenForReads: Bool
    /// Per token name, the minute its use was last recorded.
    private let noted = Mutex<[String: Int64]>([:])

    /// The catalog tokens are noted as used in (a write).
    let engine: any ServingCatalog

    init(reader: any ServingCatalog, engine: any ServingCatalog, requireTokenForReads: Bool) {
        self.reader = reader
        self.engine = engine
        self.requireTokenForReads = requireTokenForReads
    }

    /// A refusal: the error and the headers that go with it.
    struct Refusal: Error {
        var error: APIError
        var challenge: String?

        var response: Response {
            var response = Response.json(error.json, status: error.status)
            if let challenge { response.headers[.wwwAuthenticate] = challenge }
            return response
        }
    }

    /// Paths anyone may read, whatever the rule: the page and its files
    /// (read-only without a token), the API's description, and the probes
    /// a load balancer calls without credentials.
    static let openPaths: Set<String> = ["/", "/app.js", "/style.css", "/openapi.json", "/healthz", "/readyz"]

    /// What `request` needs: nil when it is open to anyone.
    func scopeNeeded(for request: Request) -> TokenScope? {
        switch request.method {
        case .get, .head, .options:
            if request.method == .options || Self.openPaths.contains(request.uri.path) { return nil }
            return requireTokenForReads ? .read : nil
        case .post where request.uri.path == "/simulate":
            // A computation over the catalog that changes nothing: a read.
            return requireTokenForReads ? .read : nil
        default:
            // Imports, and any write added later.
            return .write
        }
    }

    /// Checks `request` for `scope`; throws a ``Refusal``.
    func check(_ request: Request, scope: TokenScope, allowQueryItem: Bool) async throws {
        try await check(CallerCredentials(request, allowQueryItem: allowQueryItem), scope: scope)
    }

    /// Checks the credentials a request carries for `scope`; throws a ``Refusal``.
    func check(_ credentials: CallerCredentials, scope: TokenScope) async throws {
        if scope == .write {
            guard try await reader.hasWriteToken() else {
                throw Refusal(
                    error: APIError(
                        .forbidden, "writes_disabled",
                        "this server takes no writes: its catalog holds no token with the write scope"))
            }
        }
        let token: String
        switch credentials {
        case .none:
            throw Refusal(
                error: APIError(.unauthorized, "token_required", "this request needs a \(scope.rawValue) token: send Authorization: Bearer TOKEN"),
                challenge: #"Bearer realm="carousel""#)
        case .malformed:
            throw Refusal(
                error: APIError(.unauthorized, "invalid_token", "the credentials are malformed: send Authorization: Bearer TOKEN"),
                challenge: #"Bearer realm="carousel", error="invalid_request""#)
        case .token(let text):
            token = text
        }
        guard let found = try await reader.verifyToken(token) else {
            throw Refusal(
                error: APIError(.unauthorized, "invalid_token", "the token is unknown or revoked"),
                challenge: #"Bearer realm="carousel", error="invalid_token""#)
        }
        guard found.scope.allows(scope) else {
            throw Refusal(
                error: APIError(
                    .forbidden, "insufficient_scope", "token '\(found.name)' may \(found.scope.rawValue); this request needs a \(scope.rawValue) token"),
                challenge: #"Bearer realm="carousel", error="insufficient_scope", scope="\#(scope.rawValue)""#)
        }
        noteUse(of: found.name)
    }

    /// Records the token's use in the background, once a minute at most:
    /// a busy client's reads never wait for a write (nor for an import
    /// holding the catalog's write lock).
    private func noteUse(of name: String) {
        let minute = Int64(Date().timeIntervalSince1970) / 60
        let due = noted.withLock { noted in
            guard noted[name] != minute else { return false }
            // Bounded: tokens are few, but names of revoked ones would pile up.
            if noted.count >= 10_000 { noted.removeAll() }
            noted[name] = minute
            return true
        }
        guard due else { return }
        let engine = engine
        Task { try? await engine.noteTokenUsed(named: name, at: Date()) }
    }
}
