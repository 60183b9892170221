import CatalogServing
import Foundation
import Locks
import StoreCatalog

/// What `carousel` does over a network: serve (`carousel serve`), and open
/// a catalog at a `postgres://` URL.
///
/// Why they are apart from the rest of the commands: the `carousel`
/// binary links neither, and so starts faster. A Swift process looks up
/// each new (type, protocol) pair it meets — ArgumentParser's reflection
/// over a command meets about fifty — by scanning every protocol
/// conformance record in the binary. The server and PostgreSQL stacks
/// (SwiftNIO, Hummingbird, postgres-nio) are 3,336 of the 10,353 records
/// of a binary with everything; without them, and linked as a static
/// executable (no shared library to load and relocate), a cold
/// `carousel focus` went from 5.1 to 3.5 ms, 2.7× `sqlite3` answering the
/// same row (docs/benchmarks/2026-11-27.md, "Start-up: two binaries").
///
/// `carousel` parses every command line as before. One that needs these
/// features is handed whole to `carousel-net` (``NetworkCompanion``), the
/// same commands linked with both, which sets them before it runs.
package protocol NetworkFeatures: Sendable {
    /// Opens the PostgreSQL + PostGIS catalog at `url` (a `postgres://` or
    /// `postgresql://` URL), with at most `maxConnections` connections.
    func openPostgres(url: String, access: Catalog.Access, maxConnections: Int?) async throws -> any ServingCatalog

    /// `url` with its password masked, safe in messages; throws the
    /// one-line error of a URL that does not parse.
    func describe(url: String) throws -> String

    /// Runs `carousel serve` until it is stopped.
    func serve(_ command: Carousel.Serve) throws

    /// Runs `carousel sync`: the HTTP client is linked here, with the
    /// server's stack (Foundation's URLSession on Linux is libcurl).
    func sync(_ command: Carousel.Sync) throws

    /// What an error only these features throw says to the user; nil for
    /// any other error.
    func report(_ error: any Error) -> ErrorReport?
}

extension Carousel {
    /// This binary's network features: nil in `carousel`, set by
    /// `carousel-net`'s `main` before it parses anything.
    package static var network: (any NetworkFeatures)? {
        get { networkFeatures.withLock { $0 } }
        set { networkFeatures.withLock { $0 = newValue } }
    }

    /// ``network``, or an error for a line that should have gone to
    /// `carousel-net` (``needsNetwork(_:)`` missed it).
    static func requireNetwork() throws -> any NetworkFeatures {
        guard let network else {
            throw CLIError("this command needs \(NetworkCompanion.name): run it with that binary", status: .io)
        }
        return network
    }

    /// Whether `command` needs ``NetworkFeatures``: it serves, or the
    /// catalog it names (`--db`, else `$CAROUSEL_DB`) is a PostgreSQL URL.
    static func needsNetwork(_ command: any ParsableCommandWithCatalog) -> Bool {
        if command is Serve || command is Sync { return true }
        guard let path = try? command.database.resolvedPath() else { return false }
        return DatabaseOptions.isPostgresURL(path)
    }
}

private let networkFeatures = StateLock<(any NetworkFeatures)?>(nil)

/// A command that opens the catalog `--db` names: what decides whether
/// `carousel` hands the command line to `carousel-net`.
protocol ParsableCommandWithCatalog {
    var database: DatabaseOptions { get }
}

/// `carousel-net`, the binary beside `carousel` that has the
/// ``NetworkFeatures``.
enum NetworkCompanion {
    /// The companion's file name; `scripts/install` puts it beside
    /// `carousel`, as `swift build` does.
    static let name = "carousel-net"

    /// Replaces this process with `carousel-net` and the same arguments;
    /// returns only by throwing, when it cannot be started.
    static func run(arguments: [String]) throws -> Never {
        let path = companionPath()
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(path, &argv)
        let reason = String(cString: strerror(errno))
        throw CLIError(
            "serving and PostgreSQL catalogs need \(name) beside this binary (\(path): \(reason)); install both with scripts/install",
            status: .io)
    }

    /// `carousel-net` in the folder of the running executable.
    static func companionPath() -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(name).path
    }
}
