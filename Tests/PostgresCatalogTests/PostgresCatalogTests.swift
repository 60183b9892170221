import Foundation
import Logging
import StoreCatalog
import TestSupport
import Testing

@testable import PostgresCatalog

@Suite("PostgreSQL URL")
struct PostgresURLTests {
    @Test func parsesLibpqForms() throws {
        let url = try PostgresURL("postgres://alice:s%40cret@db.example.com:6543/stores?sslmode=require")
        #expect(url.user == "alice")
        #expect(url.password == "s@cret")
        #expect(url.host == "db.example.com")
        #expect(url.port == 6543)
        #expect(url.database == "stores")
        #expect(url.sslMode == .require)
        #expect(!url.isUnixSocket)

        let socket = try PostgresURL("postgresql://bob@/catalog?host=/var/run/postgresql")
        #expect(socket.isUnixSocket)
        #expect(socket.host == "/var/run/postgresql")
        #expect(socket.socketPath == "/var/run/postgresql/.s.PGSQL.5432")
        #expect(socket.database == "catalog")
        #expect(socket.password == nil)
        #expect(socket.sslMode == .prefer)

        let encodedSocket = try PostgresURL("postgresql://%2Ftmp%2Fpg:5433/x")
        #expect(encodedSocket.host == "/tmp/pg")
        #expect(encodedSocket.socketPath == "/tmp/pg/.s.PGSQL.5433")

        let ipv6 = try PostgresURL("postgresql://u:p@[::1]:5432/d")
        #expect(ipv6.host == "::1")

        let defaults = try PostgresURL("postgresql://carl@localhost")
        #expect(defaults.port == 5432)
        #expect(defaults.database == "carl")
    }

    @Test func descriptionMasksThePassword() throws {
        let url = try PostgresURL("postgres://alice:hunter2@db:5432/stores")
        #expect(url.description == "postgresql://alice:***@db:5432/stores")
        #expect(!url.description.contains("hunter2"))
        #expect(url.unmasked.contains("hunter2"))
        #expect(try PostgresURL(url.unmasked) == url)
        #expect(PostgresURL.mask("postgres://a:hunter2@h/d?password=x") == "postgres://a:***@h/d?password=***")
    }

    @Test func rejectsBadURLsInOneLineWithoutThePassword() {
        for text in [
            "mysql://a:hunter2@h/d", "postgres://a:hunter2@h:port/d", "postgres://a:hunter2@h/d?sslmode=maybe",
            "postgres://a:hunter2@h:70000/d", "postgres://a:hunter2@h/d?nonsense=1",
        ] {
            #expect {
                try PostgresURL(text)
            } throws: { error in
                let message = "\(error)"
                return !message.contains("hunter2") && !message.contains("\n")
            }
        }
    }

    /// Issue 42: a '/', '?', '#' or '@' in the password. Each text's
    /// password pieces (every one marked `zq`, or the digits a parser could
    /// take for a port) must show in no message.
    @Test func masksThePasswordOfURLsThatDoNotParse() {
        for (text, pieces) in [
            ("postgres://u:zq1/zq2+zq3==@127.0.0.1:5432/db", ["zq"]),
            ("postgresql://u:zq1?zq2@127.0.0.1:5432/db", ["zq"]),
            ("postgres://u:zq1#zq2@127.0.0.1:port/db", ["zq"]),
            ("postgres://u:zq1@zq2/zq3?zq4#zq5@127.0.0.1:5432/db", ["zq"]),
            ("postgres://u:4321?application_name=zq@h/db", ["4321", "zq"]),
            ("postgres://u:4321/zq@h/db", ["4321", "zq"]),
            ("postgres://u:zq1/zq2@h:70000/db?sslmode=maybe", ["zq"]),
            ("postgres://u@h/db?p%61ssword=zq1&sslmode=maybe", ["zq"]),
        ] {
            #expect(!PostgresURL.mask(text).contains("zq"), "\(PostgresURL.mask(text))")
            do {
                let url = try PostgresURL(text)
                Issue.record("\(text) parsed as \(url)")
            } catch {
                for piece in pieces { #expect(!error.description.contains(piece), "\(error)") }
                #expect(!error.description.contains("\n"))
            }
        }
        #expect(
            PostgresURL.mask("postgres://u:base64Pw/abc+def==@127.0.0.1:5432/db") == "postgres://u:***@127.0.0.1:5432/db")
        #expect(PostgresURL.mask("postgres://u:p@ss@h/d") == "postgres://u:***@h/d")
        #expect(PostgresURL.mask("postgres://h/d?p%61ssword=x&sslmode=require") == "postgres://h/d?p%61ssword=***&sslmode=require")
        // A user without a password, or an IPv6 host: nothing to mask.
        #expect(PostgresURL.mask("postgres://a@[::1") == "postgres://a@[::1")
        #expect(PostgresURL.mask("postgres://[::1]:5432/d?application_name=a@b") == "postgres://[::1]:5432/d?application_name=a@b")
        #expect(PostgresURL.mask("postgres://a:secret@[::1") == "postgres://a:***@[::1")
        // The message the CI checks through the binary.
        #expect(throws: PostgresCatalogError.invalidURL("postgres://a@[::1", "an IPv6 host has no closing ]")) {
            try PostgresURL("postgres://a@[::1")
        }
        #expect(
            throws: PostgresCatalogError.invalidURL(
                "postgres://u:***@127.0.0.1:5432/db",
                "a '/' or '?' in the password, or an '@' after the host, must be percent-encoded (%2F, %3F, %40)")
        ) { try PostgresURL("postgres://u:base64Pw/abc+def==@127.0.0.1:5432/db") }
    }

    /// The same passwords percent-encoded parse; a '#' needs no escape.
    @Test func readsPasswordsWithSpecialCharactersPercentEncodedOrNot() throws {
        #expect(try PostgresURL("postgres://u:base64Pw%2Fabc%2Bdef%3D%3D@127.0.0.1:5432/db").password == "base64Pw/abc+def==")
        #expect(try PostgresURL("postgres://u:a%3Fb%23c%40d@h/db").password == "a?b#c@d")
        let hash = try PostgresURL("postgres://u:zq1#zq2@h:5432/db")
        #expect(hash.password == "zq1#zq2")
        #expect(hash.host == "h")
        #expect(!hash.description.contains("zq"))
        // An '@' in the query without a password in the URL is still read.
        #expect(try PostgresURL("postgres://u@h/db?application_name=a@b").host == "h")
    }

    @Test func tellsURLsFromPaths() {
        #expect(PostgresURL.isPostgresURL("postgres://h/d"))
        #expect(PostgresURL.isPostgresURL("postgresql://h/d"))
        #expect(!PostgresURL.isPostgresURL("catalog.sqlite"))
    }
}

/// The PostgreSQL catalog against the SQLite one on the GeoNames fixtures,
/// on a cluster of the suite's own.
@Suite("PostgreSQL catalog", .serialized)
struct PostgresCatalogTests {
    /// A cluster per test: initdb takes ~1 s; the suite is a handful.
    static func withCluster(tls: Bool = false, _ body: (PostgresCluster) async throws -> Void) async throws {
        try await PostgresCluster.with(tls: tls, body)
    }

    static func reader(_ name: String) throws -> any StoreRowReader {
        try makeStoreRowReader(for: Paths.geoNames.appendingPathComponent(name), format: .csv)
    }

    static func sqlite(_ directory: TemporaryDirectory) throws -> Catalog {
        let catalog = try Catalog(path: directory.path("catalog.sqlite").path)
        try catalog.importList(named: "world", from: reader("geonames-world.csv"))
        try catalog.importList(named: "kr", from: reader("geonames-kr.csv"))
        try catalog.importList(named: "kr-by-name", from: reader("geonames-kr.csv"), options: ImportOptions(order: .name))
        try catalog.importList(
            named: "kr-by-distance", from: reader("geonames-kr.csv"),
            options: ImportOptions(order: .distance(from: Coordinate(latitude: 37.5665, longitude: 126.978))))
        return catalog
    }

    static func postgres(_ cluster: PostgresCluster, database: String = "catalog") async throws -> PostgresCatalog {
        try cluster.createDatabase(database)
        let catalog = try await PostgresCatalog(url: PostgresURL(cluster.url(database)))
        try await catalog.importList(named: "world", from: reader("geonames-world.csv"))
        try await catalog.importList(named: "kr", from: reader("geonames-kr.csv"))
        try await catalog.importList(named: "kr-by-name", from: reader("geonames-kr.csv"), options: ImportOptions(order: .name))
        try await catalog.importList(
            named: "kr-by-distance", from: reader("geonames-kr.csv"),
            options: ImportOptions(order: .distance(from: Coordinate(latitude: 37.5665, longitude: 126.978))))
        return catalog
    }

    static func expectSame(_ a: [StoreDistance], _ b: [StoreDistance], _ what: String) {
        #expect(a.map(\.store) == b.map(\.store), "\(what): stores")
        for (x, y) in zip(a, b) {
            #expect(abs(x.distanceMeters - y.distanceMeters) <= 1e-6 * max(1, y.distanceMeters), "\(what): distance")
        }
    }

    /// `sslmode` as libpq reads it, over TCP to a server with a
    /// self-signed certificate: `prefer` and `require` encrypt, `disable`
    /// does not, and `verify-full` refuses a certificate no root signed,
    /// in one line.
    @Test func tlsFollowsTheURLsSSLMode() async throws {
        try await Self.withCluster(tls: true) { cluster in
            try cluster.createDatabase("catalog")
            func encrypts(_ mode: String) async throws -> Bool {
                let catalog = try await PostgresCatalog(url: PostgresURL(cluster.tcpURL("catalog", sslMode: mode)))
                return try await catalog.withConnection { connection in
                    try await connection.query(
                        "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: Logger(label: "test")
                    ).collect(Bool.self)[0]
                }
            }
            #expect(try await encrypts("require"))
            #expect(try await encrypts("prefer"))
            #expect(try await !encrypts("disable"))
            await #expect {
                try await PostgresCatalog(url: PostgresURL(cluster.tcpURL("catalog", sslMode: "verify-full")))
            } throws: { error in
                !"\(error)".contains("\n")
            }
        }
    }

    @Test func sameAnswersAsSQLite() async throws {
        try await Self.withCluster { cluster in
            let directory = try TemporaryDirectory()
            let sqlite = try Self.sqlite(directory)
            let postgres = try await Self.postgres(cluster)

            #expect(try await postgres.lists() == sqlite.lists())
            for list in ["world", "kr", "kr-by-name", "kr-by-distance"] {
                #expect(try await postgres.count(list: list) == sqlite.count(list: list))
                #expect(try await postgres.stores(list: list) == sqlite.stores(list: list), "order of \(list)")
                for position in await [0, 1, 57, try sqlite.count(list: list) - 1] {
                    #expect(try await postgres.store(list: list, at: position) == sqlite.store(list: list, at: position))
                }
            }
            await #expect(throws: CatalogError.listNotFound("nope")) { try await postgres.count(list: "nope") }
            await #expect(throws: CatalogError.positionOutOfRange(list: "kr", position: 311, count: 311)) {
                try await postgres.store(list: "kr", at: 311)
            }

            var random = SplitMix64(seed: 26)
            let origins =
                [
                    Coordinate(latitude: 37.5665, longitude: 126.978), Coordinate(latitude: 0, longitude: 179.9),
                    Coordinate(latitude: -33.9, longitude: 151.2), Coordinate(latitude: 89.9, longitude: 0),
                    Coordinate(latitude: 64.1, longitude: -21.9),
                ]
                + (0..<40).map { _ in
                    Coordinate(latitude: Double.random(in: -90...90, using: &random), longitude: Double.random(in: -180...180, using: &random))
                }
            for origin in origins {
                for (limit, within, list) in [(1, nil, nil), (10, nil, nil), (25, 500_000.0, nil), (10, nil, "kr"), (5, 50_000.0, "kr")]
                    as [(Int, Double?, String?)]
                {
                    await Self.expectSame(
                        try await postgres.nearest(to: origin, limit: limit, withinMeters: within, list: list),
                        try sqlite.nearest(to: origin, limit: limit, withinMeters: within, list: list),
                        "nearest \(origin) \(limit) \(String(describing: within)) \(list ?? "-")")
                }
            }

            let boxes = try [
                BoundingBox(south: 33, west: 124, north: 39, east: 132),
                BoundingBox(south: -50, west: 170, north: 10, east: -170),  // across the antimeridian
                BoundingBox(south: 40, west: -10, north: 55, east: 20),
                BoundingBox(south: -90, west: -180, north: 90, east: 180),
            ]
            for box in boxes {
                #expect(try await postgres.stores(in: box) == sqlite.stores(in: box), "box \(box)")
                #expect(try await postgres.stores(in: box, list: "kr") == sqlite.stores(in: box, list: "kr"), "box \(box) kr")
            }
        }
    }

    /// A column typed as numbers while streaming, then found to be text
    /// (`7A` on the last row), is rewritten as text in every store, in
    /// batches of a thousand: the same stores as the SQLite catalog's.
    @Test func aColumnFoundToBeTextLateIsRewrittenAsSQLiteDoes() async throws {
        try await Self.withCluster { cluster in
            let directory = try TemporaryDirectory()
            var csv = "id,name,latitude,longitude,code\n"
            for index in 0..<2_500 {
                csv += "s\(index),Store \(index),\(Double(index % 170) / 2),\(Double(index % 350) / 2 - 80),\(index == 2_499 ? "7A" : String(index))\n"
            }
            let file = try directory.write("late-text.csv", csv)
            let sqlite = try Catalog(path: directory.path("catalog.sqlite").path)
            try sqlite.importList(named: "codes", from: makeStoreRowReader(for: file, format: .csv))
            try cluster.createDatabase("catalog")
            let postgres = try await PostgresCatalog(url: PostgresURL(cluster.url("catalog")))
            try await postgres.importList(named: "codes", from: makeStoreRowReader(for: file, format: .csv))
            let stores = try await postgres.stores(list: "codes")
            #expect(stores.count == 2_500)
            #expect(stores.first?.attributes["code"] == .string("0"))
            #expect(stores == (try sqlite.stores(list: "codes")))
        }
    }

    @Test func importIsAllOrNothingAndReplaceIsAtomic() async throws {
        try await Self.withCluster { cluster in
            let directory = try TemporaryDirectory()
            try cluster.createDatabase("catalog")
            let postgres = try await PostgresCatalog(url: PostgresURL(cluster.url("catalog")))
            let sqlite = try Catalog(path: directory.path("catalog.sqlite").path)
            let good = try directory.write("good.csv", "id,name,latitude,longitude,size\na,A,1,2,3\nb,B,3,4,7A\n")
            let bad = try directory.write("bad.csv", "id,name,latitude,longitude\nc,C,1,2\nc,D,3,4\nd,E,95,4\n")
            let reportP = try await postgres.importList(named: "l", from: makeStoreRowReader(for: good, format: .csv))
            let reportS = try sqlite.importList(named: "l", from: makeStoreRowReader(for: good, format: .csv))
            #expect(reportP == reportS)
            #expect(try await postgres.stores(list: "l") == sqlite.stores(list: "l"))

            await #expect(throws: CatalogError.listExists("l")) {
                try await postgres.importList(named: "l", from: makeStoreRowReader(for: good, format: .csv))
            }
            // A rejected replace leaves the list as it was; the report is SQLite's.
            var errorP: CatalogError?
            var errorS: CatalogError?
            do {
                try await postgres.importList(
                    named: "l", from: makeStoreRowReader(for: bad, format: .csv), options: ImportOptions(replace: true))
            } catch let error as CatalogError { errorP = error }
            do {
                try await sqlite.importList(named: "l", from: makeStoreRowReader(for: bad, format: .csv), options: ImportOptions(replace: true))
            } catch let error as CatalogError { errorS = error }
            #expect(errorP != nil)
            #expect(errorP == errorS)
            #expect(try await postgres.stores(list: "l") == sqlite.stores(list: "l"))

            let skipP = try await postgres.importList(
                named: "l", from: makeStoreRowReader(for: bad, format: .csv), options: ImportOptions(skipInvalid: true, replace: true))
            let skipS = try await sqlite.importList(
                named: "l", from: makeStoreRowReader(for: bad, format: .csv), options: ImportOptions(skipInvalid: true, replace: true))
            #expect(skipP == skipS)
            #expect(try await postgres.stores(list: "l") == sqlite.stores(list: "l"))
            #expect(try await postgres.lists() == sqlite.lists())
        }
    }

    /// Repeated ids are found by PostgreSQL after the rows are staged, not
    /// row by row as SQLite finds them; the judging replays SQLite's, so
    /// every report is the same: seeded files where invalid rows and
    /// repeated ids interleave, at several issue limits, refused or with
    /// `skipInvalid`, and the stores written in the same order with the
    /// same keys.
    @Test func rejectedRowsAreJudgedAsSQLiteJudgesThem() async throws {
        try await Self.withCluster { cluster in
            let directory = try TemporaryDirectory()
            try cluster.createDatabase("catalog")
            let postgres = try await PostgresCatalog(url: PostgresURL(cluster.url("catalog")))
            let sqlite = try Catalog(path: directory.path("catalog.sqlite").path)
            var random = SplitMix64(seed: 2026)
            // Every way an import ends, met at least once.
            var imported = 0, refused = 0, stoppedEarly = 0
            for file in 0..<6 {
                var csv = "id,name,latitude,longitude\n"
                var ids: [String] = []
                for row in 0..<(40 + 20 * file) {
                    let roll = Int.random(in: 0..<10, using: &random)
                    let id = roll < 2 && !ids.isEmpty ? ids.randomElement(using: &random)! : "s\(row)"
                    let latitude = roll == 9 ? "91" : String(Double.random(in: -80...80, using: &random))
                    csv += "\(id),Store \(row),\(latitude),\(Double.random(in: -179...179, using: &random))\n"
                    ids.append(id)
                }
                let path = try directory.write("f\(file).csv", csv)
                for limit in [1, 2, 5, 100] {
                    for skip in [false, true] {
                        let options = ImportOptions(skipInvalid: skip, replace: true, issueLimit: limit)
                        let what = "file \(file), limit \(limit), skip \(skip)"
                        var outcomeP: Result<ImportReport, CatalogError>
                        var outcomeS: Result<ImportReport, CatalogError>
                        do {
                            outcomeP = .success(
                                try await postgres.importList(
                                    named: "l", from: makeStoreRowReader(for: path, format: .csv), options: options))
                        } catch let error as CatalogError { outcomeP = .failure(error) }
                        do {
                            outcomeS = await .success(
                                try sqlite.importList(named: "l", from: makeStoreRowReader(for: path, format: .csv), options: options))
                        } catch let error as CatalogError { outcomeS = .failure(error) }
                        #expect(outcomeP == outcomeS, "\(what)")
                        switch outcomeS {
                        case let .success(report): imported += report.rejected > 0 ? 1 : 0
                        case let .failure(.rowsRejected(report)): if report.stoppedEarly { stoppedEarly += 1 } else { refused += 1 }
                        case .failure: break
                        }
                        // No list at all while every import so far was refused.
                        let storesP = try? await postgres.stores(list: "l"), storesS = try? sqlite.stores(list: "l")
                        #expect(storesP == storesS, "\(what)")
                    }
                }
            }
            #expect(imported > 0 && refused > 0 && stoppedEarly > 0, "\(imported) \(refused) \(stoppedEarly)")
        }
    }

    @Test func twoNodesMigrateOnce() async throws {
        try await Self.withCluster { cluster in
            try cluster.createDatabase("catalog")
            let url = try PostgresURL(cluster.url("catalog"))
            async let first = PostgresCatalog(url: url)
            async let second = PostgresCatalog(url: url)
            let (a, b) = try await (first, second)
            #expect(try await a.schemaVersion() == PostgresCatalog.latestSchemaVersion)
            #expect(try await b.schemaVersion() == PostgresCatalog.latestSchemaVersion)
            // A third open finds nothing to do.
            _ = try await PostgresCatalog(url: url)
            #expect(try await a.lists() == [])
        }
    }

    /// A list's cluster index is built once per list version and stored:
    /// a second node reads it (the same markers), and a replace makes a
    /// new one while the old one's row goes.
    @Test func clusterIndexesAreBuiltOncePerListVersionAndShared() async throws {
        try await Self.withCluster { cluster in
            try cluster.createDatabase("catalog")
            let url = try PostgresURL(cluster.url("catalog"))
            let (a, b) = (try await PostgresCatalog(url: url), try await PostgresCatalog(url: url))
            try await a.importList(named: "kr", from: Self.reader("geonames-kr.csv"))
            func stored() async throws -> [Int64] {
                try await a.withConnection { connection in
                    try await connection.query("SELECT version FROM cluster_indexes ORDER BY version", logger: a.logger)
                        .collect(Int64.self)
                }
            }
            #expect(try await stored().isEmpty)
            let box = try BoundingBox(south: 33, west: 124, north: 39, east: 131)
            let first = try await a.clusters(list: "kr", zoom: 7, box: box)
            let version = try #require(try await a.listVersion(named: "kr"))
            #expect(try await stored() == [version])
            #expect(try await b.clusters(list: "kr", zoom: 7, box: box) == first)
            #expect(try await stored() == [version])
            // The SQLite catalog's answer, for the same data.
            let directory = try TemporaryDirectory("carousel-pg-clusters")
            let sqlite = try Catalog(path: directory.path("catalog.sqlite").path)
            try sqlite.importList(named: "kr", from: Self.reader("geonames-kr.csv"))
            #expect(try sqlite.clusters(list: "kr", zoom: 7, box: box) == first)

            try await b.importList(named: "kr", from: Self.reader("geonames-kr.csv"), options: ImportOptions(replace: true, order: .name))
            let renewed = try #require(try await b.listVersion(named: "kr"))
            #expect(renewed > version)
            try await sqlite.importList(named: "kr", from: Self.reader("geonames-kr.csv"), options: ImportOptions(replace: true, order: .name))
            #expect(try await a.clusters(list: "kr", zoom: 9, box: box) == sqlite.clusters(list: "kr", zoom: 9, box: box))
            #expect(try await stored() == [renewed])
        }
    }

    @Test func oneLineErrors() async throws {
        try await Self.withCluster { cluster in
            try cluster.createDatabase("bare", postGIS: false)
            try cluster.psql("postgres", "CREATE ROLE alice LOGIN PASSWORD 'right'")
            try cluster.createDatabase("catalog")

            func message(_ url: String) async -> String {
                do {
                    _ = try await PostgresCatalog(url: PostgresURL(url))
                    return "opened"
                } catch { return "\(error)" }
            }
            let noPostGIS = await message(cluster.url("bare"))
            #expect(noPostGIS.contains("CREATE EXTENSION postgis"), "\(noPostGIS)")
            #expect(!noPostGIS.contains("\n"))

            let unreachable = await message("postgresql://u:hunter2@/d?host=/nonexistent-dir")
            #expect(unreachable.hasPrefix("cannot connect to postgresql://u:***@"), "\(unreachable)")
            #expect(!unreachable.contains("hunter2") && !unreachable.contains("\n"))

            let refused = await message("postgresql://u:hunter2@127.0.0.1:1/d")
            #expect(refused.hasPrefix("cannot connect to postgresql://u:***@127.0.0.1:1/d"), "\(refused)")

            let noDatabase = await message(cluster.url("missing", password: "hunter2"))
            #expect(noDatabase.contains("***") && !noDatabase.contains("hunter2") && !noDatabase.contains("\n"), "\(noDatabase)")

            // A schema version from the future.
            _ = try await PostgresCatalog(url: PostgresURL(cluster.url("catalog")))
            try cluster.psql("catalog", "INSERT INTO carousel_schema (version) VALUES (999)")
            let tooNew = await message(cluster.url("catalog"))
            #expect(tooNew.contains("schema version 999"), "\(tooNew)")
            #expect(!tooNew.contains("\n"))
        }
    }
}

/// A migration file is sent one statement at a time (postgres-nio has no
/// simple-query protocol): the split must respect PostgreSQL's lexical
/// rules.
@Suite("PostgreSQL migration statements")
struct PostgresMigrationStatementTests {
    @Test func splitsAtSemicolonsOutsideCommentsQuotesAndDollarBodies() {
        let sql = """
            -- a comment; with a semicolon
            CREATE TABLE a (x text DEFAULT 'it''s; here');
            CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1; $$;
            CREATE FUNCTION g() RETURNS int LANGUAGE sql AS $body$ SELECT 2; $body$;
            COMMENT ON TABLE a IS "odd;name";
            ;
            """
        #expect(
            PostgresMigration.statements(in: sql) == [
                "CREATE TABLE a (x text DEFAULT 'it''s; here')",
                "CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1; $$",
                "CREATE FUNCTION g() RETURNS int LANGUAGE sql AS $body$ SELECT 2; $body$",
                #"COMMENT ON TABLE a IS "odd;name""#,
            ])
    }

    @Test func theShippedMigrationsSplitIntoWholeStatements() {
        for migration in PostgresMigration.all {
            let statements = PostgresMigration.statements(in: migration.sql)
            #expect(!statements.isEmpty)
            for statement in statements {
                #expect(!statement.contains("--"), "\(migration.fileName): a comment left in \(statement.prefix(40))")
                #expect(statement.first?.isLetter == true, "\(migration.fileName): \(statement.prefix(40))")
            }
        }
    }
}
