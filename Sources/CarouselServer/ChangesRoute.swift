import CarouselJSON
import Hummingbird
import StoreCatalog
import WorkLanes

/// `GET /lists/{name}/changes?since=CURSOR&limit=N`: a list's change log,
/// page by page (issue 45), for replicas on devices (`CatalogSync`).
///
/// The shape follows CouchDB's `_changes?since=` (sequence numbers, each
/// store at its last change, tombstones for deletes) and ElectricSQL's
/// shapes (an offset to continue from, an `upToDate` marker, responses an
/// HTTP cache may keep: the answer to one URL only changes with the list's
/// version, so `CachingMiddleware` tags it with that version like the
/// list's other routes). The checksum at `upToDate` is PowerSync's idea: a
/// sum the device compares with what it holds.
///
/// ```json
/// {"changes":[{"seq":1,"id":"s1","rank":1048576,"store":{…}},{"seq":2,"id":"s9","deleted":true}],
///  "next":"2-0-1f…","upToDate":true,"checksum":"8c…","exists":true}
/// ```
///
/// A cursor this list's feed did not give is 400 `bad_cursor`; one older
/// than the tombstones kept is 410 `resync_required` (download again,
/// without `since`).
struct ChangesRoute {
    let reader: any CatalogEngine
    let limits: ServerLimits

    func register(on router: Router<CarouselRequestContext>) {
        router.get("/lists/{name}/changes") { request, context in try await changes(request, context) }
    }

    func changes(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let list = try request.pathParameter("name", context: context)
        let query = QueryParameters(request, limits: limits)
        let limit = try query.integer("limit", in: 1...limits.maxChangePage, default: 1000)!
        let since = try query.text("since")
        let page: ChangePage
        do {
            page = try await reader.changes(list: list, since: since, limit: limit)
        } catch let error as ChangeCursorError {
            switch error {
            case .invalid(let reason): throw APIError(.badRequest, "bad_cursor", reason)
            case .resyncRequired:
                throw APIError(.gone, "resync_required", error.description)
            }
        }
        // A page of thousands of stores is bulk work, off the event loop.
        if page.changes.count > 200 { return .json(ByteBuffer(bytes: try await WorkLane.bulk.run { ChangeJSON.page(page) })) }
        return .json(ByteBuffer(bytes: ChangeJSON.page(page)))
    }
}
