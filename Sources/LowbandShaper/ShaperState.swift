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
        get { direction == .upstream ? upstream : downstream }
        set {
            if direction == .upstream { upstream = newValue } else { downstream = newValue }
        }
    }
}

/// The radio's power state, shared by both directions: after `idle` without traffic the next
/// transmission (or connect) first waits for the radio to wake.
struct Radio: Sendable {
    let profile: WakeUpProfile?
    var generator: SeededGenerator
    /// The last moment the link carried anything; the radio starts awake at time zero.
    var lastActivity: Int64 = 0
    /// Nothing is sent before this (the end of the current wake-up).
    var awakeFrom: Int64 = 0

    /// Starts a wake-up at `time` if the radio has gone idle; returns its length.
    mutating func wakeIfIdle(at time: Int64) -> Int64? {
        guard let profile, time >= awakeFrom, time - lastActivity >= profile.idle.nanosecondsClamped else { return nil }
        let delay = generator.uniform(in: profile.delay)
        awakeFrom = time + delay
        lastActivity = time + delay
        return delay
    }

    mutating func touch(_ time: Int64) {
        lastActivity = max(lastActivity, time)
    }
}
