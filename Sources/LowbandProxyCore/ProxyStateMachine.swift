import LowbandDeterminism
package import LowbandShaper

/// One simulated device: the shaper every connection shares, the connections' bytes and
/// toxics, partitions, and the reading/back-pressure decisions. No I/O and no clock: every call
/// gets the time. The socket proxy (`LowbandProxy`) and the in-memory network
/// (`LowbandSimulation`) both drive it, so every toxic and fault behaves the same in both.
///
/// Its shape is swift-nio's sans-I/O one, for a machine that multiplexes: each connection's
/// state is a ``ConnectionState`` whose phase is an enum (waiting for the link's handshake,
/// connecting, open); each event is a method (in ProxyStateMachine+Events.swift, +Faults and
/// +Toxics) that changes the state, settles everything due by its instant (the step, in
/// +Step; the bytes along each direction, in +Flow) and returns a ``ProxyOutput``: per touched
/// connection one ``SocketWork`` (connect, writes, shut outputs, reading, the ending, in that
/// order), and the events in the order decided. An event with an answer of its own returns it
/// beside the output (`accept`'s connection number, `addToxic`'s validated toxic).
///
/// Bytes of a direction flow source → toxics → link (shaper) → destination, never reordered.
/// Reading a source stops while the shaper's queue is full, while the destination's socket is
/// not writable, or while the toxics or the link hold more than their limits; so the bytes held
/// per direction stay under the limits plus one read burst.
package struct ProxyStateMachine {
    /// The link model; read it for inspection only.
    package internal(set) var shaper: any TrafficShaper
    /// The proxy-timeline instant at which the current shaper's own timeline starts.
    var shaperOrigin: ShaperInstant
    var connections: [Int: ConnectionState] = [:]
    /// Open connection numbers in ascending order, so iteration never depends on hashing.
    var order: [Int] = []
    var numberByShaperID: [ConnectionID: Int] = [:]
    /// The paths beyond the device's link that routes gave connections; empty without routes.
    var paths = BeyondPaths()
    /// Connections waiting for the handshake time the link gave them, ascending by number (as
    /// `order`): the wake-up and the due connects look at these, not at every open connection
    /// (scanning all of them on every step was 60 % of a 10,000-client crowd's time).
    var waiting: [(number: Int, until: ShaperInstant)] = []
    package internal(set) var toxics: [Toxic] = []
    /// Directions whose deliveries are held until ``heal(_:reason:at:)``, in the order partitioned.
    package internal(set) var partitioned: [Direction] = []
    /// The named holds of each partitioned direction (`fault 3`, `fault 5`): a direction two
    /// faults partition stays held until both have healed it.
    var partitionHolds: [Direction: [String]] = [:]
    /// An outage forced now (``forceOutage(for:kind:reason:at:)``): until when, and its kind.
    package internal(set) var forced: (until: ShaperInstant, kind: String)?
    var random: SeededGenerator
    var nextNumber = 1
    let toxicBufferLimit: Int
    let linkBufferLimit: Int
    var dirty: [Int] = []
    /// What the current event asks of the I/O side, handed over by ``takeOutput()``.
    var output = ProxyOutput()
    /// Which output a connection's ``ConnectionState/workSlot`` points into: bumped at each hand-over.
    var outputGeneration = 1
    package internal(set) var statistics = ProxyStatistics()

    /// A device whose connections share `shaper`; toxics draw from `seed`. Reading a direction
    /// stops while its toxics hold `toxicBufferLimit` bytes or its link `linkBufferLimit`.
    package init(shaper: any TrafficShaper, seed: UInt64, toxicBufferLimit: Int, linkBufferLimit: Int, at now: ShaperInstant) {
        self.shaper = shaper
        self.shaperOrigin = now
        self.random = SeededGenerator(seed: seed).derived(0x746F_7869_6373)  // "toxics"
        self.toxicBufferLimit = max(toxicBufferLimit, 1)
        self.linkBufferLimit = max(linkBufferLimit, 1)
    }

    /// When ``advance(to:)`` next has something to do, on the proxy's timeline; nil while idle.
    package var nextWakeup: ShaperInstant? {
        // A closure, not `.map(global)`: a method reference would copy the whole machine.
        var next = shaper.nextWakeup.map { global($0) }
        func consider(_ instant: ShaperInstant?) {
            guard let instant else { return }
            next = next.map { min($0, instant) } ?? instant
        }
        if !paths.isEmpty { consider(paths.nextWakeup) }
        consider(forced?.until)
        // A forced outage holds handshakes until it ends (its end is considered below).
        if forced == nil { for entry in waiting { consider(entry.until) } }
        if !toxics.isEmpty {
            for number in order {
                consider(connections[number]?.upstream.toxics.nextWakeup)
                consider(connections[number]?.downstream.toxics.nextWakeup)
            }
        }
        return next
    }

    package var openConnections: [Int] { order }

    /// What the device's radio did from the link's start until `now` (on the proxy's
    /// timeline); nil when the link has no radio model.
    package func radioStatistics(at now: ShaperInstant) -> RadioStatistics? {
        shaper.radioStatistics(at: local(now))
    }

    /// Whether a new client's handshake would cross the link at `now` (on the proxy's
    /// timeline), and until when: the socket proxy completes no handshake while it is down.
    package mutating func reachability(at now: ShaperInstant) -> ShaperReachability {
        if let forced, forced.until > now { return .down(until: forced.until) }
        return switch shaper.reachability(at: local(now)) {
        case .up(let until): .up(until: until.map { global($0) })
        case .down(let until): .down(until: global(until))
        }
    }

    /// Whether `number` is an open connection a `direct` route took off the link.
    package func isDirect(_ number: Int) -> Bool {
        connections[number].map { $0.shaperID == nil } ?? false
    }

    /// Whether `number` is a connection not yet closed.
    package func hasConnection(_ number: Int) -> Bool {
        connections[number] != nil
    }

    /// Where a shaper started at `now` to replace the current one (``replaceShaper(_:description:at:)``)
    /// sits on the proxy's timeline and numbering: it opens the open connections again, in
    /// order, then numbers new ones on from the next number.
    package func traceFrame(startingAt now: ShaperInstant) -> ShaperTraceFrame {
        ShaperTraceFrame(origin: now, carried: order, firstNew: nextNumber)
    }
}
