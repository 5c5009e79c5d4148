/// What the network did during a recorded session, connection by connection: the model of a
/// session report's timeline and of `record.json` (`lowband proxy --record`, `lowband explore
/// --exec`). Times are seconds on the session's clock. Every list is capped, so a session of
/// days stays a report a browser opens: what is left out is counted.
public struct SessionTimeline: Sendable, Hashable, Codable {
    /// One proxied connection: where it went, when, and what it carried.
    public struct Connection: Sendable, Hashable, Codable {
        /// The proxy (upstream) it was made on.
        public var proxy: String
        /// The proxy's connection number (`#3`).
        public var number: Int
        /// Where it went: `host:port` as the app named it, or the `--upstream` address.
        public var destination: String
        /// How the app asked for it: `socks`, `tunnel`, `forward`; nil for an `--upstream` listener.
        public var via: String?
        /// The rule that picked its path (`rule 1: *.cdn.example.com=edge`), if one did.
        public var rule: String?
        /// When the client connected to the proxy.
        public var opened: Double
        /// When its upstream end was connected (after the link's connect delay); nil if never.
        public var connected: Double?
        /// When it closed; nil if it was open at the end.
        public var closed: Double?
        /// Why it closed, in the proxy's words.
        public var closeReason: String?
        /// Whether it ended in a reset (by the link, a path, a fault or a toxic).
        public var reset: Bool
        /// Bytes delivered toward the server and toward the client.
        public var upstreamBytes: Int
        /// Bytes delivered toward the client.
        public var downstreamBytes: Int

        /// A connection opened at `opened`; the rest as it goes.
        public init(proxy: String, number: Int, destination: String, via: String?, rule: String?, opened: Double) {
            self.proxy = proxy
            self.number = number
            self.destination = destination
            self.via = via
            self.rule = rule
            self.opened = opened
            self.reset = false
            self.upstreamBytes = 0
            self.downstreamBytes = 0
        }
    }

    /// A stretch in which a link held or lost what was sent: an outage, a handover, a partition,
    /// a blackhole, a toxic. LowbandAppEvents' `NetworkRecord` works these out from the proxies'
    /// events (its `Span` is this type), and a session's timeline draws its spans.
    public struct Stretch: Sendable, Hashable, Codable {
        /// `outage`, `handover`, `partition upstream`, `toxic latency downstream`, `blackhole`…
        public var kind: String
        /// The proxy it happened on.
        public var proxy: String
        /// When it began.
        public var start: Double
        /// When it ended (the session's end if it had not).
        public var end: Double
        /// Whether nothing got through meanwhile.
        public var down: Bool
        /// Who made it: `fault 3` (a planned fault of `explore --exec`, by its number), `the
        /// profile` (the shaper's own outages), `the control API`; nil where nobody said.
        public var origin: String?

        /// A stretch with every field given.
        public init(kind: String, proxy: String, start: Double, end: Double, down: Bool, origin: String? = nil) {
            self.kind = kind
            self.proxy = proxy
            self.start = start
            self.end = end
            self.down = down
            self.origin = origin
        }
    }

    /// One moment worth a mark: a reset, a DNS lookup, a profile or seed switch, a toxic or
    /// rules change, a refusal, or an event the app posted.
    public struct Mark: Sendable, Hashable, Codable {
        /// `reset`, `dns`, `link`, `toxic`, `routes`, `denied`, `refused`, or `app` (an app event).
        public var kind: String
        /// When.
        public var at: Double
        /// The proxy, when it was one of the proxy's.
        public var proxy: String?
        /// The connection it concerns, when one.
        public var connection: Int?
        /// What happened, in words.
        public var detail: String?
        /// The device that posted it, for an app event (each device has its own lane).
        public var device: String?

        /// A mark with every field given.
        public init(kind: String, at: Double, proxy: String? = nil, connection: Int? = nil, detail: String? = nil, device: String? = nil) {
            self.kind = kind
            self.at = at
            self.proxy = proxy
            self.connection = connection
            self.detail = detail
            self.device = device
        }
    }

    /// The bytes delivered in one second of the session, each way, over every connection.
    public struct Second: Sendable, Hashable, Codable {
        /// The second since the session started (0 is the first).
        public var second: Int
        /// Bytes delivered toward servers in it.
        public var upstreamBytes: Int
        /// Bytes delivered toward clients in it.
        public var downstreamBytes: Int

        /// A second with its byte counts.
        public init(second: Int, upstreamBytes: Int, downstreamBytes: Int) {
            self.second = second
            self.upstreamBytes = upstreamBytes
            self.downstreamBytes = downstreamBytes
        }
    }

    /// At most this many connections are kept (the rest counted in ``omittedConnections``).
    public static let maximumConnections = 5_000
    /// At most this many marks are kept (the rest counted in ``omittedMarks``).
    public static let maximumMarks = 5_000
    /// At most this many stretches are kept.
    public static let maximumStretches = 5_000
    /// Seconds of traffic kept: a day.
    public static let maximumSeconds = 86_400

    /// Every connection, in the order opened.
    public var connections: [Connection] = []
    /// Outages, handovers, partitions and toxics, in the order they ended.
    public var stretches: [Stretch] = []
    /// Moments worth a mark, in time order as recorded.
    public var marks: [Mark] = []
    /// Bytes per second each way, ascending, only the seconds that moved bytes.
    public var traffic: [Second] = []
    /// When the session ended.
    public var end: Double = 0
    /// Connections opened beyond ``maximumConnections``.
    public var omittedConnections = 0
    /// Marks beyond ``maximumMarks``.
    public var omittedMarks = 0

    /// An empty timeline.
    public init() {}

    /// Adds a mark unless the cap is reached (then counts it).
    public mutating func mark(_ mark: Mark) {
        guard marks.count < Self.maximumMarks else {
            omittedMarks += 1
            return
        }
        marks.append(mark)
    }

    /// Adds `bytes` delivered at `at` toward the server (`upstream`) or the client.
    public mutating func count(_ bytes: Int, upstream: Bool, at: Double) {
        guard at.isFinite, at >= 0, bytes > 0 else { return }
        let second = Int(at)
        guard second < Self.maximumSeconds else { return }
        if traffic.last?.second != second {
            // Deliveries come in time order; one that does not (another proxy's) is placed.
            let index = traffic.lastIndex { $0.second <= second }
            if let index, traffic[index].second == second {
                add(bytes, upstream: upstream, to: index)
                return
            }
            let position = index.map { $0 + 1 } ?? 0
            traffic.insert(Second(second: second, upstreamBytes: 0, downstreamBytes: 0), at: position)
            add(bytes, upstream: upstream, to: position)
            return
        }
        add(bytes, upstream: upstream, to: traffic.count - 1)
    }

    private mutating func add(_ bytes: Int, upstream: Bool, to index: Int) {
        if upstream { traffic[index].upstreamBytes += bytes } else { traffic[index].downstreamBytes += bytes }
    }

    /// The destinations in the order first used, each with its connections' positions in
    /// ``connections``.
    public var destinations: [(destination: String, connections: [Int])] {
        var order: [String] = []
        var positions: [String: [Int]] = [:]
        for (position, connection) in connections.enumerated() {
            if positions[connection.destination] == nil { order.append(connection.destination) }
            positions[connection.destination, default: []].append(position)
        }
        return order.map { ($0, positions[$0] ?? []) }
    }
}
