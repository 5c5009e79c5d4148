import LowbandShaper
import Synchronization

/// Collects the shaper decisions worth showing live — loss stalls, outages, radio wake-ups, and
/// the `queue` stretches ``QueueWatch`` works out from enqueues and deliveries — while somebody
/// watches the proxy's events, and counts stalls and outages always. The shaper calls it inside its own calls, so it
/// only stores; the engine drains it afterwards and publishes the events.
final class ShaperObserver: ShaperTraceSink {
    /// Kinds the proxy's own events do not already show.
    /// Compared one by one: the shaper reports every enqueue and delivery here, and five
    /// string comparisons cost less than hashing the kind's name each time.
    static let forwarded: [ShaperEvent.Kind] = [.lossStall, .outageStart, .outageEnd, .wakeup, .natExpired]
    /// Kept between drains at most; a drain happens after every socket event and timer.
    static let capacity = 4096

    /// The link's own counts, kept whether or not anybody watches: `/stats` and `/metrics`.
    struct Counts: Sendable {
        var lossStalls = 0
        var lossStallTime: Duration = .zero
        var outages: [String: Int] = [:]
    }

    private let broadcast: ProxyEventBroadcast
    private let pending = Mutex<[ShaperEvent]>([])
    private let counted = Mutex(Counts())
    /// How long bytes wait in the link's queue, worked out while somebody watches.
    private let queues = Mutex(QueueWatch())
    /// Whether ``queues`` holds anything: without a watcher it is emptied once, then left alone.
    private let tracking = Atomic<Bool>(false)
    /// Kinds the queue watch reads.
    static let queueKinds: [ShaperEvent.Kind] = [.enqueue, .deliver, .close, .reset, .link]

    /// What the link has done so far, across profile switches (the new shaper reports here too).
    var counts: Counts { counted.withLock { $0 } }

    init(broadcast: ProxyEventBroadcast) {
        self.broadcast = broadcast
    }

    func record(_ event: ShaperEvent) {
        if Self.queueKinds.contains(event.kind) {
            watchQueues(event)
            return
        }
        guard Self.forwarded.contains(event.kind) else { return }
        if event.kind == .lossStall || event.kind == .outageStart {
            counted.withLock { counts in
                if event.kind == .lossStall {
                    counts.lossStalls += 1
                    counts.lossStallTime += event.delay ?? .zero
                } else {
                    counts.outages[event.detail ?? "outage", default: 0] += 1
                }
            }
        }
        guard broadcast.hasSubscribers else { return }
        pending.withLock { pending in
            if pending.count < Self.capacity { pending.append(event) }
        }
    }

    private func watchQueues(_ event: ShaperEvent) {
        guard broadcast.hasSubscribers else {
            if tracking.exchange(false, ordering: .relaxed) { queues.withLock { $0.reset() } }
            return
        }
        tracking.store(true, ordering: .relaxed)
        let done = queues.withLock { $0.note(event) }
        guard !done.isEmpty else { return }
        pending.withLock { pending in
            for event in done where pending.count < Self.capacity { pending.append(event) }
        }
    }

    func drain() -> [ShaperEvent] {
        pending.withLock { pending in
            // Nothing pending (nobody watching): no copy. Otherwise the array is handed over
            // whole; emptying a shared array in place would allocate a new one.
            guard !pending.isEmpty else { return [] }
            var taken: [ShaperEvent] = []
            swap(&taken, &pending)
            return taken
        }
    }
}
