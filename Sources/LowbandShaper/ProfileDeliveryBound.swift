extension NetworkProfile {
    /// The longest a message may take to cross this network and come back, on its worst stretch:
    /// twice the worst one-way delay with jitter, the longest retransmission stall, a full queue
    /// draining each way, the radio waking up and the slowest connect. Every checker's bounds
    /// start from it (docs/RUN.md, "Invariants"; docs/APP-EVENTS.md, "Bounds").
    public var worstDelivery: Duration {
        // The worst stretch of a timeline counts: a bound must hold in every segment.
        let segments = timeline?.segments ?? []
        let uplinks = [uplink] + segments.map(\.uplink)
        let downlinks = [downlink] + segments.map(\.downlink)
        let links = uplinks + downlinks
        let oneWay = links.map { $0.delay + $0.jitter.amount }.max() ?? .zero
        let worstStall = links.filter { $0.loss.rate > 0 }.map(\.loss.maximumRTO).max() ?? .zero
        let drain = (uplinks.map { Self.drain($0, queue: uplink.queueBytes) }.max() ?? .zero)
            + (downlinks.map { Self.drain($0, queue: downlink.queueBytes) }.max() ?? .zero)
        let wake = radio?.longestPromotion ?? wakeUp?.delay.upperBound ?? .zero
        return oneWay * 2 + worstStall + drain + wake + connectDelay.upperBound
    }

    /// The time a full queue of `queue` bytes takes to leave at the link's rate.
    private static func drain(_ link: LinkProfile, queue: Int) -> Duration {
        let bitsPerSecond: Double
        switch link.rate {
        case .bitsPerSecond(let rate): bitsPerSecond = Double(rate)
        case .unlimited: return .zero
        case .trace(let trace): bitsPerSecond = trace.averageBitsPerSecond
        }
        guard bitsPerSecond > 0 else { return .zero }
        return .nanoseconds(Int64(min(Double(queue) * 8 / bitsPerSecond, 3600) * 1e9))
    }
}
