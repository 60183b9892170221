import ArgumentParser
import CatalogServing
import Clustering
import StoreCatalog

extension Carousel {
    /// `carousel clusters`: a list's stores clustered as map markers, as
    /// mapbox/supercluster 8.0.1 clusters them, with a selected store never
    /// hidden in a cluster.
    struct Clusters: AsyncParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "clusters",
            abstract: "Print a list's store markers clustered for a map zoom and box.",
            discussion: """
                Three modes: the markers in a box (--zoom and --south/--west/--north/--east, \
                optionally --selected); the stores of one cluster (--leaves ID, --limit, --offset); \
                the zoom from which a store is never in a cluster (--uncluster-zoom INDEX). \
                Clusters are supercluster 8.0.1's (radius 40, extent 512, zooms 0-16, minPoints 2): \
                ids, counts and positions alike. The list's cluster index is built on its first \
                query and kept until the list changes. West greater than east crosses the antimeridian.
                """
        )

        /// Map zooms run 0...24 (MapLibre's range); above maxZoom + 1 (17)
        /// every store is its own marker.
        static let zooms = 0.0...24.0

        @OptionGroup var database: DatabaseOptions

        @Option(help: "The store list.") var list: String
        @Option(parsing: .unconditional, help: "Map zoom, 0...24 (fractions are floored).") var zoom: Double?
        @Option(parsing: .unconditional, help: "Southern edge (latitude).") var south: Double?
        @Option(parsing: .unconditional, help: "Western edge (longitude).") var west: Double?
        @Option(parsing: .unconditional, help: "Northern edge (latitude).") var north: Double?
        @Option(parsing: .unconditional, help: "Eastern edge (longitude).") var east: Double?
        @Option(parsing: .unconditional, help: "The selected store's list position: never hidden in a cluster.") var selected: Int?

        @Option(parsing: .unconditional, help: "Print the stores of this cluster id.") var leaves: Int?
        @Option(parsing: .unconditional, help: "With --leaves: how many stores.") var limit: Int?
        @Option(parsing: .unconditional, help: "With --leaves: how many stores to skip first.") var offset: Int?

        @Option(
            name: .customLong("uncluster-zoom"), parsing: .unconditional, help: "Print the zoom from which the store at this list position is in no cluster.")
        var unclusterZoom: Int?

        @Flag(help: "Print JSON.") var json = false

        private enum Mode {
            case markers(zoom: Double, box: BoundingBox)
            case leaves(Int)
            case unclusterZoom(Int)
        }

        func validate() throws {
            _ = try mode()
        }

        private func mode() throws -> Mode {
            let edges = [south, west, north, east]
            let modes = [zoom != nil || edges.contains { $0 != nil }, leaves != nil, unclusterZoom != nil]
            guard modes.filter({ $0 }).count == 1 else {
                throw ValidationError("give either --zoom with --south/--west/--north/--east, or --leaves ID, or --uncluster-zoom INDEX")
            }
            if (limit != nil || offset != nil) && leaves == nil {
                throw ValidationError("--limit and --offset go with --leaves")
            }
            if selected != nil && zoom == nil {
                throw ValidationError("--selected goes with --zoom and a box")
            }
            if let leaves {
                if let limit, limit < 1 { throw ValidationError("--limit must be at least 1 (got \(limit))") }
                if let offset, offset < 0 { throw ValidationError("--offset must be 0 or more (got \(offset))") }
                return .leaves(leaves)
            }
            if let unclusterZoom {
                guard unclusterZoom >= 0 else { throw ValidationError("--uncluster-zoom must be a list position, 0 or more (got \(unclusterZoom))") }
                return .unclusterZoom(unclusterZoom)
            }
            guard let zoom else { throw ValidationError("--zoom is required with a box") }
            guard Self.zooms.contains(zoom) else {
                throw ValidationError("--zoom must be a number in 0...24 (got \(zoom))")
            }
            guard let south, let west, let north, let east else {
                throw ValidationError("--south, --west, --north and --east are all required with --zoom")
            }
            if let selected, selected < 0 { throw ValidationError("--selected must be a list position, 0 or more (got \(selected))") }
            do {
                return .markers(zoom: zoom, box: try BoundingBox(south: south, west: west, north: north, east: east))
            } catch {
                throw ValidationError(error.description)
            }
        }

        func run() async throws {
            let catalog = try await database.openEngine(access: .read)
            do {
                switch try mode() {
                case let .markers(zoom, box):
                    let markers = try await catalog.clusters(
                        list: list, zoom: zoom, box: box, selected: selected, options: ClusterOptions())
                    print(ClusterOutput(markers).render(json: json))
                case let .leaves(id):
                    let stores = try await catalog.clusterLeaves(
                        list: list, cluster: id, limit: limit ?? 10, offset: offset ?? 0, options: ClusterOptions())
                    print(ClusterOutput(stores).render(json: json))
                case let .unclusterZoom(index):
                    let zoom = try await catalog.unclusterZoom(list: list, position: index, options: ClusterOptions())
                    print(json ? "{\"index\":\(index),\"unclusterZoom\":\(zoom)}" : "store \(index) is in no cluster from zoom \(zoom)")
                }
            } catch let error as ClusterError {
                if case .corruptData = error { throw CLIError(error.description, status: .badData) }
                throw CLIError(error.description)
            }
        }
    }
}
