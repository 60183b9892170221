extension CarouselLayout {
    /// Where a drag released at `offset` with `velocity` comes to rest: the projection, the snap rule's target and the kind of motion.
    ///
    /// - Parameters:
    ///   - offset: `x`, the offset at release.
    ///   - velocity: `v`, in points per millisecond, positive as the offset
    ///     grows (toward later items in left-to-right, earlier ones in
    ///     right-to-left, as UIKit's `scrollViewWillEndDragging` reports it).
    ///   - dragStart: the offset when the drag began; its focused item is the
    ///     `start` of `single`, its page the start page of `page`.
    ///
    /// In right-to-left the rules run on the mirrored release (offsets
    /// `maxOffset − x`, velocity `−v`) and the answer's offsets are mirrored
    /// back: the same item, the left-to-right target seen in a mirror.
    public func release(at offset: Double, velocity: Double, dragStart: Double) throws(LayoutError) -> Release {
        try LayoutError.requireFinite(offset, "offset")
        try LayoutError.requireFinite(velocity, "velocity")
        // A billion points per ms: past that the projection `v·d / (1 − d)`
        // can overflow to infinity for a rate near 1.
        guard abs(velocity) <= Self.maxVelocity else {
            throw LayoutError("velocity", "must be within ±\(LayoutError.format(Self.maxVelocity)) points per ms", velocity)
        }
        try LayoutError.requireFinite(dragStart, "dragStart")
        let logical = checkedRelease(
            at: logicalOffset(offset), velocity: logicalDelta(velocity), dragStart: logicalOffset(dragStart))
        return platformRelease(logical)
    }

    /// A logical release in the engine's offsets: projection and target
    /// mirrored in right-to-left, the item and motion kind unchanged (a
    /// mirror keeps "toward the target" and "against the fling").
    func platformRelease(_ release: Release) -> Release {
        guard isMirrored else { return release }
        return Release(
            projected: logicalOffset(release.projected), targetOffset: logicalOffset(release.targetOffset),
            index: release.index, dataIndex: release.dataIndex, motion: release.motion)
    }

    /// The fastest release ``release(at:velocity:dragStart:)`` takes: 10⁹
    /// points per ms, far past any finger.
    public static let maxVelocity = 1e9

    /// ``release(at:velocity:dragStart:)`` for inputs already known finite,
    /// in the logical (left-to-right) frame.
    func checkedRelease(at x: Double, velocity v: Double, dragStart: Double) -> Release {
        guard isScrollEnabled else {
            // No scrolling at all: the content stays where it is.
            let rest = clampedOffset(x)
            return makeRelease(projected: x, target: rest, item: focusedItem(atLogical: rest), from: x, velocity: 0)
        }
        let p = deceleration.projectedOffset(from: x, velocity: v)
        guard itemCount > 0 else {
            return makeRelease(projected: p, target: 0, item: nil, from: x, velocity: v)
        }
        switch snap {
        case .free:
            let target = clampedOffset(p)
            return makeRelease(projected: p, target: target, item: focusedItem(atLogical: target), from: x, velocity: v)
        case .page:
            // Pages of the viewport length, at most one from the start page (UIKit paging).
            let startPage = (dragStart / viewport).rounded()
            let k = min(max((p / viewport).rounded(), startPage - 1), startPage + 1)
            let target = clampedOffset(k * viewport)
            return makeRelease(projected: p, target: target, item: focusedItem(atLogical: target), from: x, velocity: v)
        case .nearest, .directional, .velocity, .single:
            let item = snappedItem(projected: p, release: x, velocity: v, dragStart: dragStart)
            return makeRelease(projected: p, target: logicalRest(item), item: item, from: x, velocity: v)
        }
    }

    /// The item an index-based rule snaps to, clamped to the items.
    private func snappedItem(projected p: Double, release x: Double, velocity v: Double, dragStart: Double) -> Int {
        // The orthogonalScrollingBehavior article's recipe: ceil when travelling forward, floor backward, round when still.
        func directional() -> Double {
            let position = Self.position(p, per: page)
            return p > x ? position.rounded(.up) : p < x ? position.rounded(.down) : position.rounded()
        }
        switch snap {
        case .nearest:
            return clampedItem(p / page)
        case .directional:
            return clampedItem(directional())
        case .velocity:
            // The infinite-banner article: the release offset, rounded the way the finger went.
            let position = Self.position(x, per: page)
            return clampedItem(v > 0 ? position.rounded(.up) : v < 0 ? position.rounded(.down) : position.rounded())
        case .single:
            // The orthogonalScrollingBehavior article's isOneStepPaging: never more than one item from the start.
            let start = Double(focusedItem(atLogical: dragStart) ?? 0)
            return clampedItem(start + min(max(directional() - start, -1), 1))
        case .free, .page:
            preconditionFailure("\(snap) does not snap to an item")
        }
    }

    /// A release whose motion follows the engine's rule: decelerate when the target
    /// lies the way the velocity points (or nowhere to go when still),
    /// otherwise stop and animate (the Instagram-paging article's fix for the stutter when the
    /// target lies against the fling).
    private func makeRelease(projected: Double, target: Double, item: Int?, from x: Double, velocity v: Double) -> Release {
        let distance = target - x
        let against = v == 0 ? distance != 0 : distance * v < 0
        return Release(
            projected: projected,
            targetOffset: target,
            index: item,
            dataIndex: item.map(dataIndex(ofItem:)),
            motion: against ? .animate : .decelerate
        )
    }

    /// `value / unit`, snapped to the whole number it is within 1e-9 of.
    ///
    /// A rest offset divided by the page is a whole number only up to
    /// rounding (`3 · 0.3 / 0.3` is `3.0000000000000004`), and `ceil`/`floor`
    /// would turn that error into a whole item.
    static func position(_ value: Double, per unit: Double) -> Double {
        let position = value / unit
        let whole = position.rounded()
        return abs(position - whole) <= 1e-9 * max(1, abs(whole)) ? whole : position
    }
}
