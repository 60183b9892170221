import ArgumentParser
import CatalogServing
import StoreCatalog

extension Carousel {
    /// `carousel stores --list NAME`: a list's stores in carousel order.
    struct Stores: AsyncParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "stores",
            abstract: "Print a list's stores in carousel order.",
            discussion: """
                --sort distance --from LAT,LNG prints them nearest first instead, with their distance. \
                --offset N skips the first N (after sorting) and --limit K prints at most K. Rows are \
                printed as they are read, so the first comes at once and memory stays flat at any \
                list size; a table sizes its columns from its first 200 rows and cuts longer names \
                with "…" (--json never cuts).
                """
        )

        enum Sort: String, ExpressibleByArgument, CaseIterable {
            case list, distance
        }

        @OptionGroup var database: DatabaseOptions

        @Option(help: "The list to print.")
        var list: String

        @Option(help: "The order: the list's own, or distance from --from.")
        var sort: Sort = .list

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The point to measure distances from.", valueName: "lat,lng"),
            transform: CoordinateArgument.parse)
        var from: Coordinate?

        @Option(parsing: .unconditional, help: ArgumentHelp("Print at most K stores.", valueName: "K"))
        var limit: Int?

        @Option(parsing: .unconditional, help: ArgumentHelp("Skip the first N stores.", valueName: "N"))
        var offset = 0

        @Flag(help: "Print a JSON array of stores.")
        var json = false

        func validate() throws {
            _ = try DistanceOrigin.check(from, required: sort == .distance, flag: "--sort distance")
            if let limit, limit < 0 { throw ValidationError("--limit cannot be negative (got \(limit))") }
            guard offset >= 0 else { throw ValidationError("--offset cannot be negative (got \(offset))") }
        }

        func run() async throws {
            let catalog = try await database.openEngine(access: .read)
            if let origin = try DistanceOrigin.check(from, required: sort == .distance, flag: "--sort distance") {
                try await printByDistance(catalog, from: origin)
                return
            }
            var output = StoreOutput(json: json, showsPositions: true)
            try await catalog.forEachStore(list: list, offset: offset, limit: limit) { position, store in
                output.write(store, position: position)
            }
            output.finish()
        }

        /// Nearest first: every store's distance is measured from its
        /// coordinates alone (16 bytes a store: 3.8 MB for 234,908), then the
        /// page is printed store by store, as it is looked up by position.
        private func printByDistance(_ catalog: any CatalogEngine, from origin: Coordinate) async throws {
            let meter = DistanceFrom(origin)
            var measured: [(distance: Double, position: Int32)] = []
            measured.reserveCapacity(try await catalog.count(list: list))
            try await catalog.forEachPin(list: list) { position, pin in
                measured.append((meter.meters(toLatitude: pin.latitude, longitude: pin.longitude), Int32(truncatingIfNeeded: position)))
            }
            // Stable: equal distances keep carousel order.
            measured.sort { ($0.distance, $0.position) < ($1.distance, $1.position) }
            let page = measured.dropFirst(offset).prefix(limit ?? measured.count)
            var output = StoreOutput(json: json, showsPositions: true, showsDistance: true)
            var distances = page.map(\.distance).makeIterator()
            try await catalog.forEachStore(list: list, at: page.lazy.map { Int($0.position) }) { position, store in
                output.write(store, position: position, distanceMeters: distances.next())
            }
            output.finish()
        }
    }
}

/// `--from LAT,LNG`, which a distance order needs and nothing else takes.
enum DistanceOrigin {
    /// The point, nil when absent and not `required`; a validation error when
    /// missing while required, or given without its `flag`.
    static func check(_ origin: Coordinate?, required: Bool, flag: String) throws -> Coordinate? {
        guard let origin else {
            if required { throw ValidationError("\(flag) needs --from LAT,LNG (e.g. --from 37.5665,126.978)") }
            return nil
        }
        guard required else { throw ValidationError("--from is only for \(flag)") }
        return origin
    }
}
