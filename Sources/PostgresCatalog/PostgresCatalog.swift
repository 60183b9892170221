import CatalogServing
import Clustering
import Foundation
import Geo
import Locks
import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import StoreCatalog

/// The store catalog on PostgreSQL + PostGIS (issue 26, first milestone):
/// the same answers as `Catalog` on the same data.
///
/// Operations take a connection from the catalog's `ConnectionPool`; the
/// schema is migrated once, when the catalog opens.
public final class PostgresCatalog: Sendable {
    public let url: PostgresURL
    let configuration: PostgresConnection.Configuration
    let logger: Logger
    private let pool: ConnectionPool
    /// The cluster indexes read or built, by list key, version and options
    /// (PostgresCatalog+Clusters.swift).
    let heldClusterIndexes = StateLock<[String: ClusterIndex]>([:])
    /// The search snapshots built, by list key and version
    /// (PostgresCatalog+Search.swift).
    let heldSearchSnapshots = StateLock<[String: SearchSnapshot]>([:])
    /// The cluster indexes of filtered tiles, by list version and filter.
    let filteredClusterIndexes = FilteredClusterIndexes()
    /// The change log's retention and clock (`changeLogOptions`).
    let changeLogSettings = StateLock(ChangeLogOptions())

    /// Connections a catalog opens at once at most: a server's concurrent
    /// requests beyond it wait for one. 16 per node keeps three nodes and
    /// their change watches well under PostgreSQL's default
    /// `max_connections` (100); docs/postgresql.md sizes it for more nodes.
    public static let standardMaxConnections = 16

    /// Connects to `url`, checks PostGIS and migrates the schema under an
    /// advisory lock. Every failure is a one-line `PostgresCatalogError`.
    ///
    /// `maxConnections` bounds the connections the catalog opens at once
    /// (a server's concurrent requests beyond it wait for one).
    public init(
        url: PostgresURL, maxConnections: Int = standardMaxConnections,
        logger: Logger = Logger(label: "carousel.postgres")
    ) async throws {
        self.url = url
        self.logger = logger
        var configuration: PostgresConnection.Configuration
        if url.isUnixSocket {
            configuration = .init(
                unixSocketPath: url.socketPath, username: url.user, password: url.password, database: url.database)
        } else {
            configuration = .init(
                host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
                tls: try Self.tls(for: url))
        }
        configuration.options.connectTimeout = .seconds(10)
        self.configuration = configuration
        pool = ConnectionPool(maxConnections: maxConnections) { [configuration] in
            try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        }
        _ = try await withConnection { connection in
            try await PostgresMigration.migrate(connection, url: url, logger: logger)
        }
    }

    /// The TLS of a TCP connection, by `sslmode` as libpq reads it
    /// (https://www.postgresql.org/docs/15/libpq-ssl.html#LIBPQ-SSL-PROTECTION):
    /// `disable` and `allow` in clear text (libpq tries clear text first
    /// for `allow`); `prefer` TLS when the server offers it; `require`
    /// TLS without checking the certificate; `verify-ca` the certificate
    /// against the system's roots; `verify-full` the host name too. A Unix
    /// socket never uses TLS: libpq ignores `sslmode` there.
    static func tls(for url: PostgresURL) throws -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch url.sslMode {
        case .disable, .allow: return .disable
        case .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw PostgresCatalogError.unreachable(url.description, "cannot set up TLS: \(error)")
        }
        return url.sslMode == .prefer ? .prefer(context) : .require(context)
    }

    /// The schema version this binary writes.
    public static var latestSchemaVersion: Int { PostgresMigration.latestVersion }

    /// Runs `body` on a connection of the pool; errors in one line.
    func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        var connected = false
        do {
            return try await pool.withConnection { connection in
                connected = true
                return try await body(connection)
            }
        } catch {
            throw oneLine(error, connecting: !connected)
        }
    }

    /// Opens a connection of its own, outside the pool (the change
    /// watch's, which listens for as long as it lives); errors in one line.
    func connectAlone() async throws -> PostgresConnection {
        do {
            return try await PostgresConnection.connect(configuration: configuration, id: 2, logger: logger)
        } catch {
            throw oneLine(error, connecting: true)
        }
    }

    /// `error` as a one-line `PostgresCatalogError` naming the masked URL;
    /// the catalog's own errors as they are.
    func oneLine(_ error: any Error, connecting: Bool) -> any Error {
        if error is PostgresCatalogError || error is CatalogError || error is ChangeCursorError { return error }
        if let error = error as? PostgresTransactionError {
            if let closure = error.closureError { return oneLine(closure, connecting: connecting) }
        }
        guard let error = error as? PSQLError else {
            return PostgresCatalogError.database(url.description, "\(error)")
        }
        if let server = error.serverInfo, let message = server[.message] {
            let code = server[.sqlState] ?? ""
            // 28P01 invalid_password, 28000 invalid_authorization_specification
            // (https://www.postgresql.org/docs/15/errcodes-appendix.html).
            if code.hasPrefix("28") { return PostgresCatalogError.authentication(url.description, message) }
            // Text with a NUL that got past every check: still the
            // client's input, not a fault of the database.
            if PostgresText.isNULError(sqlState: code) { return PostgresText.nulError }
            if connecting { return PostgresCatalogError.unreachable(url.description, message) }
            return PostgresCatalogError.database(url.description, message)
        }
        if connecting {
            let reason = error.underlying.map { "\($0)" } ?? "\(error.code)"
            return PostgresCatalogError.unreachable(url.description, reason)
        }
        return PostgresCatalogError.database(url.description, "\(error.code)")
    }

    /// The schema version of the database.
    public func schemaVersion() async throws -> Int {
        try await withConnection { connection in
            try await connection.query("SELECT coalesce(max(version), 0) FROM carousel_schema", logger: logger)
                .collect(Int.self).first ?? 0
        }
    }

    // MARK: Queries

    static let storeColumns =
        "s.id, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes::text"
    typealias StoreRow = (String, String, Double, Double, String?, String?, String?, String?)

    static func store(_ row: StoreRow) throws -> Store {
        Store(
            id: row.0, name: row.1, latitude: row.2, longitude: row.3, address: row.4, category: row.5, phone: row.6,
            attributes: try row.7.map { try AttributesJSON.decode($0) } ?? [:])
    }

    /// Every list with its store count, by name (byte order, as SQLite's).
    public func lists() async throws -> [ListSummary] {
        try await withConnection { connection in
            try await connection.query(
                """
                SELECT name, coalesce((SELECT max(position) + 1 FROM list_items WHERE list = lists.key), 0)::bigint
                FROM lists ORDER BY name COLLATE "C"
                """, logger: logger
            ).collect((String, Int).self).map { ListSummary(name: $0.0, count: $0.1) }
        }
    }

    /// How many stores `list` holds: its last position + 1, one index seek.
    public func count(list: String) async throws -> Int {
        try await withConnection { connection in try await count(list, connection) }
    }

    func count(_ list: String, _ connection: PostgresConnection) async throws -> Int {
        let key = try await listKey(list, connection)
        return try await connection.query(
            "SELECT coalesce(max(position) + 1, 0)::bigint FROM list_items WHERE list = \(key)", logger: logger
        ).collect(Int.self).first ?? 0
    }

    func listKey(_ name: String, _ connection: PostgresConnection) async throws -> Int64 {
        try Self.refuseNULName(name)
        guard
            let key = try await connection.query("SELECT key FROM lists WHERE name = \(name)", logger: logger)
                .collect(Int64.self).first
        else { throw CatalogError.listNotFound(name) }
        return key
    }

    /// A list name with a NUL names no list: imports refuse one, so the
    /// SQLite catalog finds none and says so (404 on the server); here it
    /// is answered the same, before a query PostgreSQL would refuse
    /// (PostgresText.swift).
    static func refuseNULName(_ name: String) throws(CatalogError) {
        if PostgresText.holdsNUL(name) { throw .listNotFound(name) }
    }

    /// The stores of `list` in carousel order.
    public func stores(list: String) async throws -> [Store] {
        try await withConnection { connection in
            let key = try await listKey(list, connection)
            return try await connection.query(
                """
                SELECT \(unescaped: Self.storeColumns) FROM list_items AS i JOIN stores AS s ON s.key = i.store
                WHERE i.list = \(key) ORDER BY i.position
                """, logger: logger
            ).collect(StoreRow.self).map(Self.store)
        }
    }

    /// The store at `position` (0-based) of `list`: one statement, a seek
    /// on each primary key.
    public func store(list: String, at position: Int) async throws -> Store {
        try Self.refuseNULName(list)
        return try await withConnection { connection in
            let found = try await connection.query(
                """
                SELECT \(unescaped: Self.storeColumns)
                FROM lists AS l
                JOIN list_items AS i ON i.list = l.key AND i.position = \(position)
                JOIN stores AS s ON s.key = i.store
                WHERE l.name = \(list)
                """, logger: logger
            ).collect(StoreRow.self).first
            guard let found else {
                throw CatalogError.positionOutOfRange(list: list, position: position, count: try await count(list, connection))
            }
            return try Self.store(found)
        }
    }

    /// The `limit` stores nearest to `origin` by great-circle distance (the
    /// SQLite catalog's haversine, `Haversine`), nearest first, ties by
    /// store key; optionally within `withinMeters` and of `list`.
    ///
    /// PostGIS orders candidates by KNN on a GiST index (`<->` on
    /// geography is the distance on the sphere, radius 6,371,008.7714 m:
    /// https://postgis.net/docs/geography_distance_knn.html): `stores_point`
    /// for every store, `stores_list_point` (migration 0006) for one list's.
    /// Each candidate is then measured exactly. Candidates are fetched
    /// until the last one's KNN distance is beyond the k-th exact distance,
    /// or beyond the radius, by a margin that covers the two Earth radii and
    /// rounding (0.1 % + 1 m), so the re-ranked answer is exact.
    ///
    /// The radius is not in the query: `ST_DWithin` with a radius near
    /// half the Earth's circumference made the planner filter the whole
    /// table and sort it, 0.3 s a query (3.4 q/s under pgbench against
    /// 2,375 for plain KNN, Benchmarks/scripts/postgres-serve.sh); plain KNN
    /// stops on its own at the radius here. The first fetch is the limit
    /// and 8 more, almost always enough: 36 rows (twice the limit and 16)
    /// served 1,022 req/s on one connection, 18 rows 1,180, and 1,311 as a
    /// prepared statement (`NearestCandidates`: parsed and planned once
    /// per connection; 3,128 against 2,698 on 32 connections).
    public func nearest(
        to origin: Coordinate, limit: Int = 10, withinMeters: Double? = nil, list: String? = nil
    ) async throws -> [StoreDistance] {
        guard origin.isValid else { throw CatalogError.invalidArgument("\(origin) is not a valid latitude,longitude") }
        guard limit > 0 else { throw CatalogError.invalidArgument("the limit must be at least 1 (got \(limit))") }
        var maxRadius = Haversine.maximumDistanceMeters
        if let withinMeters {
            guard withinMeters >= 0 else {  // NaN too
                throw CatalogError.invalidArgument("the radius must be a distance of 0 or more (got \(withinMeters))")
            }
            maxRadius = min(withinMeters, Haversine.maximumDistanceMeters)
        }
        let radius = maxRadius
        return try await withConnection { connection in
            var listKey: Int64?
            if let list { listKey = try await self.listKey(list, connection) }
            let point = "SRID=4326;POINT(\(origin.longitude) \(origin.latitude))"
            var fetch = limit + 8
            while true {
                let candidates = NearestCandidates(point: point, fetch: Int64(fetch))
                let rows: [NearestCandidates.Row]
                if let listKey {
                    rows = try await connection.execute(NearestCandidatesInList(candidates: candidates, list: listKey), logger: logger)
                        .collected()
                } else {
                    rows = try await connection.execute(candidates, logger: logger).collected()
                }
                var found: [(key: Int64, distance: Double, row: StoreRow)] = []
                for row in rows {
                    let distance = Haversine.distance(origin, Coordinate(latitude: row.3, longitude: row.4))
                    if distance <= radius { found.append((row.0, distance, (row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8))) }
                }
                found.sort { ($0.distance, $0.key) < ($1.distance, $1.key) }
                let complete =
                    rows.count < fetch
                    || rows.last!.9 > radius * 1.001 + 1
                    || (found.count >= limit && rows.last!.9 > found[limit - 1].distance * 1.001 + 1)
                if complete {
                    return try found.prefix(limit).map { StoreDistance(store: try Self.store($0.row), distanceMeters: $0.distance) }
                }
                fetch *= 4
            }
        }
    }

    /// The stores inside `box`, of `list` or of any list, in the SQLite
    /// catalog's order: by latitude band (1/64°), then by longitude range
    /// (two across the antimeridian, west one first), longitude, latitude
    /// and store key.
    public func stores(in box: BoundingBox, list: String? = nil) async throws -> [Store] {
        try await stores(in: box, list: list, upTo: nil)
    }

    /// At most `limit` of the stores inside `box`, in the order of
    /// ``stores(in:list:)``: the first page of a continent reads no further.
    public func stores(in box: BoundingBox, list: String? = nil, limit: Int) async throws -> [Store] {
        guard limit > 0 else { throw CatalogError.invalidArgument("the limit must be at least 1 (got \(limit))") }
        return try await stores(in: box, list: list, upTo: limit)
    }

    private func stores(in box: BoundingBox, list: String?, upTo limit: Int?) async throws -> [Store] {
        try await withConnection { connection in
            var listKey: Int64?
            if let list { listKey = try await self.listKey(list, connection) }
            let ranges = box.longitudeRanges
            let first = ranges[0]
            let second = ranges.count > 1 ? ranges[1] : ranges[0]
            var binds = PostgresBindings()
            binds.append(Int64((box.south + 90) * 64))
            binds.append(Int64((box.north + 90) * 64))
            binds.append(box.south)
            binds.append(box.north)
            binds.append(first.lowerBound)
            binds.append(first.upperBound)
            binds.append(second.lowerBound)
            binds.append(second.upperBound)
            // LIMIT NULL is no limit.
            binds.append(limit.map(Int64.init))
            var listFilter = ""
            if let listKey {
                binds.append(listKey)
                listFilter = "AND s.list = $10"
            }
            let query = PostgresQuery(
                unsafeSQL: """
                    SELECT \(Self.storeColumns) FROM stores AS s
                    WHERE s.band BETWEEN $1 AND $2 AND s.latitude BETWEEN $3 AND $4
                      AND (s.longitude BETWEEN $5 AND $6 OR s.longitude BETWEEN $7 AND $8) \(listFilter)
                    ORDER BY s.band, CASE WHEN s.longitude BETWEEN $5 AND $6 THEN 0 ELSE 1 END,
                             s.longitude, s.latitude, s.key
                    LIMIT $9
                    """, binds: binds)
            return try await connection.query(query, logger: logger).collect(StoreRow.self).map(Self.store)
        }
    }
}

/// The nearest query's candidates, as a prepared statement: each connection
/// parses and plans it once, rather than at every request (11–16 % more
/// requests per second through `GET /stores/near`).
struct NearestCandidates: PostgresPreparedStatement {
    static let sql = """
        SELECT s.key, \(PostgresCatalog.storeColumns), s.point <-> $1::geography
        FROM stores AS s ORDER BY s.point <-> $1::geography LIMIT $2
        """
    typealias Row = (Int64, String, String, Double, Double, String?, String?, String?, String?, Double)

    var point: String
    var fetch: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(point)
        bindings.append(fetch)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// `NearestCandidates` of one list, on the `(list, point)` index.
struct NearestCandidatesInList: PostgresPreparedStatement {
    static let sql = """
        SELECT s.key, \(PostgresCatalog.storeColumns), s.point <-> $1::geography
        FROM stores AS s WHERE s.list = $3 ORDER BY s.point <-> $1::geography LIMIT $2
        """
    typealias Row = NearestCandidates.Row

    /// The point and the fetch, bound as `NearestCandidates` binds them.
    var candidates: NearestCandidates
    var list: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = try candidates.makeBindings()
        bindings.append(list)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try candidates.decodeRow(row) }
}

extension AsyncSequence {
    /// Every element, in order.
    func collected() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}

extension PostgresRowSequence {
    /// Every row decoded as `type`.
    func collect<T: PostgresDecodable & Sendable>(_ type: T.Type) async throws -> [T] {
        var values: [T] = []
        for try await value in decode(type) { values.append(value) }
        return values
    }

    func collect<each T: PostgresDecodable & Sendable>(_ types: (repeat each T).Type) async throws -> [(repeat each T)] {
        var values: [(repeat each T)] = []
        for try await value in decode(types) { values.append(value) }
        return values
    }
}
