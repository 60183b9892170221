import Geo

/// The view model's read-only view of a store list, in carousel order: how
/// many stores, and the pin at a position.
///
/// A protocol so that map sync knows nothing of where stores live (SQLite,
/// a network page, an array). The view model looks a store up only when its
/// index is emitted — after debounce and distinct — never per frame, so a
/// lookup may cost a database query.
public protocol StoreDirectory: Sendable {
    /// The number of stores; positions run `0..<count`.
    var count: Int { get }

    /// The pin of the store at `index` (in `0..<count`). May throw when the
    /// storage behind it fails.
    func pin(at index: Int) throws -> StorePin

    /// The position of the store with id `id`, or nil when the list does
    /// not hold it. Called once per
    /// ``MapSyncViewModel/reload(_:layout:keepingFocusOn:)``, never per frame.
    ///
    /// The default looks at every pin in order; a directory with an index
    /// (a database) should answer from it.
    func index(ofStore id: String) throws -> Int?

    /// The app's words for store `index` in an accessibility status
    /// (a `StatusTemplate`'s `{name}`, `{hours}`, `{distance}`), looked up
    /// once per status, never per frame. The default gives none: `{name}`
    /// then says the store's id.
    func statusDetails(at index: Int) throws -> StoreStatusDetails
}

extension StoreDirectory {
    /// Looks at every pin in order: O(count) lookups.
    public func index(ofStore id: String) throws -> Int? {
        for index in 0..<count where try pin(at: index).id == id {
            return index
        }
        return nil
    }
}
