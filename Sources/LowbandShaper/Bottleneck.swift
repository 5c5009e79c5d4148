/// The shared bottleneck of one direction: the device's queue and the rate that drains it.
///
/// Connections with bytes waiting take turns, one piece (up to the MTU) each, round-robin.
/// A piece's transmission time follows the rate in force (exact across timeline boundaries),
/// pauses during outages, and for a Mahimahi trace is the next unused delivery opportunity.
/// This is a token bucket one piece deep: idle time is not saved up for later bursts.
struct Bottleneck: Sendable {
    let direction: Direction
    let timeline: LinkTimeline
    /// The drop-tail limit; at or above it `submit` returns false.
    let queueLimit: Int
    /// The largest piece's payload: the MSS (the MTU less the headers), or everything a
    /// connection has queued when no phase of the direction limits the rate or loses pieces
    /// (cutting would only multiply the work).
    let pieceLimit: Int
    /// Acknowledgements owed and not yet sent ahead of the data, bytes on the air.
    var acknowledgementBytes = 0
    /// Bytes accepted and not yet sent on (waiting, being sent, or stalled by a loss).
    var occupancy = 0
    /// Connections with bytes waiting to be sent, in turn order.
    var turns = FIFO<ConnectionID>()
    /// Connections told to stop reading, in the order they were told.
    var paused: [ConnectionID] = []
    /// A piece is being sent.
    var busy = false
    /// A `.ready` wake-up is pending (after an outage or a radio wake-up).
    var waitingUntil: Int64?
    /// Per timeline phase with a trace, the next unused delivery opportunity.
    private var traceCursors: [Int64]

    init(profile: NetworkProfile, direction: Direction) {
        self.direction = direction
        timeline = LinkTimeline(profile: profile, direction: direction)
        queueLimit = profile.link(direction).queueBytes
        pieceLimit = timeline.isUnlimitedAndLossless ? .max : profile.maximumSegmentPayload
        traceCursors = Array(repeating: 0, count: timeline.phaseCount)
    }

    /// Below this the paused connections are told to resume: half the queue, so a resumed
    /// reader has room for a few chunks before it is paused again.
    var resumeThreshold: Int { queueLimit / 2 }

    /// When a piece of `bytes` whose transmission starts at `start` has left the bottleneck;
    /// nil when that never happens (an outage that lasts forever).
    mutating func transmissionEnd(startingAt start: Int64, bytes: Int, outages: inout Outages) -> Int64? {
        var time = start
        // Work left in bit·ns per second: at `rate` bit/s, `rate × Δns` of it is done in Δns.
        var work = Int64(bytes) * 8 * 1_000_000_000
        while true {
            guard let clear = outages.clear(from: time) else { return nil }
            time = clear
            let phase = timeline.phase(at: time)
            let boundary = [phase.end, outages.nextStart(after: time)].compactMap { $0 }.min()
            switch phase.link.rate {
            case .unlimited:
                return time
            case .bitsPerSecond(let rate):
                let needed = (work + rate - 1) / rate
                guard let boundary, boundary - time < needed else { return time + needed }
                work -= rate * (boundary - time)
                time = boundary
            case .trace(let trace):
                let opportunity = trace.opportunity(atOrAfter: time, notBefore: traceCursors[phase.index])
                guard let boundary, opportunity.time >= boundary else {
                    traceCursors[phase.index] = opportunity.position + 1
                    return opportunity.time
                }
                time = boundary
            }
        }
    }
}

extension Direction {
    /// 0 for upstream, 1 for downstream: array slots and random-stream labels.
    var index: Int { self == .upstream ? 0 : 1 }
}
