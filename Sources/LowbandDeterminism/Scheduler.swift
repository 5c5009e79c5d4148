/// Where logic runs and timers fire: the seam for time.
///
/// Every timer in the server and the client engine (request timeouts, heartbeats, back-off,
/// retries) is scheduled here, never on the wall clock. In the product a scheduler is backed by
/// a SwiftNIO event loop; in tests and in virtual-time runs it is a ``VirtualScheduler`` that
/// moves only when told to, so a run replays exactly. A scheduler is used from one thread (its
/// event loop, or the test's) and is deliberately not `Sendable`.
public protocol Scheduler: AnyObject {
    /// Time since the scheduler started.
    var now: Duration { get }

    /// Runs `work` at `deadline` (at once if it has passed). Work due at the same instant runs
    /// in the order it was scheduled.
    @discardableResult
    func schedule(at deadline: Duration, _ work: @escaping () -> Void) -> ScheduledWork

    /// Stops `work` from running if it has not run yet.
    func cancel(_ work: ScheduledWork)
}

extension Scheduler {
    /// Runs `work` after `delay` from now.
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
        schedule(at: now + delay, work)
    }

    /// Runs `work` on the scheduler's next turn, after what is already due.
    @discardableResult
    public func execute(_ work: @escaping () -> Void) -> ScheduledWork {
        schedule(at: now, work)
    }
}

/// A handle to scheduled work, for cancelling it.
public struct ScheduledWork: Hashable, Sendable {
    /// Identifies the work in its scheduler.
    public let id: UInt64
    /// A handle for the work numbered `id`; schedulers make these.
    public init(id: UInt64) { self.id = id }
}
