/// A point on the shaper's timeline: nanoseconds since the shaper started.
///
/// The shaper never reads a clock. The proxy passes the event loop's time in; tests and the
/// virtual-time runner pass a simulated time, so the same decisions come out either way.
public struct ShaperInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the shaper started.
    public var nanoseconds: Int64

    /// The instant `nanoseconds` after the start.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The shaper's start.
    public static let zero = ShaperInstant(nanoseconds: 0)
    /// An instant that never comes: the connect time on a link that stays down (`offline`).
    public static let never = ShaperInstant(nanoseconds: .max)

    public static func < (lhs: ShaperInstant, rhs: ShaperInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The instant `rhs` later, saturating at Int64's range of nanoseconds.
    public static func + (lhs: ShaperInstant, rhs: Duration) -> ShaperInstant {
        ShaperInstant(nanoseconds: lhs.nanoseconds + rhs.nanosecondsClamped)
    }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: ShaperInstant, rhs: ShaperInstant) -> Duration {
        .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
    }

    public var description: String {
        let milliseconds = Double(nanoseconds) / 1_000_000
        return "\(milliseconds) ms"
    }
}


/// One proxied TCP connection within a shaper; indices count up from 0 in opening order.
public struct ConnectionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The connection's number, from 0 in opening order.
    public let index: Int
    /// The connection opened `index`-th.
    public init(index: Int) { self.index = index }
    public static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.index < rhs.index }
    public var description: String { "#\(index)" }
}

/// Which way bytes travel. Downstream is server → client (the phone's downlink).
public enum Direction: String, Hashable, Sendable, CaseIterable, Codable {
    /// Client → server.
    case upstream
    /// Server → client.
    case downstream
}

/// What the shaper tells the proxy to do.
public enum ShaperAction: Hashable, Sendable {
    /// Release the next `bytes` bytes of this connection's direction, in order, to the far side.
    case deliver(ConnectionID, Direction, bytes: Int)
    /// The direction's queue has room again: reading from its source may resume.
    case resumeReading(ConnectionID, Direction)
    /// Abort the connection (both sides reset), as a dropped radio link would.
    case reset(ConnectionID)
}

/// The seam between the byte-moving proxy and the link model.
///
/// The proxy keeps the bytes; the shaper decides only how many move and when. Bytes of one
/// connection and direction are delivered in the order they were submitted, never reordered,
/// never dropped, never altered: loss shows as delay, as it does to an application on TCP.
/// Implementations are pure state machines: every call gets the current time, nothing sleeps.
public protocol TrafficShaper {
    /// Registers a new connection; the proxy connects upstream at the returned instant, which is
    /// ``ShaperInstant/never`` while the link is down for good (the connection then stays silent).
    mutating func open(at now: ShaperInstant) -> (id: ConnectionID, connectAt: ShaperInstant)

    /// Hands `bytes` bytes read from the `direction`'s source to the link. The bytes are always
    /// taken; false means the direction's queue is full and the proxy stops reading that source
    /// until `.resumeReading`.
    mutating func submit(_ bytes: Int, on id: ConnectionID, _ direction: Direction, at now: ShaperInstant) -> Bool

    /// How many of `bytes` (at least 1) the `direction`'s queue takes now without going past its
    /// limit: the room left, or one piece when there is none (so the source is still paused,
    /// and resumed once there is room). A proxy submits that many and keeps the rest, so the
    /// queue holds what the profile says and no more. Defaults to all of them.
    func admissible(_ bytes: Int, _ direction: Direction) -> Int

    /// Everything due by `now`, in the order it happens.
    mutating func advance(to now: ShaperInstant) -> [ShaperAction]

    /// When `advance` next has something to do; nil while idle.
    var nextWakeup: ShaperInstant? { get }

    /// Forgets a connection; its undelivered bytes are discarded.
    mutating func close(_ id: ConnectionID, at now: ShaperInstant)

    /// Forgets a connection for `reason` (a reset, a toxic, the proxy stopping), which a shaper
    /// that traces writes on its `close` line. Defaults to ``close(_:at:)``.
    mutating func close(_ id: ConnectionID, at now: ShaperInstant, reason: String?)

    /// The network forgets `id`'s flow now (a NAT losing its binding): its bytes vanish with no
    /// reset either way. Defaults to doing nothing, for shapers without such a network.
    mutating func forget(_ id: ConnectionID, at now: ShaperInstant)

    /// What the device's radio did up to `now`; nil for a shaper without a radio model.
    func radioStatistics(at now: ShaperInstant) -> RadioStatistics?

    /// Whether a new connection's handshake would cross the link at `now`, and until when that
    /// holds. The socket proxy stops completing handshakes while the link is down. Defaults to
    /// always up.
    mutating func reachability(at now: ShaperInstant) -> ShaperReachability

    /// Whether `bytes` submitted now on `id`'s `direction` would be delivered within the same
    /// call with nothing else changing that anybody reads but the trace's `enqueue` and
    /// `deliver` lines: the link holds nothing back and nothing of that flow is queued. A proxy
    /// with no trace to write may then skip the shaper for those bytes. Defaults to false.
    func passesAtOnce(_ id: ConnectionID, _ direction: Direction) -> Bool
}

/// Whether the link carries a connection's handshake, as ``TrafficShaper/reachability(at:)``
/// answers.
public enum ShaperReachability: Hashable, Sendable {
    /// Handshakes get through; an outage starts at `until` (nil: none is scheduled).
    case up(until: ShaperInstant?)
    /// An outage holds everything until `until` (``ShaperInstant/never``: for good).
    case down(until: ShaperInstant)
}

extension TrafficShaper {
    /// Closes without a reason.
    public mutating func close(_ id: ConnectionID, at now: ShaperInstant, reason: String?) {
        close(id, at: now)
    }

    /// No radio.
    public func radioStatistics(at now: ShaperInstant) -> RadioStatistics? { nil }

    /// A queue without a limit: it takes everything.
    public func admissible(_ bytes: Int, _ direction: Direction) -> Int { bytes }

    /// Nothing to forget.
    public mutating func forget(_ id: ConnectionID, at now: ShaperInstant) {}

    /// Every byte goes through the shaper.
    public func passesAtOnce(_ id: ConnectionID, _ direction: Direction) -> Bool { false }

    /// A link that is always up: handshakes always get through.
    public mutating func reachability(at now: ShaperInstant) -> ShaperReachability {
        .up(until: nil)
    }
}
