import ArgumentParser
import CatalogServing
import StoreCatalog

extension Carousel {
    /// `carousel near`: the stores nearest a point.
    struct Near: AsyncParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "near",
            abstract: "Print the stores nearest a point, by great-circle distance.",
            discussion: "JSON output adds distanceMeters to each store."
        )

        @OptionGroup var database: DatabaseOptions

        @Option(parsing: .unconditional, help: "Latitude of the point, -90...90.")
        var lat: Double

        @Option(parsing: .unconditional, help: "Longitude of the point, -180...180.")
        var lng: Double

        @Option(parsing: .unconditional, help: "How many stores at most.")
        var limit = 10

        @Option(name: .customLong("within-km"), parsing: .unconditional, help: "Only stores within this many kilometres.")
        var withinKm: Double?

        @Option(help: "Only stores of this list.")
        var list: String?

        @Flag(help: "Print a JSON array of stores.")
        var json = false

        func validate() throws {
            guard Coordinate(latitude: lat, longitude: lng).isValid else {
                throw ValidationError("--lat must be in -90...90 and --lng in -180...180 (got \(lat), \(lng))")
            }
            guard limit > 0 else {
                throw ValidationError(limit < 0 ? "--limit cannot be negative (got \(limit))" : "--limit must be at least 1 (got \(limit))")
            }
            if let withinKm, !(withinKm.isFinite && withinKm >= 0) {
                throw ValidationError("--within-km must be a distance of 0 or more (got \(withinKm))")
            }
        }

        func run() async throws {
            let found = try await database.openEngine(access: .read).nearest(
                to: Coordinate(latitude: lat, longitude: lng), limit: limit,
                withinMeters: withinKm.map { $0 * 1000 }, list: list)
            StoreOutput.print(found, json: json)
        }
    }
}
