import Foundation
import Geo
import OpeningHours

extension Catalog {
    /// A page of the stores of a list that match `search`, ranked by
    /// distance from its point (or its box's centre) when it has an area,
    /// else in list order; ties go to the earlier list position.
    ///
    /// The first search of a list reads the whole list once into memory
    /// (its text, coordinates, categories and hours); later searches reuse
    /// that until the catalog changes. Attribute filters read each candidate
    /// store, so they cost a lookup per store they are tried on.
    public func search(_ search: StoreSearch) throws -> SearchPage {
        try search.validate()
        return try self.search(search, over: try searchSnapshot(list: search.list))
    }

    /// ``search(_:)`` when the list's search snapshot is in memory and
    /// current; nil when the search would first read the whole list.
    package func searchIfSnapshotKept(_ search: StoreSearch) throws -> SearchPage? {
        try search.validate()
        return try keptSearchSnapshot(list: search.list).map { try self.search(search, over: $0) }
    }

    private func search(_ search: StoreSearch, over snapshot: SearchSnapshot) throws -> SearchPage {
        var run = SearchRun(search, over: snapshot)
        for candidate in run.ranked {
            guard run.offer(candidate, store: try store(list: search.list, at: candidate.position)) else { break }
        }
        return run.page
    }

    public func timeZone(list: String) throws -> String? {
        try read { db in
            guard let zone = try firstRow(db, "SELECT time_zone FROM lists WHERE name = ?", { $0.bind(list, at: 1) }, { $0.text(0) })
            else { throw CatalogError.listNotFound(list) }
            return zone
        }
    }

    /// The list's search snapshot, built on first use and kept while the
    /// catalog is unchanged: no commit by another connection (SQLite's
    /// `data_version`) and no row changed by this one (`total_changes()`).
    func searchSnapshot(list: String) throws -> SearchSnapshot {
        let version = try searchVersion()
        if let kept = searchSnapshots.snapshot(list: list, version: version) { return kept }
        var builder = SearchSnapshot.Builder(defaultZone: try timeZone(list: list))
        try forEachStore(list: list) { _, store in builder.append(store) }
        let snapshot = builder.build()
        searchSnapshots.keep(snapshot, list: list, version: version)
        return snapshot
    }

    /// The list's search snapshot if it is kept and current; nil when it
    /// would have to be read.
    func keptSearchSnapshot(list: String) throws -> SearchSnapshot? {
        searchSnapshots.snapshot(list: list, version: try searchVersion())
    }

    func searchVersion() throws -> SearchSnapshots.Version {
        try read { db in
            try firstRow(db, "SELECT (SELECT data_version FROM pragma_data_version), total_changes()", { _ in }) {
                SearchSnapshots.Version(data: $0.int64(0), changes: $0.int64(1))
            } ?? SearchSnapshots.Version(data: 0, changes: 0)
        }
    }
}

/// One search over a list's ``SearchSnapshot``, in both catalogs: the
/// filters the snapshot can judge (text, category, area, open at) and the
/// ranking give ``ranked``; the catalog then reads the store at each
/// candidate's position in turn and ``offer(_:store:)``s it, until the page
/// is full. The attribute filters need the whole store, hence the split.
package struct SearchRun {
    package typealias Candidate = (distance: Double?, position: Int)

    private let search: StoreSearch
    /// The candidates in rank order, past the cursor.
    package let ranked: [Candidate]
    private var hits: [SearchPage.Hit] = []
    private var hasMore = false

    package init(_ search: StoreSearch, over snapshot: SearchSnapshot) {
        self.search = search
        // The cheapest filters first: each pass only sees what the ones
        // before it kept.
        var candidates = search.text.map { snapshot.text.positions(containing: $0) } ?? Array(0..<snapshot.count)
        if let category = search.category.map(SearchFolding.fold) {
            candidates.removeAll { snapshot.categories[$0] != category }
        }
        var ranked: [Candidate]
        switch search.area {
        case let .near(origin, radius)?:
            let limit = radius.map { min($0, Haversine.maximumDistanceMeters) } ?? .infinity
            ranked = candidates.compactMap { position in
                let distance = Haversine.distance(origin, snapshot.coordinate(at: position))
                return distance <= limit ? (distance, position) : nil
            }
        case let .box(box)?:
            let centre = search.rankingOrigin!
            ranked = candidates.compactMap { position in
                let coordinate = snapshot.coordinate(at: position)
                return box.contains(coordinate) ? (Haversine.distance(centre, coordinate), position) : nil
            }
        case nil:
            ranked = candidates.map { (nil, $0) }
        }
        if let openAt = search.openAt {
            var clock = WallClock(instant: openAt)
            ranked.removeAll { candidate in
                guard let hours = snapshot.hours[candidate.position] else { return true }  // no hours: never open
                return !hours.hours.isOpen(at: clock.time(in: hours.zone))
            }
        }
        if search.area != nil {
            ranked.sort { ($0.distance ?? 0, $0.position) < ($1.distance ?? 0, $1.position) }
        }
        if let cursor = search.cursor {
            ranked.removeAll { ($0.distance ?? 0, $0.position) <= (cursor.distance ?? 0, cursor.position) }
        }
        self.ranked = ranked
    }

    /// Offers the store of a ranked candidate; false once the page is full
    /// (one more than the limit tells whether a next page exists).
    package mutating func offer(_ candidate: Candidate, store: Store) -> Bool {
        guard search.attributes.allSatisfy({ $0.matches(store.attributes[$0.name]) }) else { return true }
        if hits.count == search.limit {
            hasMore = true
            return false
        }
        hits.append(SearchPage.Hit(position: candidate.position, store: store, distanceMeters: candidate.distance))
        return true
    }

    /// The page, with the cursor of the next one if there is more.
    package var page: SearchPage {
        let next = hasMore ? hits.last.map { SearchCursor(distance: $0.distanceMeters, position: $0.position) } : nil
        return SearchPage(hits: hits, next: next)
    }
}

/// One instant on the wall clocks of many zones: a zone's clock is read
/// once per search, not once per store (Foundation's
/// `secondsFromGMT(for:)` walks the zone's transitions each time).
struct WallClock {
    let instant: Date
    private var times: [String: OpeningHours.LocalTime] = [:]

    init(instant: Date) { self.instant = instant }

    /// The instant on `zone`'s wall clock, as `OpeningHours` reads it.
    mutating func time(in zone: TimeZone) -> OpeningHours.LocalTime {
        if let known = times[zone.identifier] { return known }
        let time = OpeningHours.LocalTime(instant, in: zone)
        times[zone.identifier] = time
        return time
    }
}

extension SearchSnapshot {
    package func coordinate(at position: Int) -> Coordinate {
        Coordinate(latitude: latitudes[position], longitude: longitudes[position])
    }
}

/// The search snapshots a catalog keeps, one per list searched, each with
/// the catalog version it was built at.
final class SearchSnapshots: @unchecked Sendable {
    struct Version: Hashable {
        var data: Int64
        var changes: Int64
    }

    private let lock = NSLock()
    private var kept: [String: (version: Version, snapshot: SearchSnapshot)] = [:]

    func snapshot(list: String, version: Version) -> SearchSnapshot? {
        lock.withLock { kept[list].flatMap { $0.version == version ? $0.snapshot : nil } }
    }

    func keep(_ snapshot: SearchSnapshot, list: String, version: Version) {
        lock.withLock {
            // A version moved on makes every kept snapshot stale.
            kept = kept.filter { $0.value.version == version }
            kept[list] = (version, snapshot)
        }
    }
}
