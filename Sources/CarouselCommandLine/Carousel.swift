import ArgumentParser

/// `carousel`: the command-line face of the map-synced store carousel.
///
/// Two binaries run it (``main(network:)``): `carousel`, and `carousel-net`
/// with the server and the PostgreSQL client (``NetworkFeatures``).
package struct Carousel: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "carousel",
        abstract: "Map-synced store carousel: store catalog, carousel engine and map sync.",
        discussion: """
            Stores live in a SQLite database: --db PATH, else $CAROUSEL_DB, else \
            $XDG_DATA_HOME/carousel/carousel.sqlite (or ~/.local/share/carousel/carousel.sqlite).
            Every command that prints results takes --json.
            Numbers may be negative as typed: --lat -33.86, --from -33.8688,151.2093.
            On failure: one line on stderr and an exit status by kind:
            \(ExitStatus.table)
            """,
        version: "0.1.0",
        subcommands: [
            Demo.self,
            Import.self, Export.self, Lists.self, Stores.self, Near.self, Bbox.self, Search.self, Info.self,
            Clusters.self, Tiles.self,
            Snap.self, Focus.self, Simulate.self, Camera.self, Serve.self, Sync.self, Tokens.self,
        ]
    )

    // `--db` may also come before the subcommand (`carousel --db X lists`):
    // ArgumentParser decodes every command on the path from the same parsed
    // arguments, so the subcommand's own DatabaseOptions sees it too.
    @OptionGroup var database: DatabaseOptions

    package init() {}
}
