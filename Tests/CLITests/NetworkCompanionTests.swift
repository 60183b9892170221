import ArgumentParser
import CarouselServer
import Foundation
import TestSupport
import Testing

@testable import CarouselCommandLine

/// `carousel` and `carousel-net`: the first links SQLite catalogs alone and
/// hands every command line that serves or names a postgres:// catalog to
/// the second, which links the server and PostgreSQL.
@Suite("carousel and carousel-net")
struct NetworkCompanionTests {
    private func parsed(_ arguments: [String]) throws -> any ParsableCommandWithCatalog {
        try #require(try Carousel.parseAsRoot(arguments) as? any ParsableCommandWithCatalog)
    }

    @Test func serveAndPostgresCatalogsNeedTheNetworkAndNothingElseDoes() throws {
        #expect(Carousel.needsNetwork(try parsed(["serve", "--db", "/tmp/catalog.sqlite"])))
        #expect(Carousel.needsNetwork(try parsed(["lists", "--db", "postgres://me@db.example/stores"])))
        #expect(Carousel.needsNetwork(try parsed(["--db", "postgresql://me@db.example/stores", "near", "--list", "l", "--lat", "1", "--lng", "2"])))
        #expect(Carousel.needsNetwork(try parsed(["tokens", "list", "--db", "postgres://me@db.example/stores"])))
        #expect(!Carousel.needsNetwork(try parsed(["lists", "--db", "/tmp/catalog.sqlite"])))
        #expect(!Carousel.needsNetwork(try parsed(["focus", "--db", "/tmp/postgres://not-a-url", "--list", "l", "--offset", "0"])))
    }

    @Test func theCommandLineSaysWhatTheServerDefaultsTo() {
        // Written twice because `carousel` does not link the server: held equal here.
        #expect(Carousel.Serve.standardNearestInMemory == CarouselServer.standardNearestInMemoryEntries)
        #expect(ServeOptions.LogFormat.allCases.map(\.rawValue) == ServerOptions.LogFormat.allCases.map(\.rawValue))
    }

    @Test func carouselLinksNeitherTheServerNorPostgreSQL() throws {
        let carousel = try Data(contentsOf: CarouselProcess.executable, options: .alwaysMapped)
        let companion = try Data(
            contentsOf: Paths.productsDirectory.appendingPathComponent(NetworkCompanion.name), options: .alwaysMapped)
        for module in ["HummingbirdCore", "PostgresNIO", "NIOPosix", "CarouselServer"] {
            #expect(carousel.range(of: Data(module.utf8)) == nil, "carousel links \(module)")
            #expect(companion.range(of: Data(module.utf8)) != nil, "carousel-net lacks \(module)")
        }
    }

    @Test func withoutItsCompanionCarouselRunsEverythingButServingAndPostgreSQL() throws {
        let catalog = try SampleCatalog()
        let alone = try TemporaryDirectory()
        let copy = alone.path("carousel")
        try CarouselProcess.copyExecutable(to: copy)

        let focus = try CarouselProcess.run(["focus", "--db", catalog.db, "--list", "coffee", "--offset", "312", "--json"], executable: copy)
        #expect(focus.status == 0, "\(focus.stderr)")
        #expect(focus.stdout.hasPrefix(#"{"index":1,"#), "\(focus.stdout)")

        for arguments in [
            ["serve", "--db", catalog.db, "--port", "0"],
            ["lists", "--db", "postgres://me@127.0.0.1:1/stores"],
            ["lists"],
        ] {
            let environment = arguments == ["lists"] ? ["CAROUSEL_DB": "postgresql://me@127.0.0.1:1/stores"] : [:]
            let result = try CarouselProcess.run(arguments, executable: copy, environment: environment, timeout: 60)
            #expect(result.status == 74, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "Error: serving and PostgreSQL catalogs need carousel-net beside this binary "
                    + "(\(alone.path("carousel-net").path): No such file or directory); install both with scripts/install\n",
                "\(arguments)")
        }
    }

    @Test func carouselHandsTheWholeLineToItsCompanion() throws {
        // An invalid URL is only read by carousel-net: its message, as it was
        // before the two were apart, proves the line reached it.
        let result = try CarouselProcess.run(["--db", "postgres://a:secret@[::1", "lists"])
        #expect(result.status == 64)
        #expect(result.stderr == "Error: not a PostgreSQL URL: postgres://a:***@[::1: an IPv6 host has no closing ]\n")
    }
}
