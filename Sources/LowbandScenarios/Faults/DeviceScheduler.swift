import LowbandDeterminism

/// The scheduler one client engine runs on: the run's scheduler as the phone sees it. Its
/// clock may be skewed, and the app may be suspended (the OS stops its timers and its reading;
/// what fell due runs, in order, when it resumes — an overdue heartbeat time-out included).
///
/// Without faults it is a transparent pass-through: same times, same order.
final class DeviceScheduler: Scheduler {
    let base: any Scheduler
    /// Added to the run's time to give the phone's.
    private(set) var skew: Duration = .zero
    private(set) var isSuspended = false
    private var deferred: [(handle: ScheduledWork, work: () -> Void)] = []

    init(base: any Scheduler) {
        self.base = base
    }

    var now: Duration { base.now + skew }

    @discardableResult
    func schedule(at deadline: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
        var handle = ScheduledWork(id: 0)
        handle = base.schedule(at: deadline - skew) { [weak self] in
            guard let self else { return }
            if self.isSuspended {
                self.deferred.append((handle, work))
            } else {
                work()
            }
        }
        return handle
    }

    func cancel(_ work: ScheduledWork) {
        base.cancel(work)
        deferred.removeAll { $0.handle == work }
    }

    /// The phone's clock jumps by `change` (NTP correction, a user setting the time).
    func skew(by change: Duration) {
        skew += change
    }

    /// The OS suspends the app: nothing of it runs until ``resume()``.
    func suspend() {
        isSuspended = true
    }

    /// The app runs again: what fell due meanwhile runs now, in the order it fell due.
    func resume() {
        guard isSuspended else { return }
        isSuspended = false
        var due = deferred[...]
        deferred = []
        while let item = due.popFirst() {
            item.work()
            if isSuspended {
                // Suspended again by what just ran: the rest waits, still first in line.
                deferred = Array(due) + deferred
                return
            }
        }
    }

    /// Drops what waits for a resume, and runs normally again: the app was killed.
    func discardSuspended() {
        deferred = []
        isSuspended = false
    }

    /// Work held while suspended (for the resource check).
    var deferredCount: Int { deferred.count }
}
