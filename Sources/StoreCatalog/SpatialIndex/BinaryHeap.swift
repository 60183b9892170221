/// The two moves of a binary heap kept in an array, for the nearest
/// searches' queues: the candidates kept (a max-heap, the worst on top),
/// the nodes waiting (a min-heap, the nearest on top). `isAbove(a, b)` says
/// that `a` belongs nearer the top than `b`; element `i`'s children are
/// `2i + 1` and `2i + 2` (Williams, "Algorithm 232: Heapsort", CACM 1964).
extension Array {
    /// Moves the last element up to its place.
    @inline(__always)
    mutating func siftUpLast(_ isAbove: (Element, Element) -> Bool) {
        var child = count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard isAbove(self[child], self[parent]) else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    /// Moves the first element down to its place.
    @inline(__always)
    mutating func siftDownFirst(_ isAbove: (Element, Element) -> Bool) {
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var top = parent
            if left < count, isAbove(self[left], self[top]) { top = left }
            if right < count, isAbove(self[right], self[top]) { top = right }
            guard top != parent else { return }
            swapAt(parent, top)
            parent = top
        }
    }
}
