import LowbandShaper
import Synchronization

/// Collects the shaper decisions worth showing live — loss stalls, outages, radio wake-ups —
/// while somebody watches the proxy's events. The shaper calls it inside its own calls, so it
/// only stores; the engine drains it afterwards and publishes the events.
final class ShaperObserver: ShaperTraceSink {
    /// Kinds the proxy's own events do not already show.
    /// Compared one by one: the shaper reports every enqueue and delivery here, and four
    /// string comparisons cost less than hashing the kind's name each time.
    static let forwarded: [ShaperEvent.Kind] = [.lossStall, .outageStart, .outageEnd, .wakeup]
    /// Kept between drains at most; a drain happens after every socket event and timer.
    static let capacity = 4096

    private let broadcast: ProxyEventBroadcast
    private let pending = Mutex<[ShaperEvent]>([])

    init(broadcast: ProxyEventBroadcast) {
        self.broadcast = broadcast
    }

    func record(_ event: ShaperEvent) {
        guard Self.forwarded.contains(event.kind), broadcast.hasSubscribers else { return }
        pending.withLock { pending in
            if pending.count < Self.capacity { pending.append(event) }
        }
    }

    func drain() -> [ShaperEvent] {
        pending.withLock { pending in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
    }
}
