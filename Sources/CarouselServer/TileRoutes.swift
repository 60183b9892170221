import CarouselJSON
import CatalogServing
import Clustering
import Foundation
import Hummingbird
import StoreCatalog
import VectorTiles
import WorkLanes

/// A list's markers as map tiles, which MapLibre, Mapbox GL, OpenLayers
/// and deck.gl draw natively:
/// - `GET /lists/{name}/tiles/{z}/{x}/{y}.mvt`: a Mapbox Vector Tile of one
///   layer, `stores`, clustered as supercluster 8.0.1's `getTile` with
///   extent 4096 and the cluster radius as buffer; `selected` (a list
///   position) keeps that store out of every cluster; `q`, `category`,
///   `where` and `openAt` (as `GET /stores/search` reads them) cluster
///   only the matching stores; `properties` adds attributes to each store.
///   gzip when `Accept-Encoding` takes it. An empty tile is 204 with no
///   body. ETag, 304 and Cache-Control come from the caching middleware,
///   as for every catalog read.
/// - `GET /lists/{name}/tiles.json`: TileJSON 3.0.0 of it.
struct TileRoutes {
    let reader: any ServingCatalog
    let limits: ServerLimits
    /// Whether the server speaks TLS: the TileJSON's URLs are `https://`.
    let secure: Bool

    /// MapLibre's deepest zoom; supercluster's points stand alone past
    /// its maxZoom (16) anyway.
    static let maxZoom = 22
    static let contentType = "application/vnd.mapbox-vector-tile"

    func register(on router: Router<CarouselRequestContext>) {
        router.get("/lists/{name}/tiles/{z}/{x}/{file}") { request, context in try await tile(request, context) }
        router.get("/lists/{name}/tiles.json") { request, context in try await tileJSON(request, context) }
    }

    func tile(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let list = try request.pathParameter("name", context: context)
        let (z, x, y) = try Self.address(
            z: context.parameters.get("z"), x: context.parameters.get("x"), file: context.parameters.get("file"))
        let query = QueryParameters(request, limits: limits)
        let selected = try query.integer("selected", in: 0...Int(Int32.max))
        let filter = try SearchRoute.filter(query)
        let properties = try Self.properties(query)
        let features: [ListTileFeature]
        do {
            features = try await reader.clusterTile(
                list: list, zoom: z, x: x, y: y, selected: selected, filter: filter, options: ClusterOptions())
        } catch let error as CatalogError {
            throw APIError(error)
        }
        guard !features.isEmpty else {
            return Response(status: .noContent, headers: [.contentType: Self.contentType, .vary: "Accept-Encoding"])
        }
        let gzip = Self.acceptsGzip(request.headers[.acceptEncoding])
        // Hundreds of markers at a low zoom: the encoding is bulk work.
        let bytes = try await WorkLane.bulk.run {
            let tile = VectorTile.stores(features, properties: properties).encoded()
            return gzip ? Gzip.compress(tile) : tile
        }
        var headers: HTTPFields = [.contentType: Self.contentType, .vary: "Accept-Encoding"]
        if gzip { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The attributes `properties` names (comma-separated), each store
    /// carrying those it has; a 400 for a list ``VectorTile`` refuses.
    static func properties(_ query: QueryParameters) throws(APIError) -> [String] {
        guard let text = try query.text("properties") else { return [] }
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if let problem = VectorTile.problem(withProperties: names) { throw .badParameter("properties: \(problem)") }
        return names
    }

    /// Whether `Accept-Encoding` takes gzip (RFC 9110 §12.5.3): `gzip`,
    /// `x-gzip` or `*` with a weight above 0. Every map SDK's HTTP stack
    /// (browsers, OkHttp, URLSession) sends `gzip`.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var wildcard: Bool?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)) ?? 0
            }
            if coding == "gzip" || coding == "x-gzip" { return weight > 0 }
            if coding == "*" { wildcard = weight > 0 }
        }
        return wildcard ?? false
    }

    /// z, x and y of a tile's path, `…/{z}/{x}/{y}.mvt`; a 400 naming the
    /// part for anything outside 0…22 and 0..<2^z.
    static func address(z: String?, x: String?, file: String?) throws(APIError) -> (Int, Int, Int) {
        guard let z = z.flatMap({ Int($0) }), (0...maxZoom).contains(z) else {
            throw .badParameter("the tile's zoom must be a whole number in 0...\(maxZoom) (got '\(z?.prefix(20) ?? "")')")
        }
        let size = 1 << z
        guard let x = x.flatMap({ Int($0) }), (0..<size).contains(x) else {
            throw .badParameter("the tile's x must be a whole number in 0...\(size - 1) at zoom \(z) (got '\(x?.prefix(20) ?? "")')")
        }
        guard let file, file.hasSuffix(".mvt"), let y = Int(file.dropLast(4)), (0..<size).contains(y) else {
            throw .badParameter("the tile's y must be {y}.mvt with y in 0...\(size - 1) at zoom \(z) (got '\(file?.prefix(20) ?? "")')")
        }
        return (z, x, y)
    }

    /// TileJSON 3.0.0: the tile URL (with the list's version, so that a
    /// cache keyed by URL never serves a replaced list's tiles), the zooms,
    /// the list's bounds and center, and the layer's fields.
    func tileJSON(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let list = try request.pathParameter("name", context: context)
        guard let version = try await reader.listVersion(named: list) else { throw APIError(CatalogError.listNotFound(list)) }
        let (west, south, east, north) = try await TileExport.bounds(list: list, in: reader)
        let authority = request.head.authority ?? "127.0.0.1"
        let name = list.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? list
        let url = "\(secure ? "https" : "http")://\(authority)/lists/\(name)/tiles/{z}/{x}/{y}.mvt?v=\(version)"
        let center = [(west + east) / 2, (south + north) / 2, 10]
        let json = """
            {"tilejson":"3.0.0","name":\(StoreJSON.quoted(list)),"scheme":"xyz","tiles":[\(StoreJSON.quoted(url))],\
            "minzoom":0,"maxzoom":\(Self.maxZoom),"bounds":[\(west),\(south),\(east),\(north)],"center":[\(center.map { "\($0)" }.joined(separator: ","))],\
            "vector_layers":\(VectorTile.storesLayerJSON(zooms: 0...Self.maxZoom))}
            """
        return .json(json)
    }
}
