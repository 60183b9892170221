import Foundation
import OpeningHours

/// What a search reads of one list, held in memory: each store's folded
/// text, coordinates, folded category, and opening hours with their zone,
/// by list position. Built in one pass over the list (``Catalog/search(_:)``
/// keeps it until the catalog changes), so that a search is a scan of a
/// few arrays and not a query per store.
package struct SearchSnapshot: Sendable {
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

    /// Builds a snapshot one store at a time, in list order, so that the
    /// list is never held whole.
    package struct Builder {
        /// The list's own zone, for stores without a `timezone`.
        private let defaultZone: TimeZone?
        private var text = TextIndex.Builder()
        private var latitudes: [Double] = [], longitudes: [Double] = [], categories: [String?] = []
        private var hours: [Int: StoreHours] = [:]
        /// What each attribute key seen is to the opening-time filter:
        /// the keys repeat from store to store, and folding one (Unicode
        /// whitespace, lowercasing) for every store cost more than the rest.
        private var keyColumns: [String: ScheduleColumns.Column?] = [:]

        /// A builder for a list whose stores without a `timezone` column
        /// keep their hours in `defaultZone` (the list's, by name).
        package init(defaultZone: String?) {
            self.defaultZone = defaultZone.flatMap(ScheduleColumns.zone(named:))
        }

        package mutating func append(_ store: Store) {
            let position = latitudes.count
            text.append([store.name, store.address, store.category])
            latitudes.append(store.latitude)
            longitudes.append(store.longitude)
            categories.append(store.category.map(SearchFolding.fold))
            // Read here, lazily, not stored apart: an import checks both
            // columns, but a catalog written before it did may hold hours
            // the catalog cannot read, or a zone it does not know; those
            // never match an opening time (as a store without hours).
            var expression: String?
            var zoneName: String?
            for (key, value) in store.attributes {
                let column: ScheduleColumns.Column?
                if let known = keyColumns[key] {
                    column = known
                } else {
                    column = ScheduleColumns.column(named: key)
                    // Bounded: JSON imports may name any keys.
                    if keyColumns.count < 1024 { keyColumns[key] = column }
                }
                switch column {
                case .hours where expression == nil: expression = value.stringValue
                case .zone: zoneName = value.stringValue
                default: break
                }
            }
            guard let expression, let parsed = try? OpeningHours(expression) else { return }
            let zone = zoneName.map(ScheduleColumns.zone(named:)) ?? defaultZone
            if let zone { hours[position] = StoreHours(hours: parsed, zone: zone) }
        }

        package func build() -> SearchSnapshot {
            SearchSnapshot(
                text: text.build(), latitudes: latitudes, longitudes: longitudes, categories: categories, hours: hours)
        }
    }
}
