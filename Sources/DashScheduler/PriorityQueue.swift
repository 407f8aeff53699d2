/// A binary min-heap: `push` and `popMin` are O(log n), `min` is O(1).
///
/// The scheduler keeps one live deadline per instance in it and reschedules by lazy
/// deletion: a new deadline is pushed with a new generation and the old one is skipped
/// when it surfaces.
public struct PriorityQueue<Element: Comparable> {
    @usableFromInline var storage: [Element] = []

    public init() {}

    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        storage = Array(elements)
        heapify()
    }

    @inlinable public var count: Int { storage.count }
    @inlinable public var isEmpty: Bool { storage.isEmpty }
    @inlinable public var min: Element? { storage.first }

    public mutating func reserveCapacity(_ n: Int) { storage.reserveCapacity(n) }

    @inlinable
    public mutating func push(_ element: Element) {
        storage.append(element)
        siftUp(storage.count - 1)
    }

    @inlinable
    @discardableResult
    public mutating func popMin() -> Element? {
        guard !storage.isEmpty else { return nil }
        if storage.count == 1 { return storage.removeLast() }
        let top = storage[0]
        storage[0] = storage.removeLast()
        siftDown(0)
        return top
    }

    /// Replaces the smallest element with `element` (one sift instead of a pop and a push).
    @inlinable
    public mutating func replaceMin(with element: Element) {
        guard !storage.isEmpty else {
            push(element)
            return
        }
        storage[0] = element
        siftDown(0)
    }

    public mutating func removeAll(keepingCapacity: Bool = true) {
        storage.removeAll(keepingCapacity: keepingCapacity)
    }

    /// The elements in no particular order.
    public var unordered: [Element] { storage }

    @inlinable
    mutating func siftUp(_ index: Int) {
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

    @inlinable
    mutating func siftDown(_ index: Int) {
        let n = storage.count
        var parent = index
        let element = storage[parent]
        while true {
            let left = 2 * parent + 1
            guard left < n else { break }
            let right = left + 1
            let child = right < n && storage[right] < storage[left] ? right : left
            guard storage[child] < element else { break }
            storage[parent] = storage[child]
            parent = child
        }
        storage[parent] = element
    }

    mutating func heapify() {
        guard storage.count > 1 else { return }
        for i in stride(from: storage.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
    }
}

extension PriorityQueue: Sendable where Element: Sendable {}
