import ArgumentParser
import CarouselJSON
import CatalogServing
import Foundation
import StoreCatalog

extension Carousel {
    /// `carousel search`: the stores of a list that match a text, a
    /// category, attribute values, an area and an opening time.
    struct Search: AsyncParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "search",
            abstract: "Search a list: text, category, attributes, near a point or in a box, open at a time.",
            discussion: """
                Every filter given must hold. --text matches any part of the name, address or \
                category, ignoring case and accents ("cafe" finds "Café"). With --near the stores \
                come nearest first; with --bbox nearest the box's centre first ("search this \
                area"); otherwise in list order. --open-at keeps the stores whose opening_hours \
                (or hours, 영업시간) say they are open at that instant on their own clock (their \
                timezone column). A page ends with the cursor of the next one.
                """
        )

        @OptionGroup var database: DatabaseOptions

        @Option(help: "The list to search.")
        var list: String

        @OptionGroup var filters: StoreFilterOptions

        @Option(parsing: .unconditional, help: "LAT,LNG: rank by distance from this point.", transform: CoordinateArgument.parse)
        var near: Coordinate?

        @Option(name: .customLong("within-km"), parsing: .unconditional, help: "With --near: only stores within this many kilometres.")
        var withinKm: Double?

        @Option(parsing: .unconditional, help: "S,W,N,E: only stores in this box, nearest its centre first.")
        var bbox: String?

        @Option(parsing: .unconditional, help: "How many stores a page holds, 1...1000.")
        var limit = 20

        @Option(help: "Where the page starts: the cursor a previous page ended with.")
        var cursor: String?

        @Flag(help: "Print {\"stores\": [...], \"next\": cursor}.")
        var json = false

        func validate() throws {
            _ = try makeSearch()
        }

        func run() async throws {
            let page = try await database.openEngine(access: .read).search(try makeSearch())
            let ranked = near != nil || bbox != nil
            if json {
                var text = "{\"stores\":["
                for (index, hit) in page.hits.enumerated() {
                    text += index == 0 ? "\n" : ",\n"
                    StoreOutput.appendJSON(hit.store, distanceMeters: hit.distanceMeters, to: &text)
                }
                text += page.hits.isEmpty ? "]" : "\n]"
                text += ",\"next\":" + (page.next.map { StoreJSON.quoted($0.description) } ?? "null") + "}"
                StandardOutput.shared.line(text)
                return
            }
            var output = StoreOutput(json: false, showsPositions: true, showsDistance: ranked)
            for hit in page.hits { output.write(hit.store, position: hit.position, distanceMeters: hit.distanceMeters) }
            output.finish()
            if let next = page.next { StandardOutput.shared.line("next page: --cursor \(next)") }
        }

        /// The search the flags describe, or a one-line reason naming the flag.
        func makeSearch() throws -> StoreSearch {
            if near != nil && bbox != nil { throw ValidationError("give --near or --bbox, not both") }
            if withinKm != nil && near == nil { throw ValidationError("--within-km goes with --near") }
            if let withinKm, !(withinKm.isFinite && withinKm >= 0) {
                throw ValidationError("--within-km must be a distance of 0 or more (got \(withinKm))")
            }
            guard (1...StoreSearch.maximumLimit).contains(limit) else {
                throw ValidationError("--limit must be 1...\(StoreSearch.maximumLimit) (got \(limit))")
            }
            let filter = try filters.filter()
            var area: StoreSearch.Area?
            if let near { area = .near(near, withinMeters: withinKm.map { $0 * 1000 }) }
            if let bbox { area = .box(try Self.box(bbox)) }
            let cursor = try self.cursor.map { text in
                guard let cursor = SearchCursor(text) else { throw ValidationError("--cursor is not a cursor a page printed (got '\(text)')") }
                return cursor
            }
            return StoreSearch(
                list: list, text: filter.text, category: filter.category, attributes: filter.attributes, area: area,
                openAt: filter.openAt, limit: limit, cursor: cursor)
        }

        /// `S,W,N,E` in degrees; west above east crosses the antimeridian.
        static func box(_ text: String) throws -> BoundingBox {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                .map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, let south = parts[0], let west = parts[1], let north = parts[2], let east = parts[3] else {
                throw ValidationError("--bbox takes S,W,N,E in degrees (got '\(text)')")
            }
            do {
                return try BoundingBox(south: south, west: west, north: north, east: east)
            } catch {
                throw ValidationError("--bbox: \(error)")
            }
        }

    }
}
