import ArgumentParser
import Clustering
import Foundation
import StoreCatalog
import VectorTiles

extension Carousel {
    /// `carousel tiles`: map tiles of a list's markers, one (``One``, the
    /// default) or all of them into an archive (``Export``).
    struct Tiles: ParsableCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "tiles",
            abstract: "Map tiles of a list's markers: one tile, or every tile into an MBTiles or PMTiles file.",
            subcommands: [One.self, Export.self], defaultSubcommand: One.self)
    }
}

extension Carousel.Tiles {
    /// `carousel tiles --list L --zoom Z --x X --y Y [--selected P] --output F`:
    /// one map tile of a list's markers, the bytes `GET
    /// /lists/{name}/tiles/{z}/{x}/{y}.mvt` answers.
    struct One: AsyncParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration(
            commandName: "tile",
            abstract: "Write one map tile of a list's markers as a Mapbox Vector Tile (the default).",
            discussion: """
                The tile z/x/y (XYZ scheme: x from the antimeridian eastwards, y from the north) holds \
                one layer, stores: supercluster 8.0.1's clusters of the list (getTile, extent 4096, \
                the cluster radius as buffer), with cluster, cluster_id, point_count, \
                point_count_abbreviated and expansion_zoom, and the stores outside any cluster with \
                id, name and category (and the attributes --properties names). --selected keeps that \
                store (a list position) out of every cluster; --text, --category, --where and --open-at \
                cluster only the matching stores. The file appears only once complete; an empty tile \
                is an empty file.
                """
        )

        @OptionGroup var database: DatabaseOptions

        @Option(help: "The store list.") var list: String
        @Option(parsing: .unconditional, help: "The tile's zoom, 0...22.") var zoom: Int
        @Option(parsing: .unconditional, help: "The tile's column, 0...2^zoom - 1.") var x: Int
        @Option(parsing: .unconditional, help: "The tile's row, 0...2^zoom - 1.") var y: Int
        @Option(parsing: .unconditional, help: "The selected store's list position: never hidden in a cluster.") var selected: Int?
        @OptionGroup(title: "Which stores the tile clusters") var filters: StoreFilterOptions
        @OptionGroup var properties: TilePropertiesOption
        @Option(name: [.short, .long], help: ArgumentHelp("The file to write (a FIFO or device is written in place).", valueName: "file"))
        var output: String

        /// MapLibre's deepest zoom, as the server's tile route takes.
        static let zooms = 0...22

        func validate() throws {
            guard Self.zooms.contains(zoom) else { throw ValidationError("--zoom must be in 0...22 (got \(zoom))") }
            let size = 1 << zoom
            guard (0..<size).contains(x) else { throw ValidationError("--x must be in 0...\(size - 1) at zoom \(zoom) (got \(x))") }
            guard (0..<size).contains(y) else { throw ValidationError("--y must be in 0...\(size - 1) at zoom \(zoom) (got \(y))") }
            if let selected, selected < 0 { throw ValidationError("--selected must be a list position, 0 or more (got \(selected))") }
            _ = try filters.filter()
            _ = try properties.names()
        }

        func run() async throws {
            let catalog = try await database.openEngine(access: .read)
            let features = try await catalog.clusterTile(
                list: list, zoom: zoom, x: x, y: y, selected: selected, filter: try filters.filter(), options: ClusterOptions())
            let bytes = features.isEmpty ? [] : VectorTile.stores(features, properties: try properties.names()).encoded()
            try await OutputPath.write(output) { file in
                bytes.withUnsafeBufferPointer { file.write(bytes: $0) }
            }
        }
    }
}
