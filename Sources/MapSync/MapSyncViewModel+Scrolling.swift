import CarouselEngine

extension MapSyncViewModel {
    /// The scroll view moved to `offset`: what an app calls from
    /// `scrollViewDidScroll`, with `contentOffset.x` (or `.y` for a vertical
    /// carousel). The view model derives the frame from the loaded layout,
    /// publishes the cards and feeds the focus to the debounce, as
    /// ``frame(_:)`` does with a frame the app built.
    ///
    /// The frame it derives (and returns):
    /// - the focused item is the one whose anchor is nearest the viewport's,
    ///   `clamp(round(offset / page), 0, itemCount − 1)`, never the last
    ///   visible one;
    /// - the direction compares the offset with the previous one: forward
    ///   when it grew, backward when it shrank (the usual "last offset against
    ///   the current one" of a scroll view delegate); in a right-to-left
    ///   layout, where `offset` is the flipped flow layout's `contentOffset.x`
    ///   and shrinks toward later cards, forward is still toward later cards
    ///   (the engine's logical direction);
    /// - in loop mode, an offset past the padding is moved to its twin by
    ///   `CarouselLayout.loopJumpTarget(for:)`: the frame's
    ///   `Frame.jump` is set and its `Frame.offset` is where the app must
    ///   put the scroll view now, without animation. The focused store does
    ///   not change across a jump, and the next report from there is not a
    ///   move.
    ///
    /// The frame's time is the scheduler's `now`. Its `Frame.isSettled` is
    /// false: an offset alone cannot tell a resting carousel from a moving
    /// one, and nothing in the view model reads it.
    ///
    /// - Returns: the derived frame, or nil when no list is loaded.
    /// - Throws: ``MapSyncError/nonFiniteOffset(_:)`` for NaN or infinity.
    @discardableResult
    public func scrolled(to offset: Double) throws(MapSyncError) -> Frame? {
        guard offset.isFinite else { throw .nonFiniteOffset(offset) }
        let now = scheduler.now
        let derived = state.withLock { state -> Frame? in
            guard let layout = state.session?.layout else { return nil }
            var previous = state.offset
            var current = offset
            var jump: Frame.Jump?
            if let target = layout.loopJumpTarget(for: offset) {
                // The previous offset moves with the jump, so that the
                // direction compares like with like.
                previous += target - offset
                current = target
                jump = Frame.Jump(from: offset, to: target)
            }
            // Logical offsets: forward is toward later cards in either direction.
            let before = layout.logicalOffset(previous), after = layout.logicalOffset(current)
            return Frame(
                time: now, offset: current,
                index: layout.focusedItem(at: current), dataIndex: layout.focusedDataIndex(at: current),
                direction: before < after ? .forward : before > after ? .backward : .none,
                jump: jump, isSettled: false)
        }
        guard let derived else { return nil }
        frame(derived)
        return derived
    }

}
