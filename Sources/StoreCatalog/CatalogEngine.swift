import Clustering
import Foundation
import Geo

/// A store catalog, whichever engine holds it: ``Catalog`` (SQLite, a file
/// in this process) or `PostgresCatalog` (PostgreSQL + PostGIS, shared by
/// several servers). The CLI, the server and `CatalogStoreDirectory` reach
/// it through this interface only, so that one command line works on both
/// (`--db PATH` or `--db postgres://…`). What only a server needs besides —
/// API tokens, change watches, the nearest snapshot — is `ServingCatalog`'s,
/// in the `CatalogServing` module, which an app does not link.
///
/// Both implementations give the same answers on the same data: the same
/// stores in the same order (ties by store key, the import order), the
/// same distances (``Haversine``) and the same errors (``CatalogError``).
/// `PostgresCatalogTests` runs the same commands on both and compares.
///
/// The requirements are `async`: PostgreSQL answers over the network, and
/// ``Catalog`` runs its SQLite calls on the package's work lanes (see
/// `Catalog+Engine.swift`), so no caller's thread ever waits for either.
///
/// The `forEach…` requirements stream: `body` is called once per row as
/// rows arrive, so memory stays flat at any list size. `body` must not
/// call the catalog.
public protocol CatalogEngine: Sendable {
    /// Where the catalog lives, for messages: its path, or its URL with the
    /// password masked.
    var location: String { get }

    /// Every list with its store count, by name in byte order.
    func lists() async throws -> [ListSummary]

    /// What `carousel info` prints: where the catalog is, its schema
    /// version, its size on disk, its stores and lists.
    func info() async throws -> CatalogInfo

    /// How many stores `list` holds; ``CatalogError/listNotFound(_:)``
    /// when there is no such list.
    func count(list: String) async throws -> Int

    /// The store at `position` (0-based) of `list`;
    /// ``CatalogError/positionOutOfRange(list:position:count:)`` past its end.
    func store(list: String, at position: Int) async throws -> Store

    /// Where the store at `position` of `list` is (its id and coordinate),
    /// without the rest of it; errors as ``CatalogEngine/store(list:at:)``.
    func location(list: String, at position: Int) async throws -> StorePin

    /// The position of the store with id `id` in `list`, or nil when the
    /// list does not hold it; ``CatalogError/listNotFound(_:)`` when there
    /// is no such list.
    func position(ofStore id: String, inList list: String) async throws -> Int?

    /// Calls `body` with each store of `list` in carousel order, with its
    /// position, from `offset` on and at most `limit` of them (nil: all),
    /// all of them from one state of the list.
    func forEachStore(
        list: String, offset: Int, limit: Int?, _ body: (_ position: Int, _ store: Store) throws -> Void
    ) async throws

    /// Calls `body` with the store at each of `positions` of `list`, in the
    /// order given.
    func forEachStore(list: String, at positions: some Sequence<Int>, _ body: (_ position: Int, _ store: Store) throws -> Void)
        async throws

    /// Calls `body` with the position and pin (id and coordinates) of each
    /// store of `list`, in carousel order: what a map's markers and an
    /// order by distance need, without the rest of each store.
    func forEachPin(list: String, _ body: (_ position: Int, _ pin: StorePin) throws -> Void) async throws

    /// The `limit` stores nearest to `origin` by great-circle distance,
    /// nearest first (ties by store key), optionally within `withinMeters`
    /// and only of `list`.
    func nearest(to origin: Coordinate, limit: Int, withinMeters: Double?, list: String?) async throws -> [StoreDistance]

    /// The stores inside `box` (of `list`, or of any list), by latitude
    /// band (1/64°), then longitude range (two across the antimeridian,
    /// the western first), longitude, latitude and store key.
    func stores(in box: BoundingBox, list: String?) async throws -> [Store]

    /// The markers of `list` inside `box` at `zoom`: clusters, and stores
    /// with their list positions (supercluster's clusters, the same on
    /// both engines); the store at `selected` is never hidden in a cluster.
    func clusters(list: String, zoom: Double, box: BoundingBox, selected: Int?, options: ClusterOptions) async throws
        -> [ListMarker]

    /// The markers of map tile `zoom`/`x`/`y` of `list` in tile units
    /// (extent 4096): supercluster's `getTile`, the same on both engines;
    /// the store at `selected` is never hidden in a cluster. With a
    /// `filter`, only its matching stores are clustered and drawn.
    func clusterTile(
        list: String, zoom: Int, x: Int, y: Int, selected: Int?, filter: StoreFilter, options: ClusterOptions
    ) async throws -> [ListTileFeature]

    /// `clusterTile(list:zoom:x:y:selected:filter:options:)` of each of
    /// `tiles` at once (an export's batches).
    func clusterTiles(list: String, tiles: [TileAddress], selected: Int?, filter: StoreFilter, options: ClusterOptions) async throws
        -> [[ListTileFeature]]

    /// The tiles of zoom `zoom` of `list` (its stores matching `filter`)
    /// that may hold a marker, in address order (an export's walk).
    func clusterTileAddresses(list: String, zoom: Int, filter: StoreFilter, options: ClusterOptions) async throws -> [TileAddress]

    /// The stores of cluster `id` of `list`, `limit` of them from `offset`.
    func clusterLeaves(list: String, cluster id: Int, limit: Int, offset: Int, options: ClusterOptions) async throws
        -> [ListMarker]

    /// The zoom from which the store at `position` of `list` is in no cluster.
    func unclusterZoom(list: String, position: Int, options: ClusterOptions) async throws -> Int

    /// A page of `search`'s results: text, category, area and opening
    /// hours over one list, ranked by distance or in list order.
    func search(_ search: StoreSearch) async throws -> SearchPage

    /// Imports a list from `reader` in one transaction: all or nothing,
    /// the same validation and report on both engines.
    func importList(named name: String, from reader: some StoreRowReader, options: ImportOptions) async throws
        -> ImportReport

    /// Renames a list; its stores and order stay.
    func renameList(_ name: String, to newName: String) async throws

    /// Deletes a list and its stores.
    func deleteList(_ name: String) async throws -> ListDeletion

    /// Whether writes are refused: the catalog was opened for reading.
    var isReadOnly: Bool { get }

    /// The `limit` stores of `list` from `position` in carousel order: a
    /// page of the list.
    func stores(list: String, from position: Int, limit: Int) async throws -> [Store]

    /// The store of `list` with id `id`, or nil; ``CatalogError/listNotFound(_:)``
    /// when there is no such list.
    func store(list: String, id: String) async throws -> Store?

    /// At most `limit` of the stores inside `box`, in the order of
    /// ``CatalogEngine/stores(in:list:)``: the first page of a box comes without the rest.
    func stores(in box: BoundingBox, list: String?, limit: Int) async throws -> [Store]

    /// The version of list `name` (nil: no such list): a number that moves
    /// whenever the list is imported anew, replaced or renamed to, never
    /// otherwise.
    func listVersion(named name: String) async throws -> Int64?

    /// A page of the changes of `list` after cursor `since` (nil: the
    /// list from scratch), at most `limit` of them: the change log of
    /// issue 45, as `Catalog`'s synchronous `changes(list:since:limit:)`
    /// describes it.
    func changes(list: String, since: String?, limit: Int) async throws -> ChangePage
}

extension CatalogEngine {
    /// A catalog without a change log refuses (none in this package).
    public func changes(list: String, since: String?, limit: Int) async throws -> ChangePage {
        throw CatalogError.invalidArgument("this catalog (\(location)) keeps no change log")
    }
}

/// An error of a catalog that cannot be reached now (its database is down
/// or away): a server answers 503 with `Retry-After` rather than a 500,
/// and its readiness check says not ready, until the catalog returns.
public protocol CatalogUnavailableError: Error {
    /// Whether this error is the catalog being out of reach.
    var isUnavailable: Bool { get }
}
