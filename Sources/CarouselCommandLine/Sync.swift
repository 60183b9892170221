import ArgumentParser
import Foundation
import StoreCatalog

extension Carousel {
    /// `carousel sync --from URL --list NAME [--token T]`: a server's list
    /// brought into `--db` by delta sync (CatalogSync). Run by
    /// `carousel-net`, which links the HTTP client (``NetworkFeatures``).
    package struct Sync: ParsableCommand, ParsableCommandWithCatalog {
        package static let configuration = CommandConfiguration.subcommand(
            commandName: "sync",
            abstract: "Bring a list up to date from a carousel server: only what changed since the last sync.",
            discussion: """
                The first sync downloads the list in pages; later ones the stores added, changed or \
                removed since. Each page is applied with its cursor in one transaction: an interrupted \
                sync resumes where it stopped. The local list changes only once the sync is complete \
                and its checksum is the server's. Progress shows on a terminal; the last line says what \
                changed.
                """
        )

        package init() {}

        @OptionGroup package var database: DatabaseOptions

        @Option(name: .customLong("from"), help: ArgumentHelp("The server's base URL (http or https).", valueName: "url"))
        package var from: String

        @Option(name: .customLong("list"), help: ArgumentHelp("The list, on the server and here.", valueName: "name"))
        package var list: String

        @Option(help: ArgumentHelp("A read token of the server (Env: CAROUSEL_TOKEN).", valueName: "token"))
        package var token: String?

        @Option(name: .customLong("page-size"), help: ArgumentHelp("Changes per page (1...10000).", valueName: "n"))
        package var pageSize = 5_000

        package func validate() throws {
            guard let url = URL(string: from), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                url.host != nil
            else { throw ValidationError("--from must be an http:// or https:// URL (got '\(from.prefix(80))')") }
            guard (1...10_000).contains(pageSize) else { throw ValidationError("--page-size must be in 1...10000 (got \(pageSize))") }
            guard !list.allSatisfy(\.isWhitespace) else { throw ValidationError("--list must not be blank") }
            if DatabaseOptions.isPostgresURL(try database.resolvedPath()) {
                throw ValidationError("carousel sync writes a SQLite catalog (a device's copy); --db names a PostgreSQL one")
            }
        }

        /// The token: `--token`, else `$CAROUSEL_TOKEN`.
        package var resolvedToken: String? {
            token ?? ProcessInfo.processInfo.environment["CAROUSEL_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        }

        package func run() throws {
            try Carousel.requireNetwork().sync(self)
        }

        /// The summary line: what changed, how much was read, how long it took.
        package static func summary(
            list: String, from: String, added: Int, changed: Int, removed: Int, bytes: Int, pages: Int, seconds: Double
        ) -> String {
            "synced '\(list)' from \(from): \(added) added, \(changed) changed, \(removed) removed, "
                + "\(Info.size(bytes)) in \(pages) page\(pages == 1 ? "" : "s") (\(String(format: "%.2f", seconds)) s)"
        }

        /// The progress line of a sync, on a terminal only.
        package static func showProgress(changes: Int, bytes: Int) {
            ProgressLine().show("\(changes) changes · \(Info.size(bytes))", fraction: 0)
        }

        package static func endProgress() {
            ProgressLine().finish()
        }
    }
}
