/// An open connection of a proxy, as ``ShapingProxy/connections`` and the control API's
/// `GET /proxies/{proxy}/connections` list it.
public struct ProxyConnection: Sendable, Hashable, Codable {
    /// Its number (`#3` in status lines and events).
    public var number: Int
    /// `client → destination`, with how a door was asked (`(socks)`) and the rule that picked
    /// its path (`[rule 1: …]`).
    public var description: String
    /// `waiting` (its handshake crossing the link), `connecting` (the upstream connect under
    /// way) or `open`.
    public var state: String
    /// When it was accepted, in seconds since the proxy started.
    public var openedSeconds: Double
    /// Bytes delivered toward the server so far.
    public var upstreamBytes: Int
    /// Bytes delivered toward the client so far.
    public var downstreamBytes: Int
    /// Bytes the proxy holds for it now (in toxics, the link, or held by an outage).
    public var bufferedBytes: Int

    /// A connection with every field given.
    public init(number: Int, description: String, state: String, openedSeconds: Double, upstreamBytes: Int, downstreamBytes: Int, bufferedBytes: Int) {
        self.number = number
        self.description = description
        self.state = state
        self.openedSeconds = openedSeconds
        self.upstreamBytes = upstreamBytes
        self.downstreamBytes = downstreamBytes
        self.bufferedBytes = bufferedBytes
    }

    private enum CodingKeys: String, CodingKey {
        case number, description, state
        case openedSeconds = "opened_s"
        case upstreamBytes = "upstream_bytes"
        case downstreamBytes = "downstream_bytes"
        case bufferedBytes = "buffered_bytes"
    }
}

/// Whether a proxy's link is up now, and how much waits in its queue each way
/// (`GET /proxies/{proxy}/connections` answers it too).
public struct ProxyLinkState: Sendable, Hashable, Codable {
    /// Nothing moves: an outage of the profile's, or one forced through the API.
    public var down: Bool
    /// When it comes back, in seconds since the proxy started; nil when up, or never.
    public var untilSeconds: Double?
    /// The kind of a forced outage in force (`outage`, `handover`); nil otherwise.
    public var forced: String?
    /// Bytes waiting in the link's queue toward the server (the uplink's bottleneck, at most
    /// its profile's queue and one piece); nil for a link whose shaper does not say.
    public var queuedUpstreamBytes: Int?
    /// Bytes waiting in the link's queue toward the client.
    public var queuedDownstreamBytes: Int?
    /// The directions a fault partitions now (`upstream`, `downstream`): the link is up but
    /// what crosses it that way is held; nil when none is.
    public var partitioned: [String]?
    /// The profile's uplink: its rate, delay, loss and queue; nil for a shaper that is not a profile's.
    public var uplink: ProxyLinkFigures?
    /// The profile's downlink.
    public var downlink: ProxyLinkFigures?
    /// Bytes the proxy holds for all its connections now, both ways: in the toxics, waiting to
    /// enter the link's queue (a read burst the queue had no room for), in the queue, crossing
    /// the link's delay, and written but not yet taken by a socket. More than the queues when
    /// a source sends faster than the link drains.
    public var heldBytes: Int?
    /// The device's radio state now (or `promoting`); nil when the profile has no radio model.
    public var radioState: String?
    /// The energy the radio has drawn since the link started, joules; nil without power figures.
    public var radioJoules: Double?

    /// A state with every field given.
    public init(down: Bool, untilSeconds: Double?, forced: String?, queuedUpstreamBytes: Int? = nil, queuedDownstreamBytes: Int? = nil) {
        self.down = down
        self.untilSeconds = untilSeconds
        self.forced = forced
        self.queuedUpstreamBytes = queuedUpstreamBytes
        self.queuedDownstreamBytes = queuedDownstreamBytes
    }

    private enum CodingKeys: String, CodingKey {
        case down
        case untilSeconds = "until_s"
        case forced
        case queuedUpstreamBytes = "queued_upstream_bytes"
        case queuedDownstreamBytes = "queued_downstream_bytes"
        case partitioned, uplink, downlink
        case heldBytes = "held_bytes"
        case radioState = "radio_state"
        case radioJoules = "radio_joules"
    }
}

/// One direction of a profile's link as a person reads it: the figures the live page sets next
/// to what the link does now.
public struct ProxyLinkFigures: Sendable, Hashable, Codable {
    /// The bottleneck's rate: `150 kbit/s`, `unlimited`, or a trace's mean.
    public var rate: String
    /// The rate in bits per second; nil when unlimited.
    public var bitsPerSecond: Int64?
    /// The one-way delay: `200 ms`.
    public var delay: String
    /// The share of pieces lost (felt as stalls): `1%`.
    public var loss: String
    /// The queue's limit: `30 KB`.
    public var queue: String
    /// The queue's limit, bytes.
    public var queueBytes: Int

    /// Figures given as they are printed.
    public init(rate: String, bitsPerSecond: Int64?, delay: String, loss: String, queue: String, queueBytes: Int) {
        self.rate = rate
        self.bitsPerSecond = bitsPerSecond
        self.delay = delay
        self.loss = loss
        self.queue = queue
        self.queueBytes = queueBytes
    }

    private enum CodingKeys: String, CodingKey {
        case rate
        case bitsPerSecond = "bits_per_second"
        case delay, loss, queue
        case queueBytes = "queue_bytes"
    }
}
