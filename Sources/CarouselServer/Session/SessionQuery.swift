import CatalogServing
import Hummingbird
import StoreCatalog

/// A session's `{"query": {…}}`: the search whose results the carousel
/// shows, in the items of `GET /stores/search` (`q`, `category`, `where`,
/// `lat`/`lng`/`withinKm` or `south`/`west`/`north`/`east`, `openAt`,
/// `limit`), as text.
///
/// Kept as items rather than as a `StoreSearch` so that the session can
/// run it again when its list changes, with `openAt: "now"` meaning the
/// moment it runs; and read by the same code as the HTTP query, so the two
/// accept and refuse the same values with the same messages.
struct SessionQuery: Equatable, Sendable {
    struct Item: Equatable, Sendable {
        var name: String
        var value: String
    }

    var items: [Item]

    /// The names a query may hold: the search's own, less `list` (a session
    /// searches its list) and `cursor` (the carousel holds one page).
    static let names: Set<String> = [
        "q", "category", "where", "lat", "lng", "withinKm", "south", "west", "north", "east", "openAt", "limit",
    ]

    /// The search of `list` the items describe; a `SessionInputError` with
    /// the HTTP query's message for a bad value.
    func search(list: String, limits: ServerLimits) throws(SessionInputError) -> StoreSearch {
        var parameters = Parameters()
        for item in items { parameters.append(key: item.name[...], value: item.value[...]) }
        do {
            return try SearchRoute.search(list: list, query: QueryParameters(items: parameters, limits: limits))
        } catch {
            throw SessionInputError("query: \(error.message)")
        }
    }
}
