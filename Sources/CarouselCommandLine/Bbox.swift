import ArgumentParser
import CatalogServing
import StoreCatalog

extension Carousel {
    /// `carousel bbox`: the stores in a latitude/longitude box.
    struct Bbox: AsyncParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "bbox",
            abstract: "Print the stores inside a bounding box.",
            discussion: "West greater than east means the box crosses the antimeridian (longitude ±180)."
        )

        @OptionGroup var database: DatabaseOptions

        @Option(parsing: .unconditional, help: "Southern edge (latitude).") var south: Double
        @Option(parsing: .unconditional, help: "Western edge (longitude).") var west: Double
        @Option(parsing: .unconditional, help: "Northern edge (latitude).") var north: Double
        @Option(parsing: .unconditional, help: "Eastern edge (longitude).") var east: Double

        @Option(help: "Only stores of this list.")
        var list: String?

        @Flag(help: "Print a JSON array of stores.")
        var json = false

        func validate() throws {
            _ = try box()
        }

        private func box() throws -> BoundingBox {
            do {
                return try BoundingBox(south: south, west: west, north: north, east: east)
            } catch {
                throw ValidationError(error.description)
            }
        }

        func run() async throws {
            let stores = try await database.openEngine(access: .read).stores(in: box(), list: list)
            StoreOutput.print(stores, json: json)
        }
    }
}
