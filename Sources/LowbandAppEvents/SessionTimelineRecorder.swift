public import LowbandFindings
public import LowbandProxyCore

/// Builds a session's `SessionTimeline` (LowbandRunReport) from its proxies' events as they come: a connection
/// per `open` (its destination, how it was asked for and its rule read from the open's words),
/// its connect, bytes and close; resets, DNS lookups, profile and seed switches, toxic and rules
/// changes and refusals as marks; bytes per second. The stretches (outages, handovers,
/// partitions, toxics) are `NetworkRecord`'s spans, handed over at ``finish(at:stretches:)``.
public struct SessionTimelineRecorder: Sendable {
    /// The timeline so far.
    public private(set) var timeline = SessionTimeline()
    private var positions: [Key: Int] = [:]

    private struct Key: Hashable {
        var proxy: String
        var what: String
    }

    /// An empty recorder.
    public init() {}

    /// Notes one of `proxy`'s events; `offset` is when the proxy's clock started on the session's.
    public mutating func record(_ event: ProxyEvent, proxy: String, offset: Duration) {
        let at = Self.seconds(event.time + offset)
        let connection = event.connection.map { Key(proxy: proxy, what: "#\($0)") }
        switch event.kind {
        case .open:
            guard let connection, let number = event.connection else { return }
            guard timeline.connections.count < SessionTimeline.maximumConnections else {
                timeline.omittedConnections += 1
                return
            }
            let (destination, via, rule) = Self.destination(of: event.detail ?? "")
            positions[connection] = timeline.connections.count
            timeline.connections.append(SessionTimeline.Connection(proxy: proxy, number: number, destination: destination, via: via, rule: rule, opened: at))
        case .connect:
            update(connection) { $0.connected = at }
        case .deliver:
            guard let bytes = event.bytes else { return }
            timeline.count(bytes, upstream: event.direction == .upstream, at: at)
        case .close:
            update(connection) { entry in
                entry.closed = at
                entry.closeReason = event.detail
                entry.upstreamBytes = event.upstreamBytes ?? entry.upstreamBytes
                entry.downstreamBytes = event.downstreamBytes ?? entry.downstreamBytes
            }
            if let connection { positions[connection] = nil }
        case .reset:
            update(connection) { $0.reset = true }
            timeline.mark(.init(kind: "reset", at: at, proxy: proxy, connection: event.connection, detail: event.detail))
        case .refused, .denied, .dns, .routes:
            timeline.mark(.init(kind: event.kind.rawValue, at: at, proxy: proxy, connection: event.connection, detail: event.detail))
        case .link:
            timeline.mark(.init(kind: "link", at: at, proxy: proxy, detail: event.detail.map { "switched to \($0)" }))
        case .toxicAdded, .toxicUpdated, .toxicRemoved:
            let verb = event.kind == .toxicAdded ? "added" : event.kind == .toxicUpdated ? "updated" : "removed"
            timeline.mark(.init(kind: "toxic", at: at, proxy: proxy, detail: "\(verb) \(event.detail ?? "")"))
        default:
            return
        }
    }

    /// The finished timeline: it ends at `end`, with `stretches` (a finished `NetworkRecord`'s
    /// spans, at most `SessionTimeline.maximumStretches`).
    public mutating func finish(at end: Double, stretches: [SessionTimeline.Stretch]) -> SessionTimeline {
        timeline.stretches = Array(stretches.prefix(SessionTimeline.maximumStretches))
        timeline.end = Swift.max(end, timeline.end)
        return timeline
    }

    /// Adds an event the app posted as a mark (`app`), on the same clock.
    public mutating func markApp(at: Double, device: String, kind: String, message: String?) {
        let what = message.map { " \($0)" } ?? ""
        timeline.mark(.init(kind: "app", at: at, detail: "\(device) \(kind)\(what)", device: device))
    }

    /// Marks where the record was paused or resumed (`record`): what happened between is not in it.
    public mutating func markRecord(paused: Bool, at: Double) {
        timeline.mark(.init(kind: "record", at: at, detail: paused ? "record paused: nothing kept until it resumed" : "record resumed"))
    }

    private mutating func update(_ key: Key?, _ change: (inout SessionTimeline.Connection) -> Void) {
        guard let key, let position = positions[key] else { return }
        change(&timeline.connections[position])
    }

    /// An open's words, `PEER → DESTINATION [(VIA)] [[RULE]]`, split into its parts.
    static func destination(of detail: String) -> (destination: String, via: String?, rule: String?) {
        var rest = Substring(detail)
        if let arrow = rest.firstRange(of: " → ") { rest = rest[arrow.upperBound...] }
        var rule: String?
        if rest.hasSuffix("]"), let open = rest.lastIndex(of: "["), rest[rest.index(after: open)...].hasPrefix("rule ") {
            rule = String(rest[rest.index(after: open)..<rest.index(before: rest.endIndex)])
            rest = rest[..<open]
            while rest.hasSuffix(" ") { rest = rest.dropLast() }
        }
        var via: String?
        for word in ["socks", "tunnel", "forward"] where rest.hasSuffix(" (\(word))") {
            via = word
            rest = rest.dropLast(word.count + 3)
        }
        return (String(rest), via, rule)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
