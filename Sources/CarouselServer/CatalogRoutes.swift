import CarouselJSON
import CatalogServing
import Clustering
import Hummingbird
import HummingbirdWebSocket
import StoreCatalog
import WorkLanes

/// The catalog's read endpoints: lists, a list's stores page by page, one
/// store, nearest stores and stores in a box — the documents of the CLI's
/// `lists`, `stores`, `near` and `bbox --json`.
struct CatalogRoutes {
    let reader: any ServingCatalog
    let nearestAnswers: NearestAnswers
    let limits: ServerLimits

    func register(on router: Router<CarouselRequestContext>) {
        router.get("/lists") { _, _ in try await lists() }
        router.get("/lists/{name}/stores") { request, context in try await stores(request, context) }
        router.get("/lists/{name}/clusters") { request, context in try await clusters(request, context) }
        router.get("/stores/near") { request, _ in try await near(request) }
        router.get("/stores/bbox") { request, _ in try await bbox(request) }
        router.get("/stores/{list}/{id}") { request, context in try await store(request, context) }
    }

    /// `[{"name","count"}]`.
    func lists() async throws -> Response {
        .json(CatalogJSON.lists(try await reader.lists()))
    }

    /// `{"stores": [...], "next": CURSOR-or-null}` in carousel order.
    func stores(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let list = try request.pathParameter("name", context: context)
        let query = QueryParameters(request, limits: limits)
        let limit = try query.limit(default: 100)
        let start = try query.text("cursor").map { text throws(APIError) in try StoreCursor(token: text) }?.position ?? 0
        // One more than asked tells whether a next page exists without a count.
        let found = try await reader.stores(list: list, from: start, limit: limit + 1)
        let page = found.prefix(limit)
        let next = found.count > limit ? StoreJSON.quoted(StoreCursor(position: start + limit).token) : "null"
        return .json(stores: page.map { ($0, nil) }, next: next)
    }

    /// One store of a list, by id.
    func store(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let list = try request.pathParameter("list", context: context)
        let id = try request.pathParameter("id", context: context)
        guard let store = try await reader.store(list: list, id: id) else {
            throw APIError(.notFound, "store_not_found", "list '\(list)' holds no store with id '\(id)'")
        }
        return .json(StoreJSON.object(store))
    }

    /// `GET /stores/near?lat=&lng=&limit=&withinKm=&list=`: nearest first, with `distanceMeters`.
    func near(_ request: Request) async throws -> Response {
        let query = QueryParameters(request, limits: limits)
        let origin = Coordinate(latitude: try query.requiredNumber("lat"), longitude: try query.requiredNumber("lng"))
        guard origin.isValid else {
            throw APIError.badParameter("lat must be in -90...90 and lng in -180...180 (got \(origin.latitude), \(origin.longitude))")
        }
        let limit = try query.limit(default: 10)
        let withinKm = try query.number("withinKm")
        if let withinKm, withinKm < 0 { throw APIError.badParameter("withinKm must be 0 or more (got \(withinKm))") }
        let list = try query.name("list")
        let withinMeters = withinKm.map { $0 * 1000 }
        if let answer = try await nearestAnswers.answer(to: origin, limit: limit, withinMeters: withinMeters, list: list) {
            return .json(answer)
        }
        let found = try await reader.nearest(to: origin, limit: limit, withinMeters: withinMeters, list: list)
        return .json(stores: found.map { ($0.store, $0.distanceMeters) })
    }

    /// `GET /stores/bbox?south=&west=&north=&east=&list=&limit=`: west > east crosses the antimeridian.
    func bbox(_ request: Request) async throws -> Response {
        let query = QueryParameters(request, limits: limits)
        let box: BoundingBox
        do {
            box = try BoundingBox(
                south: try query.requiredNumber("south"), west: try query.requiredNumber("west"),
                north: try query.requiredNumber("north"), east: try query.requiredNumber("east"))
        } catch let error as GeoError {
            throw APIError.badParameter(error.reason)
        }
        let limit = try query.limit(default: limits.maxLimit)
        let list = try query.name("list")
        let found = try await reader.stores(in: box, list: list, limit: limit)
        return .json(stores: found.map { ($0, nil) })
    }

    /// `GET /lists/{name}/clusters?zoom=&south=&west=&north=&east=&selected=`:
    /// the list's map markers in the box at the zoom, clustered as
    /// supercluster 8.0.1 clusters them; the `selected` store (a list
    /// position) never hidden in a cluster. The first query of a list
    /// builds its cluster index and keeps it in the catalog.
    func clusters(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let list = try request.pathParameter("name", context: context)
        let query = QueryParameters(request, limits: limits)
        let zoom = try query.requiredNumber("zoom")
        // MapLibre's zoom range; supercluster floors the zoom and clamps it.
        guard (0.0...24.0).contains(zoom) else { throw APIError.badParameter("zoom must be in 0...24 (got \(zoom))") }
        let box: BoundingBox
        do {
            box = try BoundingBox(
                south: try query.requiredNumber("south"), west: try query.requiredNumber("west"),
                north: try query.requiredNumber("north"), east: try query.requiredNumber("east"))
        } catch let error as GeoError {
            throw APIError.badParameter(error.reason)
        }
        let selected = try query.integer("selected", in: 0...Int(Int32.max))
        let markers = try await reader.clusters(list: list, zoom: zoom, box: box, selected: selected, options: ClusterOptions())
        // A world box at a high zoom is tens of thousands of markers: their
        // JSON is bulk work too, kept off the connection's event loop.
        return .json(try await WorkLane.bulk.run { ClusterJSON.array(markers) })
    }
}
