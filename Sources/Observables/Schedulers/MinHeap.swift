/// An array-based binary min-heap: the virtual scheduler's queue.
///
/// `insert` and `removeMin` are O(log n) with no allocation once the array
/// has grown; the virtual scheduler pushes about a million actions through
/// it in the benchmark (BENCHMARKS.md).
package struct MinHeap<Element: Comparable> {
    private var storage: [Element] = []

    package init() {}

    package var isEmpty: Bool { storage.isEmpty }

    package var count: Int { storage.count }

    /// Whether any element satisfies `predicate`, in no particular order.
    package func contains(where predicate: (Element) -> Bool) -> Bool {
        storage.contains(where: predicate)
    }

    /// The smallest element, without removing it.
    package var min: Element? { storage.first }

    package mutating func insert(_ element: Element) {
        storage.append(element)
        siftUp(from: storage.count - 1)
    }

    /// Removes and returns the smallest element.
    @discardableResult
    package mutating func removeMin() -> Element? {
        guard let last = storage.popLast() else { return nil }
        guard !storage.isEmpty else { return last }
        let min = storage[0]
        storage[0] = last
        siftDown(from: 0)
        return min
    }

    /// Moves the element at `index` up until its parent is not larger.
    private mutating func siftUp(from index: Int) {
        var child = index
        let element = storage[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard element < storage[parent] else { break }
            storage[child] = storage[parent]
            child = parent
        }
        storage[child] = element
    }

    /// Moves the element at `index` down until no child is smaller.
    private mutating func siftDown(from index: Int) {
        var parent = index
        let element = storage[parent]
        let count = storage.count
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count, storage[child + 1] < storage[child] {
                child += 1
            }
            guard storage[child] < element else { break }
            storage[parent] = storage[child]
            parent = child
        }
        storage[parent] = element
    }
}
