import LowbandBasics
public import LowbandShaper

/// Something that happened in a proxy, on its timeline (time since the proxy started).
///
/// Events are what `GET /proxies/{name}/events` streams as JSON lines and what the one-line
/// connection statuses are printed from.
public struct ProxyEvent: Hashable, Sendable {
    /// What happened; new kinds may be added without breaking callers.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A client connected to the proxy (`detail`: client → upstream).
        public static let open = Kind(rawValue: "open")
        /// The upstream connection is established.
        public static let connect = Kind(rawValue: "connect")
        /// The upstream could not be reached (`detail`: why); the client is closed.
        public static let refused = Kind(rawValue: "refused")
        /// The proxy looked up a name on the device's network (the profile's `dns`): `duration`
        /// is how long it took, `detail` the name and whether it resolved.
        public static let dns = Kind(rawValue: "dns")
        /// A front door (SOCKS5, HTTP proxy) turned a client away before any connection was
        /// opened, answering in the protocol's words (`detail`: the client and why).
        public static let denied = Kind(rawValue: "denied")
        /// The per-destination rules were replaced (`detail`: the new rules, in order, or `none`).
        public static let routes = Kind(rawValue: "routes")
        /// The link delivered `bytes` bytes in `direction`.
        public static let deliver = Kind(rawValue: "deliver")
        /// Reading from `direction`'s source stopped (`detail`: why).
        public static let pause = Kind(rawValue: "pause")
        /// Reading from `direction`'s source resumed.
        public static let resume = Kind(rawValue: "resume")
        /// The source of `direction` ended and its end was forwarded (half close).
        public static let end = Kind(rawValue: "end")
        /// The link or a toxic reset the connection (TCP RST to both sides).
        public static let reset = Kind(rawValue: "reset")
        /// The connection closed (`upstreamBytes`/`downstreamBytes` delivered, `detail`: why).
        public static let close = Kind(rawValue: "close")
        /// The proxy's link changed (`detail`: profile and seed).
        public static let link = Kind(rawValue: "link")
        /// The link lost a piece: its connection and direction stall for `duration` (the RTO).
        public static let lossStall = Kind(rawValue: "loss-stall")
        /// Nothing moves from now on for `duration` (nil: for ever); `detail` says what kind.
        public static let outageStart = Kind(rawValue: "outage-start")
        /// The outage is over; bytes move again.
        public static let outageEnd = Kind(rawValue: "outage-end")
        /// The radio wakes up after idling; `duration` is how long that takes.
        public static let wakeup = Kind(rawValue: "wakeup")
        /// The network forgot the connection's flow (`detail`: `silent` or `reset`, and why — the
        /// NAT's idle timeout, a new address, a fault).
        public static let natExpired = Kind(rawValue: "nat-expired")
        /// Bytes of `direction` are held from now on (a one-way partition), not dropped.
        public static let partition = Kind(rawValue: "partition")
        /// The partition of `direction` is over; the held bytes go on.
        public static let heal = Kind(rawValue: "heal")
        /// Bytes of `direction` waited in the link's queue behind others for `duration`, ending
        /// at `time` (when the last of them went onto the link); reported while somebody watches.
        public static let queue = Kind(rawValue: "queue")
        /// `bytes` of `direction` were read and then discarded (`detail`: by what — a toxic, or
        /// the reset or close that ended the connection while they were held).
        public static let drop = Kind(rawValue: "drop")
        /// A toxic was added (`detail`: `NAME: TYPE key=value…`, `direction`: its stream).
        public static let toxicAdded = Kind(rawValue: "toxic-added")
        /// A toxic's attributes or toxicity changed (`detail` as for ``toxicAdded``).
        public static let toxicUpdated = Kind(rawValue: "toxic-updated")
        /// A toxic was removed (`detail`: as it was).
        public static let toxicRemoved = Kind(rawValue: "toxic-removed")
    }

    /// Time since the proxy started.
    public var time: Duration
    /// What happened.
    public var kind: Kind
    /// The connection's number (1, 2, ... in accept order); nil for proxy-wide events.
    public var connection: Int?
    /// The direction the event concerns, if one.
    public var direction: Direction?
    /// The bytes the event concerns, if any.
    public var bytes: Int?
    /// Client → server bytes delivered over the connection's life (close).
    public var upstreamBytes: Int?
    /// Server → client bytes delivered over the connection's life (close).
    public var downstreamBytes: Int?
    /// How long the connection lived (close), a stall lasts (loss-stall), an outage lasts or
    /// the radio takes to wake up.
    public var duration: Duration?
    /// More about the event, for a person (why a connection closed, a link's profile and seed).
    public var detail: String?

    /// An event with the fields given.
    public init(
        time: Duration,
        kind: Kind,
        connection: Int? = nil,
        direction: Direction? = nil,
        bytes: Int? = nil,
        upstreamBytes: Int? = nil,
        downstreamBytes: Int? = nil,
        duration: Duration? = nil,
        detail: String? = nil
    ) {
        self.time = time
        self.kind = kind
        self.connection = connection
        self.direction = direction
        self.bytes = bytes
        self.upstreamBytes = upstreamBytes
        self.downstreamBytes = downstreamBytes
        self.duration = duration
        self.detail = detail
    }

    /// `toxic` added, updated or removed at `time`: its stream as the direction, `NAME: TYPE
    /// key=value… [toxicity T]` as the detail.
    public init(toxic: Toxic, kind: Kind, time: Duration) {
        var words = "\(toxic.name): \(toxic.type.rawValue)"
        for (key, value) in toxic.attributes.sorted(by: { $0.key < $1.key }) { words += " \(key)=\(value)" }
        if toxic.toxicity < 1 { words += " toxicity \(toxic.toxicity)" }
        self.init(time: time, kind: kind, direction: toxic.stream, detail: words)
    }

    /// A shaper decision already placed on the proxy's timeline and numbering (a
    /// `LowbandShaper/FramedTraceSink` did that).
    public init(placed event: ShaperEvent) {
        self.init(
            time: event.time - .zero, kind: Kind(rawValue: event.kind.name), connection: event.connection?.index,
            direction: event.direction, bytes: event.bytes, duration: event.delay, detail: event.detail)
    }

    /// The one-line status printed for connection opens, refusals and closes; nil for others.
    ///
    /// `#3 open 127.0.0.1:51234 → 127.0.0.1:8080`, `#3 close after 2.1 s, up 1204 B, down 88123 B`.
    public var statusLine: String? {
        // Most events (every delivery) have no status line: decided before any string is built.
        switch kind {
        case .open, .refused, .denied, .routes, .natExpired, .close: break
        default: return nil
        }
        let number = connection.map { "#\($0)" } ?? "#-"
        switch kind {
        case .open:
            return "\(number) open \(detail ?? "")"
        case .refused:
            return "\(number) refused: \(detail ?? "upstream unreachable")"
        case .denied:
            return "#- denied \(detail ?? "")"
        case .routes:
            return "#- routes: \(detail ?? "none")"
        case .natExpired:
            return "\(number) the network forgot the flow: \(detail ?? "")"
        case .close:
            let seconds = Double((duration ?? .zero).nanosecondsClamped) / 1e9
            var line = "\(number) close after \(Self.format(seconds, decimals: 1)) s, up \(upstreamBytes ?? 0) B, down \(downstreamBytes ?? 0) B"
            if let detail { line += " (\(detail))" }
            return line
        default:
            return nil
        }
    }

    /// The event as one line of JSON, keys in a fixed order:
    /// `{"time_ms":12.345,"event":"deliver","connection":3,"direction":"downstream","bytes":1500}`.
    public var jsonLine: String {
        var fields = ["\"time_ms\":\(Self.format(Double(time.nanosecondsClamped) / 1e6, decimals: 3))"]
        fields.append("\"event\":\(JSONString.quoted(kind.rawValue))")
        if let connection { fields.append("\"connection\":\(connection)") }
        if let direction { fields.append("\"direction\":\"\(direction.rawValue)\"") }
        if let bytes { fields.append("\"bytes\":\(bytes)") }
        if let upstreamBytes { fields.append("\"upstream_bytes\":\(upstreamBytes)") }
        if let downstreamBytes { fields.append("\"downstream_bytes\":\(downstreamBytes)") }
        if let duration {
            fields.append("\"duration_ms\":\(Self.format(Double(duration.nanosecondsClamped) / 1e6, decimals: 3))")
        }
        if let detail { fields.append("\"detail\":\(JSONString.quoted(detail))") }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// `value` with exactly `decimals` digits after the point, without Foundation.
    static func format(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        var fraction = String(scaled % Int64(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return decimals == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}

extension ProxyEvent {
    /// The trace line of a decision the shaper does not see itself — bytes a toxic, reset or
    /// close discarded, a toxic added, updated or removed, a DNS lookup, an outage forced through
    /// the API — on the event's own timeline and
    /// numbers; nil for every other event (the shaper traces those). The proxy's `--trace` and
    /// a virtual run's trace both write it.
    public var shaperTraceEvent: ShaperEvent? {
        let time = ShaperInstant(nanoseconds: self.time.nanosecondsClamped)
        switch kind {
        case .drop:
            return ShaperEvent(
                time: time, kind: .drop, connection: connection.map { ConnectionID(index: $0) }, direction: direction,
                bytes: bytes, detail: detail)
        case .toxicAdded, .toxicUpdated, .toxicRemoved:
            let verb = kind == .toxicAdded ? "added" : kind == .toxicUpdated ? "updated" : "removed"
            return ShaperEvent(time: time, kind: .toxic, direction: direction, detail: "\(verb) \(detail ?? "")")
        case .dns:
            return ShaperEvent(time: time, kind: .dns, connection: connection.map { ConnectionID(index: $0) }, delay: duration, detail: detail)
        case .outageStart, .outageEnd:
            // Only a forced outage reaches here: the shaper traces its own.
            return ShaperEvent(time: time, kind: kind == .outageStart ? .outageStart : .outageEnd, detail: detail)
        default:
            return nil
        }
    }
}
