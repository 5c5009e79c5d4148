/// The work a ``VirtualScheduler`` has not run yet: a binary heap of deadlines and ids, and the
/// work of each entry by slot.
///
/// A value, so that each of the scheduler's turns is one access to it: kept as the class's own
/// stored properties, every access to them paid the runtime's dynamic exclusivity check (each
/// turn calls unknown work, so the compiler cannot prove them apart), 1.3 % of the 100-client
/// crowd hour's simulation thread.
struct TimerQueue {
    /// Deadlines and ids only: sifting moves no closure (no retain or release per move, which
    /// was a tenth of the scheduler's cost in the 100-client crowd hour). An id names its slot.
    private var heap: [Entry] = []
    /// Each heap entry's work and the id it holds, by slot, side by side so that a turn and a
    /// cancel touch one place; a slot is reused once its work ran or was dropped.
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// Work scheduled and not yet run or cancelled.
    private(set) var live = 0
    private var sequence: UInt64 = 0

    /// A work's id: its sequence number above its slot, so ids order as the work was
    /// scheduled and a cancel finds the slot without a lookup. Sequence numbers start at 1, so
    /// no id is 0, and 2^40 of them are a thousand times what a crowd hour schedules.
    private static let slotBits: UInt64 = 24
    private static let slotMask: UInt64 = 1 << slotBits - 1
    /// What a free slot holds: a function without a context, so storing it counts no reference.
    private static let idle: @Sendable () -> Void = {}

    private struct Entry {
        var deadline: Duration
        var id: UInt64

        var slot: Int { Int(truncatingIfNeeded: id & TimerQueue.slotMask) }

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : id < other.id
        }
    }

    /// The work in a slot and the id of that work: 0 once it was cancelled (or the slot is
    /// free), so a cancel is one store and a turn one load, where sets of ids hashed every id
    /// two to four times a turn (engines cancel a request's time-out on every answer).
    private struct Slot {
        var ticket: UInt64
        var work: () -> Void
    }

    /// Adds `work` due at `deadline`; returns its id (never 0).
    mutating func insert(_ work: @escaping () -> Void, at deadline: Duration) -> UInt64 {
        sequence += 1
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = slots.count
            precondition(UInt64(slot) < 1 << Self.slotBits, "more than 2^24 pieces of work scheduled at once")
            slots.append(Slot(ticket: 0, work: Self.idle))
        }
        let id = sequence << Self.slotBits | UInt64(slot)
        slots[slot] = Slot(ticket: id, work: work)
        live += 1
        push(Entry(deadline: deadline, id: id))
        return id
    }

    /// The work stays in its slot until its entry reaches the top of the heap, as it would
    /// have stayed had it run then.
    mutating func cancel(_ id: UInt64) {
        let slot = Int(truncatingIfNeeded: id & Self.slotMask)
        guard id != 0, slot < slots.count, slots[slot].ticket == id else { return }
        slots[slot].ticket = 0
        live -= 1
    }

    /// The deadline of the heap's top entry, cancelled or not (drop those first with
    /// ``takeCancelledTop()``).
    var firstDeadline: Duration? { heap.first?.deadline }

    /// Takes out the top entry's work if that work was cancelled. The caller lets it go after
    /// this access ends: what the work held may go with it, and a deinit may use the scheduler.
    mutating func takeCancelledTop() -> (() -> Void)? {
        guard let top = heap.first, slots[top.slot].ticket != top.id else { return nil }
        return take(pop().slot)
    }

    /// The top entry's work and deadline, taken out, if it is due at or before `limit` (any,
    /// without a limit). The top must not be cancelled (see ``takeCancelledTop()``).
    mutating func popDue(notAfter limit: Duration?) -> (deadline: Duration, work: () -> Void)? {
        guard let top = heap.first else { return nil }
        if let limit, top.deadline > limit { return nil }
        let entry = pop()
        live -= 1
        return (entry.deadline, take(entry.slot))
    }

    /// The work in `slot`, freeing the slot.
    private mutating func take(_ slot: Int) -> () -> Void {
        let work = slots[slot].work
        slots[slot] = Slot(ticket: 0, work: Self.idle)
        freeSlots.append(slot)
        return work
    }

    /// Sifts a hole up from the end and writes `entry` once where it belongs, instead of
    /// swapping at every level.
    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        heap.withUnsafeMutableBufferPointer { heap in
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard entry.precedes(heap[parent]) else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = entry
        }
    }

    /// Takes the top; the last entry sinks from the top through a hole to where it belongs.
    private mutating func pop() -> Entry {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return last }
        return heap.withUnsafeMutableBufferPointer { heap in
            let top = heap[0]
            let count = heap.count
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < count else { break }
                let right = left + 1
                let first = right < count && heap[right].precedes(heap[left]) ? right : left
                guard heap[first].precedes(last) else { break }
                heap[parent] = heap[first]
                parent = first
            }
            heap[parent] = last
            return top
        }
    }
}
