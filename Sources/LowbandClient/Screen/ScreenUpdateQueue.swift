package import LowbandDeterminism

/// The chat screen's serial queue of list updates: the stand-in for the UI's main thread.
///
/// Each update runs alone, on a scheduler turn of its own (or, through
/// ``runOrEnqueue(_:_:)`` on an idle queue, at once): it may hold the queue for an animation
/// (returning its length) and the next update starts only when that animation has finished,
/// so a page inserted at the top and a message added at the bottom never interleave, and no
/// update sees the list mid-animation. Updates only change the in-memory list; decoding,
/// compression and database work happen before an update is enqueued, off this queue. An
/// update that takes longer than the frame budget (by the injected ``WorkClock``) counts as a
/// dropped frame.
public final class ScreenUpdateQueue {
    /// One update: changes the list and returns how long its animation holds the queue.
    public typealias Update = () -> Duration

    /// What the queue has run, for tests and reports.
    public struct Metrics: Hashable, Sendable {
        /// Updates run.
        public var updates = 0
        /// Updates whose work took longer than the frame budget.
        public var droppedFrames = 0
        /// The longest work of one update, by the ``WorkClock`` (animations not included).
        public var longestUpdate: Duration = .zero
        /// Most updates waiting at once.
        public var deepestBacklog = 0
    }

    /// What the queue has run so far.
    public private(set) var metrics = Metrics()
    /// Update work longer than this counts as a dropped frame.
    public let frameBudget: Duration
    private let scheduler: any Scheduler
    private let clock: any WorkClock
    private var waiting: [(name: String, update: Update)] = []
    private var head = 0
    private var busy = false

    package init(scheduler: any Scheduler, clock: any WorkClock, frameBudget: Duration = .milliseconds(16)) {
        self.scheduler = scheduler
        self.clock = clock
        self.frameBudget = frameBudget
    }

    /// Updates waiting, not counting one running or animating.
    public var backlog: Int { waiting.count - head }

    /// True while an update runs or its animation holds the queue.
    public var isBusy: Bool { busy }

    /// Queues `update` (named for logs) to run alone on a later scheduler turn, after every
    /// update before it and its animation; runs it on the next turn when the queue is idle.
    public func enqueue(_ name: String, _ update: @escaping Update) {
        waiting.append((name, update))
        metrics.deepestBacklog = max(metrics.deepestBacklog, backlog)
        if !busy { runNext() }
    }

    /// Runs `update` in the caller's turn when the queue is idle (nothing running, animating or
    /// waiting), else queues it as ``enqueue(_:_:)`` does. For a live message: the engine shows
    /// it before it writes it to the cache, so the row does not wait for the cache's commit
    /// (``ClientEngine``'s push handling).
    public func runOrEnqueue(_ name: String, _ update: @escaping Update) {
        guard !busy else { return enqueue(name, update) }
        busy = true
        run(update)
    }

    private func runNext() {
        guard head < waiting.count else {
            waiting.removeAll(keepingCapacity: true)
            head = 0
            busy = false
            return
        }
        busy = true
        let next = waiting[head].update
        head += 1
        scheduler.execute { [weak self] in self?.run(next) }
    }

    /// Runs one update while the queue is busy, then holds the queue for its animation.
    private func run(_ update: Update) {
        let start = clock.now
        let animation = update()
        let took = clock.now - start
        metrics.updates += 1
        metrics.longestUpdate = max(metrics.longestUpdate, took)
        if took > frameBudget { metrics.droppedFrames += 1 }
        if animation > .zero {
            scheduler.schedule(after: animation) { [weak self] in self?.runNext() }
        } else {
            runNext()
        }
    }
}
