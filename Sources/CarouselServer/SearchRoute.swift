import CarouselJSON
import CatalogServing
import Foundation
import Hummingbird
import StoreCatalog

/// `GET /stores/search`: the carousel's search, with the query items of
/// `carousel search` (`list`, `q`, `category`, `where` repeated as
/// `KEY=VALUE`, `lat`/`lng` with `withinKm`, or `south`/`west`/`north`/`east`,
/// `openAt`, `limit`, `cursor`); `{"stores": [...], "next": cursor}`.
struct SearchRoute {
    let reader: any ServingCatalog
    let limits: ServerLimits

    func register(on router: Router<CarouselRequestContext>) {
        router.get("/stores/search") { request, _ in try await search(request) }
    }

    func search(_ request: Request) async throws -> Response {
        let search = try Self.search(from: request, limits: limits)
        let page: SearchPage
        do {
            // On SQLite, on the bulk lane: a list's first search reads the
            // list into memory (272 ms for 234,908 stores).
            page = try await reader.search(search)
        } catch let error as CatalogError {
            throw APIError(error)
        }
        let next = page.next.map { StoreJSON.quoted($0.description) } ?? "null"
        return .json(stores: page.hits.map { ($0.store, $0.distanceMeters) }, next: next)
    }

    /// The search a request's query items describe; a 400 naming the item
    /// for anything else.
    static func search(from request: Request, limits: ServerLimits) throws(APIError) -> StoreSearch {
        let query = QueryParameters(request, limits: limits)
        guard let list = try query.name("list") else { throw .badParameter("list is required") }
        return try search(list: list, query: query)
    }

    /// The search of `list` that `query`'s items describe (every item but
    /// `list`): the same reading for a request and a session's `query`.
    static func search(list: String, query: QueryParameters) throws(APIError) -> StoreSearch {
        let filter = try filter(query)
        let point = (try query.number("lat"), try query.number("lng"))
        let edges = [try query.number("south"), try query.number("west"), try query.number("north"), try query.number("east")]
        var area: StoreSearch.Area?
        switch (point, edges.contains { $0 != nil }) {
        case ((nil, nil), false):
            guard try query.text("withinKm") == nil else { throw .badParameter("withinKm goes with lat and lng") }
        case ((let lat?, let lng?), false):
            let origin = Coordinate(latitude: lat, longitude: lng)
            guard origin.isValid else {
                throw .badParameter("lat must be in -90...90 and lng in -180...180 (got \(lat), \(lng))")
            }
            let withinKm = try query.number("withinKm")
            if let withinKm, withinKm < 0 { throw .badParameter("withinKm must be 0 or more (got \(withinKm))") }
            area = .near(origin, withinMeters: withinKm.map { $0 * 1000 })
        case ((nil, nil), true):
            guard let south = edges[0], let west = edges[1], let north = edges[2], let east = edges[3] else {
                throw .badParameter("a box needs south, west, north and east")
            }
            do {
                area = .box(try BoundingBox(south: south, west: west, north: north, east: east))
            } catch {
                throw .badParameter(error.reason)
            }
        case (_, true):
            throw .badParameter("give lat and lng, or a box, not both")
        default:
            throw .badParameter("lat and lng go together")
        }
        let cursor = try query.text("cursor").map { text throws(APIError) -> SearchCursor in
            guard let cursor = SearchCursor(text) else { throw .badParameter("cursor is not one a page gave (got '\(text.prefix(40))')") }
            return cursor
        }
        return StoreSearch(
            list: list, text: filter.text, category: filter.category, attributes: filter.attributes, area: area,
            openAt: filter.openAt, limit: try query.limit(default: 20), cursor: cursor)
    }

    /// The filters of `query` (`q`, `category`, `where` repeated, `openAt`):
    /// one reading for a search and a tile.
    static func filter(_ query: QueryParameters) throws(APIError) -> StoreFilter {
        let text = try query.text("q")
        if let text {
            guard !text.isEmpty else { throw .badParameter("q is empty") }
            guard text.count <= StoreSearch.maximumTextLength else {
                throw .badParameter("q is longer than \(StoreSearch.maximumTextLength) characters")
            }
        }
        var attributes: [StoreSearch.AttributeFilter] = []
        for text in try query.texts("where") {
            guard let filter = StoreSearch.AttributeFilter(parsing: text) else {
                throw .badParameter("where takes KEY=VALUE (got '\(text.prefix(40))')")
            }
            attributes.append(filter)
        }
        let openAt = try query.text("openAt").map { text throws(APIError) -> Date in
            guard let date = StoreSearch.instant(parsing: text) else {
                throw .badParameter("openAt must be an ISO 8601 instant with its offset, or now (got '\(text.prefix(40))')")
            }
            return date
        }
        return StoreFilter(text: text, category: try query.text("category"), attributes: attributes, openAt: openAt)
    }
}
