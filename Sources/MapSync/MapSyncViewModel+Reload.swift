import CarouselEngine

extension MapSyncViewModel {
    /// Shows a new version of the list — refreshed, filtered, re-sorted —
    /// while keeping the store with id `id` in focus.
    ///
    /// - The store is still in the list (at the same or another position):
    ///   the carousel rests on its card, and the camera does not move when it
    ///   is the store the map already shows; only its marker is selected in
    ///   the new list (`previousIndex` nil: the new list's first selection).
    /// - The store is gone: the carousel rests on the nearest position — the
    ///   one the focused card had, or the last card of a shorter list — and
    ///   the camera and marker go there at once, as ``load(_:layout:focusedIndex:)``
    ///   does.
    /// - The new list is empty: nothing is emitted.
    ///
    /// A value pending in the old list's debounce is dropped, and distinct is
    /// seeded with the new focused index.
    ///
    /// - Returns: where the app puts the reloaded carousel, without animation
    ///   (`setContentOffset(command.targetOffset, animated: false)` after
    ///   `reloadData()`); nil for an empty list.
    /// - Throws: ``MapSyncError/layoutCountMismatch(layoutCount:storeCount:)``,
    ///   or what the directory throws when looking `id` up.
    @discardableResult
    public func reload(_ stores: some StoreDirectory, layout: CarouselLayout, keepingFocusOn id: String) throws -> ScrollCommand? {
        let count = stores.count
        guard layout.dataCount == count else {
            throw MapSyncError.layoutCountMismatch(layoutCount: layout.dataCount, storeCount: count)
        }
        let (old, offset) = state.withLock { ($0.session, $0.offset) }
        let found = try stores.index(ofStore: id)
        guard count > 0 else {
            start(Session(stores: stores, layout: layout), focusedIndex: 0)
            return nil
        }
        let index: Int
        let session: Session
        if let found {
            index = found
            let onMap = old?.selectedStoreId.withLock { $0 } == id
            session = Session(stores: stores, layout: layout, keeping: onMap ? (found, id) : nil)
            if onMap, let old {
                // The map has not moved: the next camera starts from where it is.
                let viewpoint = old.viewpoint.withLock { $0 }
                session.viewpoint.withLock { $0 = viewpoint }
            }
        } else {
            // The focused card's position in the old list, clamped to the new one.
            let previous = old?.layout.focusedDataIndex(at: offset) ?? 0
            index = min(previous, count - 1)
            session = Session(stores: stores, layout: layout)
        }
        start(session, focusedIndex: index)
        let item = layout.firstDataItem + index
        return ScrollCommand(index: item, dataIndex: index, targetOffset: layout.rest(item), animated: false)
    }

    /// Shows a new version of the list keeping the store in focus now in
    /// focus: the one whose card the carousel rests on, or is heading for
    /// after a tap or a page turn. As ``reload(_:layout:keepingFocusOn:)``
    /// with that store's id, read at this call: what a screen calls after a
    /// sync or a refresh that ran while the user kept swiping. Before any
    /// list was loaded (or after an empty one), as
    /// ``load(_:layout:focusedIndex:)`` at the first store.
    ///
    /// - Returns: as ``reload(_:layout:keepingFocusOn:)``.
    /// - Throws: as ``reload(_:layout:keepingFocusOn:)``, or what the old
    ///   directory throws when looking the focused store up.
    @discardableResult
    public func reload(_ stores: some StoreDirectory, layout: CarouselLayout) throws -> ScrollCommand? {
        if let id = try focusedStoreId() {
            return try reload(stores, layout: layout, keepingFocusOn: id)
        }
        try load(stores, layout: layout, focusedIndex: 0)
        guard stores.count > 0 else { return nil }
        let item = layout.firstDataItem
        return ScrollCommand(index: item, dataIndex: 0, targetOffset: layout.rest(item), animated: false)
    }

    /// The id of the store whose card is in focus (or that a commanded
    /// scroll is heading for); nil before a list, or in an empty one.
    func focusedStoreId() throws -> String? {
        let (session, item) = state.withLock { state in (state.session, state.session.flatMap { state.pagingItem(in: $0.layout) }) }
        guard let session, let item, session.count > 0 else { return nil }
        return try session.stores.pin(at: session.layout.dataIndex(ofItem: item)).id
    }
}
