import LowbandDeterminism

/// What a shaper has scheduled.
enum ShaperTimer: Sendable {
    /// A piece finished crossing the bottleneck.
    case transmitted(Direction, ConnectionID, bytes: Int, started: Int64)
    /// A piece reaches the far side.
    case arrival(ConnectionID, Direction, bytes: Int, started: Int64)
    /// A loss stall is over; the piece goes again.
    case stallEnded(ConnectionID, Direction)
    /// An outage or radio wake-up that held the bottleneck is over.
    case ready(Direction)
    /// Acknowledgements finished crossing the bottleneck.
    case acknowledgementsSent(Direction)
    /// A lone segment that arrived at `arrivedAt` waited the delayed-ACK time.
    case delayedAck(ConnectionID, Direction, arrivedAt: Int64)
    /// The connection's lifetime (drawn from `resets.after-time`) is up.
    case resetDue(ConnectionID)
}

/// One direction of one connection.
struct Flow: Sendable {
    enum State: Sendable {
        /// Nothing queued.
        case idle
        /// Queued and waiting for its turn at the bottleneck.
        case waiting
        /// A piece is being sent.
        case transmitting
        /// A lost piece waits out its retransmission timeout.
        case stalled
    }

    /// The stream of every random decision of this connection and direction.
    var generator: SeededGenerator
    /// Bytes accepted and not yet sent (a lost piece's bytes come back here).
    var queued = 0
    var state = State.idle
    /// The size of the piece being sent.
    var inFlight = 0
    /// When the previous piece arrives: no piece arrives before it.
    var lastArrival: Int64 = 0
    var jitter = JitterState()
    var loss = LossState()
    /// TLS record overhead of writes not yet sent, bytes on the air.
    var tlsBytes = 0
    /// Segments arrived and not yet acknowledged (0 or 1), and since when.
    var unacknowledged = 0
    var unacknowledgedSince: Int64 = 0
    /// When this flow last started a piece across the bottleneck (acknowledgements going the
    /// other way ride on it).
    var lastPieceStart: Int64 = .min
}

/// A proxied connection.
struct Connection: Sendable {
    var upstream: Flow
    var downstream: Flow
    /// Reset once this many bytes have been delivered (both directions).
    var resetAfterBytes: Int?
    var delivered = 0
    /// The last time a piece of it crossed the link, either way: the NAT's idle clock.
    var lastCrossed: Int64 = 0
    /// The NAT forgot it (or the device changed address): every piece is lost from now on.
    var forgotten = false

    subscript(direction: Direction) -> Flow {
        // Yielded in place: a getter and setter copied the whole flow out and back (a memmove
        // per field touched, on every submit and delivery).
        _read {
            if direction == .upstream { yield upstream } else { yield downstream }
        }
        _modify {
            if direction == .upstream { yield &upstream } else { yield &downstream }
        }
    }
}

/// The radio, shared by both directions: a ladder of power states (``RadioProfile``). It starts
/// in the top state at time zero; after each state's inactivity timer it drops one state; a
/// transmission (or connect) due in a lower state first waits for the promotion back to the
/// top. It keeps the time spent in each state, for the energy a run reports.
struct Radio: Sendable {
    let profile: RadioProfile?
    var generator: SeededGenerator
    /// The last moment the link carried anything (or the end of the last promotion).
    var lastActivity: Int64 = 0
    /// The state the radio was in at ``lastActivity``: the top, or a lower state that carried
    /// a small transfer itself (``RadioProfile/State/carries``); its timers run from there.
    var anchor = 0
    /// Nothing is sent before this (the end of the current promotion).
    var awakeFrom: Int64 = 0
    /// Promotions so far.
    var promotions = 0
    /// Time accounted for, per state (top first) and promoting, up to ``accountedUntil``.
    var inState: [Int64]
    var promoting: Int64 = 0
    var accountedUntil: Int64 = 0
    /// The lowest state the trace has been told of since the last activity.
    var reported = 0

    init(profile: RadioProfile?, generator: SeededGenerator) {
        self.profile = profile
        self.generator = generator
        inState = Array(repeating: 0, count: profile?.states.count ?? 0)
    }

    /// The state at `time` after the promotion in force, from the time since the last activity.
    func level(at time: Int64) -> Int {
        guard let profile else { return 0 }
        var elapsed = time - lastActivity
        var index = anchor
        while index < profile.states.count - 1, let after = profile.states[index].demoteAfter?.nanosecondsClamped, elapsed >= after {
            elapsed -= after
            index += 1
        }
        return index
    }

    /// Starts a promotion at `time` if the radio has dropped below the top and its state does
    /// not carry `bytes` waiting on `direction` itself; returns its length and the state it
    /// starts from.
    mutating func wakeIfIdle(at time: Int64, bytes: Int, direction: Direction) -> (delay: Int64, from: String)? {
        guard let profile, time >= awakeFrom else { return nil }
        let level = level(at: time)
        guard level > 0 else { return nil }
        if let carried = profile.states[level].carries, bytes <= carried.bytes(direction) { return nil }
        account(upTo: time)
        let delay = generator.uniform(in: profile.states[level].promotion)
        awakeFrom = time + delay
        lastActivity = time + delay
        anchor = 0
        promotions += 1
        reported = 0
        return (delay, profile.states[level].name)
    }

    /// Traffic at `time`: the radio stays in the state it is in when that state carries small
    /// transfers, and is at the top otherwise; its timers start again.
    mutating func touch(_ time: Int64) {
        guard time > lastActivity else { return }
        account(upTo: time)
        let current = level(at: time)
        anchor = profile?.states[current].carries != nil ? current : 0
        // Its next drops are reported again.
        reported = anchor
        lastActivity = time
    }

    /// The drops to a lower state up to `time` not yet reported: (when, from, to).
    mutating func demotions(through time: Int64) -> [(time: Int64, from: String, to: String)] {
        guard let profile, time >= awakeFrom else { return [] }
        var result: [(time: Int64, from: String, to: String)] = []
        var boundary = lastActivity
        var index = anchor
        while index < profile.states.count - 1, let after = profile.states[index].demoteAfter?.nanosecondsClamped {
            boundary += after
            guard boundary <= time else { break }
            if index + 1 > reported {
                result.append((boundary, profile.states[index].name, profile.states[index + 1].name))
                reported = index + 1
            }
            index += 1
        }
        return result
    }

    /// Adds the time from ``accountedUntil`` to `time` to the states it was spent in.
    mutating func account(upTo time: Int64) {
        guard let profile, time > accountedUntil else { return }
        var from = accountedUntil
        if from < awakeFrom {
            let end = min(time, awakeFrom)
            promoting += end - from
            from = end
        }
        var boundary = lastActivity
        var index = anchor
        while from < time, index < profile.states.count {
            let after = index < profile.states.count - 1 ? profile.states[index].demoteAfter?.nanosecondsClamped : nil
            let end = after.map { min(time, boundary + $0) } ?? time
            if end > from {
                inState[index] += end - from
                from = end
            }
            guard let after else { break }
            boundary += after
            index += 1
        }
        accountedUntil = time
    }

    /// What the radio did up to `time`.
    func statistics(at time: Int64) -> RadioStatistics? {
        guard let profile else { return nil }
        var copy = self
        copy.account(upTo: time)
        let seconds = zip(profile.states, copy.inState).map { (name: $0.name, seconds: Double($1) / 1e9) }
        var joules: Double?
        if profile.knowsPower {
            let promotionPower = profile.promotionMilliwatts ?? profile.states[0].milliwatts ?? 0
            let stateEnergy = zip(profile.states, copy.inState).reduce(0.0) { $0 + ($1.0.milliwatts ?? 0) * Double($1.1) }
            joules = (stateEnergy + promotionPower * Double(copy.promoting)) * 1e-12
        }
        let state = time < awakeFrom ? "promoting" : profile.states[level(at: time)].name
        return RadioStatistics(secondsInState: seconds, promotingSeconds: Double(copy.promoting) / 1e9, promotions: copy.promotions, joules: joules, state: state)
    }
}
