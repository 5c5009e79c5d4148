/// A scheduler on a simulated clock: time moves only in ``advance(by:)``, ``advance(to:)`` and
/// ``runUntilIdle(limit:)``, and work due at the same instant runs in scheduling order.
///
/// Two runs that schedule the same work see the same order and the same times, whatever the
/// machine is doing, which is what makes a virtual-time run replayable byte for byte.
public final class VirtualScheduler: Scheduler {
    public private(set) var now: Duration = .zero
    /// Deadlines, ids and slots only: sifting moves no closure (no retain or release per swap,
    /// which was a tenth of the scheduler's cost in the 100-client crowd hour).
    private var heap: [Entry] = []
    /// The work of each heap entry, by slot; a slot is reused once its work ran or was dropped.
    private var works: [(() -> Void)?] = []
    /// The id of the work each slot holds, 0 once it was cancelled (or the slot is free): a
    /// cancel is an array store and a turn an array load, where sets of ids hashed every id
    /// two to four times a turn (engines cancel a request's time-out on every answer).
    private var tickets: [UInt64] = []
    private var freeSlots: [Int] = []
    /// Work scheduled and not yet run or cancelled.
    private var live = 0
    private var sequence: UInt64 = 0

    /// A work's id: its sequence number above its slot, so ids order as the work was
    /// scheduled and a cancel finds the slot without a lookup. Sequence numbers start at 1, so
    /// no id is 0, and 2^40 of them are a thousand times what a crowd hour schedules.
    private static let slotBits: UInt64 = 24

    private struct Entry {
        var deadline: Duration
        var id: UInt64
        var slot: Int

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : id < other.id
        }
    }

    /// A scheduler at time zero with no work.
    public init() {}

    /// Work scheduled and not yet run or cancelled.
    public var pendingCount: Int { live }

    /// When the next piece of work is due, if any.
    public var nextDeadline: Duration? {
        dropCancelledTop()
        return heap.first?.deadline
    }

    @discardableResult
    public func schedule(at deadline: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
        sequence += 1
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = works.count
            precondition(UInt64(slot) < 1 << Self.slotBits, "more than 2^24 pieces of work scheduled at once")
            works.append(nil)
            tickets.append(0)
        }
        let id = sequence << Self.slotBits | UInt64(slot)
        works[slot] = work
        tickets[slot] = id
        live += 1
        push(Entry(deadline: max(deadline, now), id: id, slot: slot))
        return ScheduledWork(id: id)
    }

    /// The work stays in its slot until its entry reaches the top of the heap, as it would
    /// have stayed had it run then.
    public func cancel(_ work: ScheduledWork) {
        let slot = Int(truncatingIfNeeded: work.id & (1 << Self.slotBits - 1))
        guard work.id != 0, slot < tickets.count, tickets[slot] == work.id else { return }
        tickets[slot] = 0
        live -= 1
    }

    /// Runs everything due up to `now + delay`, moving the clock to each deadline in turn.
    public func advance(by delay: Duration) {
        advance(to: now + delay)
    }

    /// Runs everything due up to `deadline` (including work it schedules before then) and
    /// leaves the clock at `deadline`.
    public func advance(to deadline: Duration) {
        while let next = nextDeadline, next <= deadline {
            runNext()
        }
        if deadline > now { now = deadline }
    }

    /// Runs work until none is left or `limit` pieces have run; returns how many ran.
    /// Time jumps to each deadline, so a run of timers finishes at once.
    @discardableResult
    public func runUntilIdle(limit: Int = 1_000_000) -> Int {
        var count = 0
        while count < limit, nextDeadline != nil {
            runNext()
            count += 1
        }
        return count
    }

    private func runNext() {
        let entry = pop()
        tickets[entry.slot] = 0
        live -= 1
        now = max(now, entry.deadline)
        take(entry.slot)?()
    }

    private func dropCancelledTop() {
        while let top = heap.first, tickets[top.slot] != top.id {
            take(pop().slot)
        }
    }

    /// The work in `slot`, freeing the slot.
    @discardableResult
    private func take(_ slot: Int) -> (() -> Void)? {
        let work = works[slot]
        works[slot] = nil
        freeSlots.append(slot)
        return work
    }

    private func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop() -> Entry {
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count, heap[left].precedes(heap[first]) { first = left }
            if right < heap.count, heap[right].precedes(heap[first]) { first = right }
            if first == parent { break }
            heap.swapAt(parent, first)
            parent = first
        }
        return top
    }
}
