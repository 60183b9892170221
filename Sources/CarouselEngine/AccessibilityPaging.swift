/// Which way an assistive technology pages the carousel, in logical terms:
/// `next` is always the next store (index + 1), whatever the layout
/// direction.
///
/// VoiceOver's three-finger swipe arrives as `accessibilityScroll(_:)` and
/// the adjustable trait's swipe up and down as `accessibilityIncrement()` and
/// `accessibilityDecrement()` (UIKit); SwiftUI has `accessibilityScrollAction`
/// and `accessibilityAdjustableAction`, TalkBack
/// `ACTION_SCROLL_FORWARD` / `ACTION_SCROLL_BACKWARD`. Each is one page: an
/// app maps increment and forward to ``next``, decrement and backward to
/// ``previous``, and a physical left or right to one of them by its layout
/// direction (in right-to-left, the page to the left is the next one).
public enum AccessibilityScrollDirection: String, CaseIterable, Hashable, Sendable {
    case next
    case previous

    /// +1 for next, −1 for previous.
    public var step: Int { self == .next ? 1 : -1 }
}

/// One accessibility page action: where the carousel goes, or that it was
/// at an end.
public struct AccessibilityPageTurn: Hashable, Sendable {
    /// The data index the carousel shows after the action: the next or
    /// previous store, or, at an end, the one it already showed.
    public let dataIndex: Int
    /// The scroll made; nil at an end, where nothing moves (UIKit's
    /// `accessibilityScroll(_:)` returns false then, and the status is
    /// spoken again).
    public let command: ScrollCommand?

    public init(dataIndex: Int, command: ScrollCommand?) {
        self.dataIndex = dataIndex
        self.command = command
    }

    /// True when the carousel was at an end and did not move.
    public var isAtEnd: Bool { command == nil }
}

extension CarouselLayout {
    /// The laid-out item one page from `item` in `direction`, or nil at an
    /// end (never in loop mode, where a page past the last store is its
    /// twin of the first: the loop wraps). The item may lie outside
    /// `0..<itemCount` in loop mode when `item` is at the edge of the loop
    /// band; ``CarouselScroller/accessibilityScroll(_:animated:at:)`` jumps
    /// to the twin first in that case.
    public func accessibilityTarget(from item: Int, _ direction: AccessibilityScrollDirection) -> Int? {
        guard itemCount > 0, (0..<itemCount).contains(item) else { return nil }
        let target = item + direction.step
        if loop != nil { return target }
        return (0..<itemCount).contains(target) ? target : nil
    }
}

extension CarouselScroller {
    /// An assistive technology pages the carousel one store in `direction`
    /// from the focused one: a scroll (animated with the ease-in-out curve,
    /// or at once under reduced motion) to the next or previous item; in
    /// loop mode past either end to the twin, so it wraps; without a loop,
    /// at an end, nothing moves and the answer says so.
    ///
    /// Like ``scroll(toItem:animated:at:)`` it cancels any motion and ends
    /// any drag. Logical in both layout directions: `next` is index + 1.
    public mutating func accessibilityScroll(
        _ direction: AccessibilityScrollDirection, animated: Bool, at t: Double
    ) throws(ScrollError) -> AccessibilityPageTurn {
        guard let item = try focusedItemAfterAdvancing(to: t) else {
            throw .itemOutOfRange(index: 0, dataCount: 0)
        }
        guard var target = layout.accessibilityTarget(from: item, direction) else {
            return AccessibilityPageTurn(dataIndex: layout.dataIndex(ofItem: item), command: nil)
        }
        if let loop = layout.loop, !(0..<layout.itemCount).contains(target) {
            // At the band's edge (loop padding 1): jump silently to the twin
            // one period back (or on), then page from there, as the infinite
            // banner's jump would have once the offset passed the edge.
            let periods = target < 0 ? 1 : -1
            shiftByLoopPeriods(periods)
            target += periods * loop.dataCount
        }
        let command = scroll(toLaidOutItem: target, animated: animated)
        return AccessibilityPageTurn(dataIndex: command.dataIndex, command: command)
    }

    /// The status a screen reader speaks for the page focused now, or nil
    /// for an empty carousel: `template` with `{position}` and `{count}`
    /// filled in, and `{name}` and `{id}` as the data index (the engine knows
    /// no stores; the view model fills them in).
    public func accessibilityStatus(_ template: StatusTemplate = .standard) -> String? {
        guard let index = focusedDataIndex else { return nil }
        return template.status([
            .position: String(index + 1), .count: String(layout.dataCount),
            .name: String(index), .id: String(index),
        ])
    }
}
