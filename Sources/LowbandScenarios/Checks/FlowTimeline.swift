import LowbandShaper

/// The shaper's decisions about one connection and direction, kept for the latency breakdown:
/// which bytes arrived when (and when the piece carrying them started across the bottleneck),
/// and when the flow stalled on a loss. Bytes are counted in the order they were submitted,
/// the same count the network's frame events give (``FramePlacement/streamEnd``).
struct FlowTimeline {
    struct Arrival {
        /// Bytes of the flow delivered up to and including this piece.
        var streamEnd: Int
        /// When the piece arrived (run clock, ns).
        var arrivedAt: Int64
        /// When the piece started across the bottleneck (run clock, ns).
        var startedAt: Int64
    }

    struct Stall {
        var start: Int64
        var end: Int64
    }

    private(set) var arrivals: [Arrival] = []
    private(set) var stalls: [Stall] = []
    private var delivered = 0

    mutating func record(_ event: ShaperEvent, at time: Int64) {
        if event.kind == .deliver, let bytes = event.bytes {
            delivered += bytes
            let delay = event.delay?.nanosecondsClamped ?? 0
            arrivals.append(Arrival(streamEnd: delivered, arrivedAt: time, startedAt: time - delay))
        } else if event.kind == .lossStall {
            let length = event.delay?.nanosecondsClamped ?? 0
            stalls.append(Stall(start: time, end: time + length))
        }
    }

    /// The piece that carried the byte just before `streamEnd` (the frame's last byte).
    func arrival(carrying streamEnd: Int) -> Arrival? {
        var low = 0
        var high = arrivals.count
        while low < high {
            let middle = (low + high) / 2
            if arrivals[middle].streamEnd < streamEnd { low = middle + 1 } else { high = middle }
        }
        return low < arrivals.count ? arrivals[low] : nil
    }

    /// Nanoseconds of `start ..< end` during which the flow was stalled on a loss.
    func stalled(from start: Int64, to end: Int64) -> Int64 {
        guard end > start else { return 0 }
        var total: Int64 = 0
        var covered = start
        for stall in stalls where stall.end > start {
            if stall.start >= end { break }
            let from = max(stall.start, covered)
            let to = min(stall.end, end)
            if to > from {
                total += to - from
                covered = to
            }
        }
        return total
    }
}

/// A shaper connection and direction.
struct FlowKey: Hashable {
    var connection: Int
    var direction: Direction
}
