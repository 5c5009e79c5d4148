/// A min-heap of timed events; equal times come out in the order they were scheduled, so the
/// shaper's decisions never depend on heap internals.
struct EventQueue<Event: Sendable>: Sendable {
    private struct Entry: Sendable {
        var time: Int64
        var order: UInt64
        var event: Event

        func precedes(_ other: Entry) -> Bool {
            time != other.time ? time < other.time : order < other.order
        }
    }

    private var heap: [Entry] = []
    private var scheduled: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    /// The time of the earliest event.
    var nextTime: Int64? { heap.first?.time }

    mutating func schedule(_ event: Event, at time: Int64) {
        heap.append(Entry(time: time, order: scheduled, event: event))
        scheduled += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest event if it is due by `time`.
    mutating func popFirst(dueBy time: Int64) -> (time: Int64, event: Event)? {
        guard let first = heap.first, first.time <= time else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].precedes(heap[smallest]) { smallest = left }
                if right < heap.count && heap[right].precedes(heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return (first.time, first.event)
    }
}

/// A first-in first-out queue with O(1) amortised push and pop.
struct FIFO<Element: Sendable>: Sendable {
    private var items: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }

    var first: Element? { isEmpty ? nil : items[head] }

    var count: Int { items.count - head }

    mutating func append(_ element: Element) { items.append(element) }

    mutating func popFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = items[head]
        head += 1
        if head >= 64 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return element
    }
}
