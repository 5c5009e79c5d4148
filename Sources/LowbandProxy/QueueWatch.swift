import LowbandShaper

/// Works out, from the shaper's enqueues and deliveries, how long bytes waited in the link's
/// queue before they went onto it, per connection and direction, as `queue` events: the
/// stretches in which bytes waited (joined while they touch, cut at ``longest`` so a watcher
/// sees a busy link as it goes). A delivery's piece left the queue at its time less its delay;
/// the bytes it carried are the oldest waiting (a connection's direction is first in, first out).
///
/// Kept by ``ShaperObserver`` while somebody watches; bounded by ``maximumChunks`` per flow
/// (the queue's own bound is the profile's, a few hundred kilobytes at most: writes are chunks).
struct QueueWatch {
    /// Waits shorter than this are bytes that went straight onto the link.
    static let shortest: Duration = .milliseconds(1)
    /// A stretch is reported once it is this long, and the next one begins.
    static let longest: Duration = .seconds(1)
    /// Chunks remembered per flow; beyond it the oldest are merged into their neighbour.
    static let maximumChunks = 4096

    private struct Key: Hashable {
        var connection: ConnectionID
        var direction: Direction
    }

    private struct Flow {
        /// Bytes waiting, oldest first, with when they were enqueued (a handful: the queue is
        /// bounded by the profile, and a chunk is one read of a socket).
        var chunks: [(at: ShaperInstant, bytes: Int)] = []
        /// The stretch of waiting not yet reported.
        var open: (start: ShaperInstant, end: ShaperInstant)?
    }

    private var flows: [Key: Flow] = [:]

    /// Notes one of the shaper's decisions; returns the `queue` events it completes.
    mutating func note(_ event: ShaperEvent) -> [ShaperEvent] {
        switch event.kind {
        case .enqueue:
            guard let connection = event.connection, let direction = event.direction, let bytes = event.bytes, bytes > 0 else { return [] }
            var flow = flows[Key(connection: connection, direction: direction)] ?? Flow()
            if flow.chunks.count >= Self.maximumChunks {
                let oldest = flow.chunks.removeFirst()
                flow.chunks[0].bytes += oldest.bytes
                flow.chunks[0].at = oldest.at
            }
            flow.chunks.append((event.time, bytes))
            flows[Key(connection: connection, direction: direction)] = flow
            return []
        case .deliver:
            guard let connection = event.connection, let direction = event.direction, let bytes = event.bytes else { return [] }
            let key = Key(connection: connection, direction: direction)
            guard var flow = flows[key], let oldest = flow.chunks.first?.at else { return [] }
            let left = event.time + .nanoseconds(-(event.delay ?? .zero).nanosecondsClamped)
            var remaining = bytes
            while remaining > 0, !flow.chunks.isEmpty {
                if flow.chunks[0].bytes > remaining {
                    flow.chunks[0].bytes -= remaining
                    remaining = 0
                } else {
                    remaining -= flow.chunks.removeFirst().bytes
                }
            }
            var done: [ShaperEvent] = []
            if left - oldest >= Self.shortest {
                if let open = flow.open, oldest <= open.end {
                    flow.open = (open.start, max(open.end, left))
                } else {
                    if let open = flow.open { done.append(Self.event(open, key)) }
                    flow.open = (oldest, left)
                }
            }
            if let open = flow.open, flow.chunks.isEmpty || open.end - open.start >= Self.longest {
                done.append(Self.event(open, key))
                flow.open = nil
            }
            flows[key] = flow
            return done
        case .close, .reset:
            guard let connection = event.connection else { return [] }
            var done: [ShaperEvent] = []
            for direction in [Direction.upstream, .downstream] {
                if let open = flows.removeValue(forKey: Key(connection: connection, direction: direction))?.open {
                    done.append(Self.event(open, Key(connection: connection, direction: direction)))
                }
            }
            return done
        case .link:
            // A new shaper takes over; what the old one queued is not this one's to report.
            flows = [:]
            return []
        default:
            return []
        }
    }

    /// Forgets everything (nobody watches any more).
    mutating func reset() {
        if !flows.isEmpty { flows = [:] }
    }

    private static func event(_ stretch: (start: ShaperInstant, end: ShaperInstant), _ key: Key) -> ShaperEvent {
        ShaperEvent(time: stretch.end, kind: .queue, connection: key.connection, direction: key.direction, delay: stretch.end - stretch.start)
    }
}
