public import LowbandProxyCore
public import LowbandRunReport

/// Builds a session's `SessionTimeline` (LowbandRunReport) from its proxies' events as they come: a connection
/// per `open` (its destination, how it was asked for and its rule read from the open's words),
/// its connect, bytes and close; outages, handovers, partitions and toxics as stretches; resets,
/// DNS lookups, profile and seed switches, rules changes and refusals as marks; bytes per second.
public struct SessionTimelineRecorder: Sendable {
    /// The timeline so far.
    public private(set) var timeline = SessionTimeline()
    private var positions: [Key: Int] = [:]
    private var open: [Key: (kind: String, start: Double, down: Bool)] = [:]

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
        case .outageStart:
            let kind = (event.detail ?? "").contains("handover") ? "handover" : "outage"
            begin(Key(proxy: proxy, what: "outage"), kind: kind, at: at, down: true)
        case .outageEnd:
            end(Key(proxy: proxy, what: "outage"), at: at)
        case .partition:
            let kind = "partition \(event.direction.map { "\($0)" } ?? "")"
            begin(Key(proxy: proxy, what: kind), kind: kind, at: at, down: true)
        case .heal:
            for key in open.keys where key.proxy == proxy && key.what.hasPrefix("partition ") { end(key, at: at) }
        case .toxicAdded, .toxicUpdated, .toxicRemoved:
            guard let detail = event.detail, let colon = detail.firstRange(of: ": ") else { return }
            let name = String(detail[..<colon.lowerBound])
            let words = detail[colon.upperBound...].split(separator: " ")
            let key = Key(proxy: proxy, what: "toxic \(name)")
            end(key, at: at)
            let verb = event.kind == .toxicAdded ? "added" : event.kind == .toxicUpdated ? "updated" : "removed"
            timeline.mark(.init(kind: "toxic", at: at, proxy: proxy, detail: "\(verb) \(detail)"))
            guard event.kind != .toxicRemoved, let type = words.first else { return }
            let direction = event.direction.map { " \($0)" } ?? ""
            let blackhole = type == "timeout" && words.contains("timeout=0")
            begin(key, kind: blackhole ? "blackhole\(direction)" : "toxic \(type)\(direction)", at: at, down: blackhole)
        default:
            return
        }
    }

    /// Ends what is still open at `end` and returns the finished timeline.
    public mutating func finish(at end: Double) -> SessionTimeline {
        for key in open.keys.sorted(by: { ($0.proxy, $0.what) < ($1.proxy, $1.what) }) { self.end(key, at: end) }
        timeline.end = Swift.max(end, timeline.end)
        return timeline
    }

    /// Adds an event the app posted as a mark (`app`), on the same clock.
    public mutating func markApp(at: Double, device: String, kind: String, message: String?) {
        let what = message.map { " \($0)" } ?? ""
        timeline.mark(.init(kind: "app", at: at, detail: "\(device) \(kind)\(what)"))
    }

    /// Marks where the record was paused or resumed (`record`): what happened between is not in it.
    public mutating func markRecord(paused: Bool, at: Double) {
        timeline.mark(.init(kind: "record", at: at, detail: paused ? "record paused: nothing kept until it resumed" : "record resumed"))
    }

    private mutating func update(_ key: Key?, _ change: (inout SessionTimeline.Connection) -> Void) {
        guard let key, let position = positions[key] else { return }
        change(&timeline.connections[position])
    }

    private mutating func begin(_ key: Key, kind: String, at: Double, down: Bool) {
        open[key] = (kind, at, down)
    }

    private mutating func end(_ key: Key, at: Double) {
        guard let started = open.removeValue(forKey: key), timeline.stretches.count < SessionTimeline.maximumStretches else { return }
        timeline.stretches.append(.init(kind: started.kind, proxy: key.proxy, start: started.start, end: at, down: started.down))
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
