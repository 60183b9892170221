import Foundation
import Hummingbird

/// Conditional GETs of catalog data: every answer carries a strong
/// `ETag` and `Cache-Control`; an `If-None-Match` naming that tag gets 304
/// with no body, without running the query.
///
/// The tag is the version of what the answer depends on
/// (``CatalogVersion``): the list's own for an answer about one list (its
/// stores, a store of it, the nearest stores, a box or a search in it), so
/// an import into another list leaves its cached answers valid; the whole
/// catalog's for the others (`/lists`, the nearest stores of every list).
///
/// The version is read before the handler runs: an answer may then be
/// newer than its tag (a commit in between), never older, so a client
/// never revalidates stale data as current.
struct CachingMiddleware<Context: RequestContext>: RouterMiddleware {
    let version: CatalogVersion
    let cacheControl: String

    init(version: CatalogVersion, maxAge: Int, privately: Bool) {
        self.version = version
        // RFC 9111 §5.2.2: no-cache lets a cache store the answer but not
        // use it without revalidating; `private` when reads need a token,
        // so a shared cache never hands one client's answer to another.
        cacheControl = maxAge == 0 ? (privately ? "private, no-cache" : "no-cache") : "\(privately ? "private" : "public"), max-age=\(maxAge)"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, Self.isCatalogData(request.uri.path), !Self.dependsOnTheClock(request),
            let tag = try await entityTag(for: request, context: context)
        else { return try await next(request, context) }
        var anyMatches = false
        if let condition = request.headers[.ifNoneMatch] {
            guard let tags = Self.entityTags(condition) else {
                throw APIError(.badRequest, "bad_header", "If-None-Match must be * or a list of quoted entity tags")
            }
            // A tag of this version was sent with a 200 of this version:
            // the answer is the same, no need to compute it. The gzipped
            // answer's tag is its own (below), so that too.
            for variant in [tag, Self.gzipped(tag)] where tags.contains(where: { Self.weaklyEqual($0, variant) }) {
                return notModified(variant)
            }
            anyMatches = tags.contains("*")
        }
        var response = try await next(request, context)
        if response.status == .ok {
            // `*` matches any current representation: one that exists (RFC 9110 §13.1.2).
            if anyMatches { return notModified(tag) }
            // A strong tag names one representation (RFC 9110 §8.8.3): the
            // gzipped bytes of an answer are another.
            response.headers[.eTag] = response.headers[.contentEncoding] == "gzip" ? Self.gzipped(tag) : tag
            response.headers[.cacheControl] = cacheControl
        }
        return response
    }

    /// The tag of what `request`'s answer depends on; nil for a list that
    /// does not exist (its answer is a 404, which carries no tag).
    private func entityTag(for request: Request, context: Context) async throws -> String? {
        switch Self.list(of: request, context: context) {
        case .some(let list?): return try await version.entityTag(list: list)
        case .some(nil): return nil
        case nil: return try await version.entityTag()
        }
    }

    /// The one list `request`'s answer depends on, read as its route reads
    /// it (the same path parameter, percent-decoded; the first `list`
    /// query item): `.some(name)`; `.some(nil)` for a route about one list
    /// whose name is not valid (the route answers 400); nil for an answer
    /// about the whole catalog. Middlewares run after routing, so the
    /// route's template and parameters are known here.
    static func list(of request: Request, context: Context) -> String?? {
        switch context.endpointPath {
        case "/lists/{name}/stores", "/lists/{name}/changes", "/lists/{name}/clusters", "/lists/{name}/tiles/{z}/{x}/{file}", "/lists/{name}/tiles.json":
            return .some(try? request.pathParameter("name", context: context))
        case "/stores/{list}/{id}":
            return .some(try? request.pathParameter("list", context: context))
        case "/stores/near", "/stores/bbox", "/stores/search":
            // Parsed only when it may be there: most of these requests
            // search the whole catalog, and parsing the query is a copy of it.
            guard request.uri.query?.utf8.contains(UInt8(ascii: "l")) == true,
                let list = request.uri.queryParameters["list"]
            else { return nil }
            return .some(String(list))
        default:
            return nil
        }
    }

    private func notModified(_ tag: String) -> Response {
        Response(status: .notModified, headers: [.eTag: tag, .cacheControl: cacheControl])
    }

    /// Whether the answer depends on the time of the request (`openAt=now`,
    /// in a search or a tile): the list's version does not say when it
    /// changes, so it carries no tag and is never answered 304.
    static func dependsOnTheClock(_ request: Request) -> Bool {
        guard let query = request.uri.query, query.contains("now") else { return false }
        return request.uri.queryParameters.getAll("openAt").contains("now")
    }

    /// The tag of the gzipped representation of the answer tagged `tag`.
    static func gzipped(_ tag: String) -> String {
        String(tag.dropLast()) + "-gzip\""
    }

    /// `/lists…` and `/stores…`: the catalog's data (the session path is no GET answer).
    static func isCatalogData(_ path: String) -> Bool {
        (path == "/lists" || path.hasPrefix("/lists/") || path.hasPrefix("/stores/")) && !path.hasSuffix("/session")
    }

    /// The tags of `If-None-Match` (RFC 9110 §13.1.2: `*` or a list of
    /// `[W/]"…"`), nil when malformed.
    static func entityTags(_ header: String) -> [String]? {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" { return ["*"] }
        var tags: [String] = []
        for item in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let tag = item.trimmingCharacters(in: .whitespaces)
            let opaque = tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
            // etagc: %x21 / %x23-7E / obs-text, between quotes.
            guard opaque.count >= 2, opaque.first == "\"", opaque.last == "\"",
                opaque.dropFirst().dropLast().utf8.allSatisfy({ $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 })
            else { return nil }
            tags.append(tag)
        }
        return tags.isEmpty ? nil : tags
    }

    /// If-None-Match compares weakly: `W/` aside, the opaque tags are equal.
    static func weaklyEqual(_ a: String, _ b: String) -> Bool {
        (a.hasPrefix("W/") ? String(a.dropFirst(2)) : a) == (b.hasPrefix("W/") ? String(b.dropFirst(2)) : b)
    }
}
