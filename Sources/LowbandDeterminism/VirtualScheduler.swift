/// A scheduler on a simulated clock: time moves only in ``advance(by:)``, ``advance(to:)`` and
/// ``runUntilIdle(limit:)``, and work due at the same instant runs in scheduling order.
///
/// Two runs that schedule the same work see the same order and the same times, whatever the
/// machine is doing, which is what makes a virtual-time run replayable byte for byte.
public final class VirtualScheduler: Scheduler {
    public private(set) var now: Duration = .zero
    /// Deadlines and ids only: sifting moves no closure (no retain or release per move, which
    /// was a tenth of the scheduler's cost in the 100-client crowd hour). An id names its slot.
    private var heap: [Entry] = []
    /// Each heap entry's work and the id it holds, by slot, side by side so that a turn and a
    /// cancel touch one place; a slot is reused once its work ran or was dropped.
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// Work scheduled and not yet run or cancelled.
    private var live = 0
    private var sequence: UInt64 = 0

    /// A work's id: its sequence number above its slot, so ids order as the work was
    /// scheduled and a cancel finds the slot without a lookup. Sequence numbers start at 1, so
    /// no id is 0, and 2^40 of them are a thousand times what a crowd hour schedules.
    private static let slotBits: UInt64 = 24
    private static let slotMask: UInt64 = 1 << slotBits - 1

    private struct Entry {
        var deadline: Duration
        var id: UInt64

        var slot: Int { Int(truncatingIfNeeded: id & VirtualScheduler.slotMask) }

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : id < other.id
        }
    }

    /// The work in a slot and the id of that work: 0 once it was cancelled (or the slot is
    /// free), so a cancel is one store and a turn one load, where sets of ids hashed every id
    /// two to four times a turn (engines cancel a request's time-out on every answer).
    private struct Slot {
        var ticket: UInt64 = 0
        var work: (() -> Void)?
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
            slot = slots.count
            precondition(UInt64(slot) < 1 << Self.slotBits, "more than 2^24 pieces of work scheduled at once")
            slots.append(Slot())
        }
        let id = sequence << Self.slotBits | UInt64(slot)
        slots[slot] = Slot(ticket: id, work: work)
        live += 1
        push(Entry(deadline: max(deadline, now), id: id))
        return ScheduledWork(id: id)
    }

    /// The work stays in its slot until its entry reaches the top of the heap, as it would
    /// have stayed had it run then.
    public func cancel(_ work: ScheduledWork) {
        let slot = Int(truncatingIfNeeded: work.id & Self.slotMask)
        guard work.id != 0, slot < slots.count, slots[slot].ticket == work.id else { return }
        slots[slot].ticket = 0
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
        live -= 1
        now = max(now, entry.deadline)
        take(entry.slot)?()
    }

    private func dropCancelledTop() {
        while let top = heap.first, slots[top.slot].ticket != top.id {
            take(pop().slot)
        }
    }

    /// The work in `slot`, freeing the slot.
    @discardableResult
    private func take(_ slot: Int) -> (() -> Void)? {
        let work = slots[slot].work.take()
        slots[slot].ticket = 0
        freeSlots.append(slot)
        return work
    }

    /// Sifts a hole up from the end and writes `entry` once where it belongs, instead of
    /// swapping at every level.
    private func push(_ entry: Entry) {
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
    private func pop() -> Entry {
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
