import LowbandShaper
import NIOCore

/// The link of an unshaped ``InMemoryNetwork``: every byte arrives `latency` after it was
/// submitted, whatever the load; a connect takes a round trip. No rate, no queue limit, no loss.
///
/// Deliveries due at the same instant come out in submission order, so frames never overtake.
struct LatencyShaper: TrafficShaper {
    let latency: Duration
    private var opened = 0
    /// Open connections, looked up and never iterated.
    private var open: Set<ConnectionID> = []
    /// Submissions in order; their arrival times never decrease, as `now` never does.
    private var inFlight = CircularBuffer<Submission>()

    private struct Submission {
        var arrival: ShaperInstant
        var id: ConnectionID
        var direction: Direction
        var bytes: Int
    }

    init(latency: Duration) {
        self.latency = latency
    }

    mutating func open(at now: ShaperInstant) -> (id: ConnectionID, connectAt: ShaperInstant) {
        let id = ConnectionID(index: opened)
        opened += 1
        open.insert(id)
        return (id, now + latency * 2)
    }

    mutating func submit(_ bytes: Int, on id: ConnectionID, _ direction: Direction, at now: ShaperInstant) -> Bool {
        if bytes > 0, open.contains(id) {
            inFlight.append(Submission(arrival: now + latency, id: id, direction: direction, bytes: bytes))
        }
        return true
    }

    mutating func advance(to now: ShaperInstant) -> [ShaperAction] {
        var actions: [ShaperAction] = []
        while let first = inFlight.first, first.arrival <= now {
            inFlight.removeFirst()
            if open.contains(first.id) {
                actions.append(.deliver(first.id, first.direction, bytes: first.bytes))
            }
        }
        return actions
    }

    var nextWakeup: ShaperInstant? { inFlight.first?.arrival }

    /// Forgets the connection; its bytes still on the way are dropped when they fall due.
    mutating func close(_ id: ConnectionID, at now: ShaperInstant) {
        open.remove(id)
    }
}
