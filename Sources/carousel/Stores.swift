import ArgumentParser
import StoreCatalog

extension Carousel {
    /// `carousel stores --list NAME`: a list's stores in carousel order.
    struct Stores: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stores",
            abstract: "Print a list's stores in carousel order.",
            discussion: "--sort distance --from LAT,LNG prints them nearest first instead, with their distance."
        )

        enum Sort: String, ExpressibleByArgument, CaseIterable {
            case list, distance
        }

        @OptionGroup var database: DatabaseOptions

        @Option(help: "The list to print.")
        var list: String

        @Option(help: "The order: the list's own, or distance from --from.")
        var sort: Sort = .list

        @Option(help: ArgumentHelp("The point to measure distances from.", valueName: "lat,lng"))
        var from: String?

        @Flag(help: "Print a JSON array of stores.")
        var json = false

        func validate() throws {
            _ = try DistanceOrigin.parse(from, required: sort == .distance, flag: "--sort distance")
        }

        func run() throws {
            let stores = try database.openCatalogForReading().stores(list: list)
            guard let origin = try DistanceOrigin.parse(from, required: sort == .distance, flag: "--sort distance") else {
                StoreOutput(stores, showsPositions: true).print(json: json)
                return
            }
            // Stable: equal distances keep carousel order.
            let measured = stores.enumerated()
                .map { (position: $0, found: StoreDistance(store: $1, distanceMeters: Haversine.distance(origin, $1.coordinate))) }
                .sorted { ($0.found.distanceMeters, $0.position) < ($1.found.distanceMeters, $1.position) }
            StoreOutput(measured.map(\.found)).print(json: json)
        }
    }
}

/// `--from LAT,LNG`, which a distance order needs and nothing else takes.
enum DistanceOrigin {
    /// The point, nil when absent and not `required`; a validation error when
    /// malformed, missing while required, or given without its `flag`.
    static func parse(_ text: String?, required: Bool, flag: String) throws -> Coordinate? {
        guard let text else {
            if required { throw ValidationError("\(flag) needs --from LAT,LNG (e.g. --from 37.5665,126.978)") }
            return nil
        }
        guard required else { throw ValidationError("--from is only for \(flag)") }
        guard let origin = Coordinate(parsing: text) else {
            throw ValidationError("--from '\(text)' is not LAT,LNG with latitude in -90...90 and longitude in -180...180")
        }
        return origin
    }
}
