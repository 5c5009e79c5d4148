/// A scheduler on a simulated clock: time moves only in ``advance(by:)``, ``advance(to:)`` and
/// ``runUntilIdle(limit:)``, and work due at the same instant runs in scheduling order.
///
/// Two runs that schedule the same work see the same order and the same times, whatever the
/// machine is doing, which is what makes a virtual-time run replayable byte for byte.
public final class VirtualScheduler: Scheduler {
    public private(set) var now: Duration = .zero
    /// The work not run yet, one value: a turn, a schedule and a cancel are each one access.
    private var queue = TimerQueue()

    /// A scheduler at time zero with no work.
    public init() {}

    /// Work scheduled and not yet run or cancelled.
    public var pendingCount: Int { queue.live }

    /// When the next piece of work is due, if any.
    public var nextDeadline: Duration? {
        dropCancelledTop()
        return queue.firstDeadline
    }

    @discardableResult
    public func schedule(at deadline: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
        ScheduledWork(id: queue.insert(work, at: max(deadline, now)))
    }

    /// The work stays queued until its turn would have come, as it would have had it run then.
    public func cancel(_ work: ScheduledWork) {
        queue.cancel(work.id)
    }

    /// Runs everything due up to `now + delay`, moving the clock to each deadline in turn.
    public func advance(by delay: Duration) {
        advance(to: now + delay)
    }

    /// Runs everything due up to `deadline` (including work it schedules before then) and
    /// leaves the clock at `deadline`.
    public func advance(to deadline: Duration) {
        while true {
            dropCancelledTop()
            guard let (due, work) = queue.popDue(notAfter: deadline) else { break }
            now = max(now, due)
            work()
        }
        if deadline > now { now = deadline }
    }

    /// Runs work until none is left or `limit` pieces have run; returns how many ran.
    /// Time jumps to each deadline, so a run of timers finishes at once.
    @discardableResult
    public func runUntilIdle(limit: Int = 1_000_000) -> Int {
        var count = 0
        while count < limit {
            dropCancelledTop()
            guard let (due, work) = queue.popDue(notAfter: nil) else { break }
            now = max(now, due)
            work()
            count += 1
        }
        return count
    }

    /// Lets go of cancelled work at the top, one piece at a time and outside the queue's access
    /// (a deinit of something it held may schedule or cancel), when it would have run.
    private func dropCancelledTop() {
        while let dropped = queue.takeCancelledTop() {
            _ = dropped
        }
    }
}
