public import LowbandDeterminism
public import NIOCore

/// A `LowbandDeterminism/Scheduler` on a SwiftNIO event loop: the product's clock and timers.
///
/// `now` is the loop's clock (`EventLoop.now`, a monotonic `NIODeadline`) measured from when
/// the scheduler was made, so it starts at zero like a `LowbandDeterminism/VirtualScheduler`.
/// Work runs as scheduled tasks on the loop; a deadline in the past runs at once, and work due
/// at the same instant runs in scheduling order (NIO orders tasks by deadline, then by
/// insertion). The scheduler may be created and handed around anywhere (it is `Sendable`), but
/// `schedule` and `cancel` must be called on its loop, which is checked.
public final class EventLoopScheduler: Scheduler, Sendable {
    /// The loop every piece of work runs on.
    public let eventLoop: any EventLoop
    private let origin: NIODeadline
    private let state: NIOLoopBoundBox<State>

    private struct State {
        var nextID: UInt64 = 0
        var tasks: [UInt64: Scheduled<Void>] = [:]
    }

    /// A scheduler whose time zero is the loop's `now` at this call.
    public convenience init(eventLoop: any EventLoop) {
        self.init(eventLoop: eventLoop, origin: eventLoop.now)
    }

    /// A scheduler whose time zero is `origin` (a monotonic `NIODeadline`): clocks on several
    /// loops that share one zero tell the same time.
    public init(eventLoop: any EventLoop, origin: NIODeadline) {
        self.eventLoop = eventLoop
        self.origin = origin
        state = NIOLoopBoundBox.makeBoxSendingValue(State(), as: State.self, eventLoop: eventLoop)
    }

    public var now: Duration {
        Duration(eventLoop.now - origin)
    }

    /// Work scheduled and not yet run or cancelled. Call on the loop.
    public var pendingCount: Int {
        state.value.tasks.count
    }

    @discardableResult
    public func schedule(at deadline: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
        let id = state.withValue { state in
            state.nextID += 1
            return state.nextID
        }
        let due = origin + TimeAmount(max(deadline, now))
        let boundWork = NIOLoopBound(work, eventLoop: eventLoop)
        let state = self.state
        let task = eventLoop.scheduleTask(deadline: due) {
            state.value.tasks[id] = nil
            boundWork.value()
        }
        state.value.tasks[id] = task
        return ScheduledWork(id: id)
    }

    public func cancel(_ work: ScheduledWork) {
        if let task = state.value.tasks.removeValue(forKey: work.id) {
            task.cancel()
        }
    }
}
