import LowbandDeterminism

/// The link model: a ``NetworkProfile`` played out in the time the caller passes in.
///
/// Per direction, all connections share one bottleneck (the profile's rate, a byte-limited
/// queue, round-robin by MTU piece); after it each piece takes the one-way delay plus jitter,
/// never overtaking the previous piece of its connection and direction. A lost piece stalls its
/// connection and direction for an RTO and goes again; outages hold everything; the radio
/// wakes up after idling; connections may be reset. No I/O, no clock: every call gets `now`,
/// and the same seed and calls give the same decisions (see ``ShaperTraceSink``).
///
/// Driving it: call ``submit(_:on:_:at:)`` with what was read, ``advance(to:)`` at
/// ``nextWakeup`` and act on the returned actions in order. Work is proportional to the pieces
/// moved; idle connections cost nothing.
public struct NetworkShaper: TrafficShaper, Sendable {
    /// The network the shaper plays out.
    public let profile: NetworkProfile
    /// The seed every random decision derives from; the same seed and calls replay the same run.
    public let seed: UInt64

    /// Where its decisions are written; the proxy state machine around it writes its own there too.
    public let trace: (any ShaperTraceSink)?
    let root: SeededGenerator
    /// Everything up to this instant (ns) has been processed.
    var now: Int64 = 0
    var timers = EventQueue<ShaperTimer>()
    /// Actions due but not yet returned by `advance`.
    var pending: [ShaperAction] = []
    /// Looked up by id, never iterated, so hash order cannot reach a decision or the trace.
    var connections: [ConnectionID: Connection] = [:]
    var opened = 0
    /// Indexed by ``Direction/index``.
    var bottlenecks: [Bottleneck]
    var outages: Outages
    var radio: Radio
    /// The radio's fades, indexed by ``Direction/index``.
    var fades: [Fades]
    /// Bytes of acknowledgements sent, indexed by ``Direction/index``.
    var acknowledgementsSent = [0, 0]
    /// Whether a piece always arrives the instant it is queued (see `passesAtOnce`).
    let instant: Bool

    /// A shaper for `profile` whose random decisions all derive from `seed`.
    ///
    /// Streams: the device's is `seed` → derived(0) (outage schedule i: its derived(1, i);
    /// wake-ups: derived(2); fades of direction d: derived(3, d)); connection c's direction d (0 up, 1 down) is derived(1, c, d);
    /// its connect delay and reset draws are derived(1, c, 2).
    public init(profile: NetworkProfile, seed: UInt64, trace: (any ShaperTraceSink)? = nil) {
        self.profile = profile
        self.seed = seed
        self.trace = trace
        root = SeededGenerator(seed: seed)
        let device = root.derived(0)
        outages = Outages(profile.outages, generator: device, healedFrom: profile.healedFrom?.nanosecondsClamped)
        radio = Radio(profile: profile.radio ?? profile.wakeUp.map(RadioProfile.init(wakeUp:)), generator: device.derived(2))
        bottlenecks = [Bottleneck(profile: profile, direction: .upstream), Bottleneck(profile: profile, direction: .downstream)]
        fades = Direction.allCases.map { Fades(generator: device.derived(3, UInt64($0.index))) }
        instant = Self.passesAtOnce(profile)
    }

    // MARK: TrafficShaper

    public mutating func open(at now: ShaperInstant) -> (id: ConnectionID, connectAt: ShaperInstant) {
        run(until: now.nanoseconds)
        let id = ConnectionID(index: opened)
        opened += 1
        let label = UInt64(id.index)
        var control = root.derived(1, label, 2)
        var connection = Connection(
            upstream: Flow(generator: root.derived(1, label, 0)),
            downstream: Flow(generator: root.derived(1, label, 1))
        )
        let connectDelay = control.uniform(in: profile.connectDelay)
        // The handshake's first segment goes up: a state that carries small transfers sends it.
        if let wake = radio.wakeIfIdle(at: self.now, bytes: max(profile.overhead.headerBytes, 40), direction: .upstream) {
            record(.wakeup, id, delay: wake.delay, detail: profile.radio.map { "from \(wake.from) to \($0.states[0].name)" })
        }
        radio.touch(self.now)
        if let resets = profile.resets, control.chance(resets.probability) {
            if let lifetime = resets.afterTime {
                timers.schedule(.resetDue(id), at: self.now + control.uniform(in: lifetime))
            }
            if let bytes = resets.afterBytes {
                connection.resetAfterBytes = Int(control.uniform(in: Int64(bytes.lowerBound) ... Int64(bytes.upperBound)))
            }
        }
        connection.lastCrossed = self.now
        connections[id] = connection
        let connectAt = outages.clear(from: max(self.now, radio.awakeFrom)).map { $0 + connectDelay } ?? .max
        record(.open, id, delay: connectAt - self.now)
        return (id, ShaperInstant(nanoseconds: connectAt))
    }

    public mutating func submit(_ bytes: Int, on id: ConnectionID, _ direction: Direction, at now: ShaperInstant) -> Bool {
        run(until: now.nanoseconds)
        let slot = direction.index
        // Looked up once (each `connections[id]` hashes the key): this runs per read burst.
        guard bytes > 0, let index = connections.index(forKey: id) else {
            return bottlenecks[slot].occupancy < bottlenecks[slot].queueLimit
        }
        // A forgotten flow takes nothing more: its bytes would die at the NAT, and its sender
        // stops (its window never opens again).
        if connections.values[index].forgotten { return false }
        bottlenecks[slot].occupancy += bytes
        let tlsBytes = profile.overhead.tlsBytes(forWriteOf: bytes)
        let wasIdle = Self.enqueue(bytes, tlsBytes: tlsBytes, on: &connections.values[index][direction])
        if wasIdle { bottlenecks[slot].turns.append(id) }
        record(.enqueue, id, direction, bytes: bytes, queued: bottlenecks[slot].occupancy)
        if wasIdle, canDeliverAtOnce(slot), connections.values[index][direction].lastArrival <= self.now {
            deliverAtOnce(id, index, direction)
        } else {
            startNext(direction)
            run(until: self.now)
        }
        let accepting = bottlenecks[slot].occupancy < bottlenecks[slot].queueLimit
        if !accepting {
            if !bottlenecks[slot].paused.contains(id) { bottlenecks[slot].paused.append(id) }
            record(.backpressure, id, direction, queued: bottlenecks[slot].occupancy)
        }
        return accepting
    }

    /// Adds `bytes` to `flow`'s queue; whether it was idle (it now waits for its turn).
    private static func enqueue(_ bytes: Int, tlsBytes: Int, on flow: inout Flow) -> Bool {
        flow.queued += bytes
        flow.tlsBytes += tlsBytes
        guard flow.state == .idle else { return false }
        flow.state = .waiting
        return true
    }

    /// The room left in the `direction`'s queue (its profile's `queue` less what waits in it),
    /// or one piece when it is full; never more than `bytes`, never less than 1.
    public func admissible(_ bytes: Int, _ direction: Direction) -> Int {
        // Two fields, not a copy of the bottleneck (its timeline and queues retained per read).
        let slot = direction.index
        let room = bottlenecks[slot].queueLimit - bottlenecks[slot].occupancy
        return max(1, min(bytes, room > 0 ? room : profile.maximumSegmentPayload))
    }

    public mutating func advance(to now: ShaperInstant) -> [ShaperAction] {
        run(until: now.nanoseconds)
        defer { pending = [] }
        return pending
    }

    public var nextWakeup: ShaperInstant? {
        if !pending.isEmpty { return ShaperInstant(nanoseconds: now) }
        return timers.nextTime.map { ShaperInstant(nanoseconds: $0) }
    }

    public mutating func close(_ id: ConnectionID, at now: ShaperInstant) {
        close(id, at: now, reason: nil)
    }

    public mutating func close(_ id: ConnectionID, at now: ShaperInstant, reason: String?) {
        run(until: now.nanoseconds)
        guard connections[id] != nil else { return }
        remove(id)
        record(.close, id, detail: reason)
    }

    /// The network forgets `id`'s flow now, as a NAT that lost its binding does: its bytes
    /// vanish from now on, with no reset either way, until the connection is closed.
    public mutating func forget(_ id: ConnectionID, at now: ShaperInstant) {
        run(until: now.nanoseconds)
        guard connections[id] != nil, !connections[id]!.forgotten else { return }
        record(.natExpired, id, detail: "silent: forgotten by a fault")
        forget(id)
    }

    // MARK: Inspection

    /// Bytes accepted in `direction` and not yet sent on by the bottleneck (all connections).
    public func queuedBytes(_ direction: Direction) -> Int {
        bottlenecks[direction.index].occupancy
    }

    /// Bytes of one connection and direction waiting for the bottleneck; nil if it is closed.
    public func queuedBytes(on id: ConnectionID, _ direction: Direction) -> Int? {
        connections[id].map { $0[direction].queued + ($0[direction].state == .transmitting ? $0[direction].inFlight : 0) }
    }

    /// What the device's radio did up to `now`: time in each state, promotions, energy; nil
    /// when the profile has no radio (or wake-up).
    public func radioStatistics(at now: ShaperInstant) -> RadioStatistics? {
        radio.statistics(at: max(now.nanoseconds, self.now))
    }

    /// Bytes of acknowledgements the receivers sent on `direction`'s bottleneck so far.
    public func acknowledgementBytes(_ direction: Direction) -> Int {
        acknowledgementsSent[direction.index]
    }

    /// Connections opened and not yet closed or reset.
    public var openConnections: Int { connections.count }

    /// The instant up to which everything has been processed.
    public var processedUntil: ShaperInstant { ShaperInstant(nanoseconds: now) }
}
