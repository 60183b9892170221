import Foundation
import OpeningHours

/// What a search reads of one list, held in memory: each store's folded
/// text, coordinates, folded category, and opening hours with their zone,
/// by list position. Built in one pass over the list (``Catalog/search(_:)``
/// keeps it until the catalog changes), so that a search is a scan of a
/// few arrays and not a query per store.
struct SearchSnapshot: Sendable {
    let text: TextIndex
    let latitudes: [Double]
    let longitudes: [Double]
    let categories: [String?]
    /// Only the stores that have hours (most lists have none).
    let hours: [Int: StoreHours]

    var count: Int { latitudes.count }

    /// A store's opening hours and the zone they are read in.
    struct StoreHours: Sendable {
        var hours: OpeningHours
        var zone: TimeZone
    }

    /// The attribute columns that hold opening hours, as an import names
    /// them (English, the OpenStreetMap key, Korean).
    static let hoursAttributes = ["opening_hours", "hours", "영업시간"]
    static let zoneAttribute = "timezone"

    /// Builds a snapshot one store at a time, in list order, so that the
    /// list is never held whole.
    struct Builder {
        private var text = TextIndex.Builder()
        private var latitudes: [Double] = [], longitudes: [Double] = [], categories: [String?] = []
        private var hours: [Int: StoreHours] = [:]

        mutating func append(_ store: Store) {
            let position = latitudes.count
            text.append([store.name, store.address, store.category])
            latitudes.append(store.latitude)
            longitudes.append(store.longitude)
            categories.append(store.category.map(SearchFolding.fold))
            // Hours the catalog cannot read, or in a zone it does not know,
            // never match an opening time (as a store without hours).
            if let expression = SearchSnapshot.hoursAttributes.lazy.compactMap({ store.attributes[$0] }).first,
                let parsed = try? OpeningHours(expression),
                let zone = store.attributes[SearchSnapshot.zoneAttribute].flatMap(TimeZone.init(identifier:))
            {
                hours[position] = StoreHours(hours: parsed, zone: zone)
            }
        }

        func build() -> SearchSnapshot {
            SearchSnapshot(
                text: text.build(), latitudes: latitudes, longitudes: longitudes, categories: categories, hours: hours)
        }
    }
}
