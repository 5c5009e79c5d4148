import Foundation
public import LowbandFindings
public import LowbandProxyCore
public import LowbandShaper

/// What the network did during a session, from the proxies' own decisions (their events) and
/// the faults put on them: when each link was down and why, its loss stalls, when bytes waited in
/// its queue, the toxics on it (whoever added them: a fault driver or a user of the control
/// API), its resets. The
/// checker reads it to say what the network was doing when a promise broke, and the breakdown to
/// split a message's time.
///
/// Times are seconds on the session's clock. A proxy is one upstream: every device behind it
/// shares its link, as the phones of one cell would, so a window is the proxy's, not a device's.
public struct NetworkRecord: Sendable {
    /// A stretch in which a link held or lost what was sent: the same value a session's
    /// timeline draws (`SessionTimeline.Stretch`), so both read one record.
    public typealias Span = SessionTimeline.Stretch

    /// One moment: a reset, a connection opened, connected upstream or closed, a refused connect.
    public struct Instant: Sendable, Hashable {
        /// `reset`, `open`, `connect`, `close`, `refused`.
        public var kind: String
        /// The proxy (upstream) it happened on.
        public var proxy: String
        /// When (seconds).
        public var at: Double
        /// The proxy's connection number.
        public var connection: Int?
        /// The proxy's words for it (why a connection closed).
        public var detail: String?
        /// Who asked for it, for a reset: `fault 3`, `the control API`; nil for the link's own.
        public var origin: String?
    }

    /// A stretch in which one connection's bytes of one direction waited: a loss stall (the
    /// link lost a piece and waits for its retransmission) or a wait in the link's queue.
    public struct Hold: Sendable, Hashable {
        /// The proxy (link).
        public var proxy: String
        /// The connection whose bytes waited, where the proxy said.
        public var connection: Int?
        /// Which way they were going, where the proxy said.
        public var direction: Direction?
        /// When the wait began (seconds).
        public var start: Double
        /// When it ended (seconds).
        public var end: Double
    }

    /// Bytes of one connection and direction that the link delivered, or that were discarded
    /// (by a reset, a close while they were held, a toxic): the ledger a message's path is
    /// read from.
    public struct Transfer: Sendable, Hashable {
        /// The proxy (link).
        public var proxy: String
        /// The connection.
        public var connection: Int
        /// Which way.
        public var direction: Direction
        /// When (seconds).
        public var at: Double
        /// How many bytes.
        public var bytes: Int
        /// Discarded rather than delivered.
        public var dropped: Bool
        /// Why they were discarded, in the proxy's words.
        public var detail: String?
    }

    /// The least time a link takes to carry bytes one way (seconds): its profile's delay less its
    /// jitter. Bytes a link delivers sooner than that after a message was sent are earlier
    /// bytes, not the message's.
    public struct Floor: Sendable, Hashable {
        /// Toward the server.
        public var up: Double
        /// Toward the device.
        public var down: Double

        /// A floor of `up` and `down` seconds.
        public init(up: Double, down: Double) {
            self.up = up
            self.down = down
        }

        /// The floor of `profile`'s links (its delay less its jitter, never below zero).
        public init(_ profile: NetworkProfile) {
            func least(_ link: LinkProfile) -> Double { max(0, NetworkRecord.seconds(link.delay - link.jitter.amount)) }
            self.init(up: least(profile.uplink), down: least(profile.downlink))
        }
    }

    /// The links' floor, where the recorder knows the profile (zero otherwise).
    public var floor = Floor(up: 0, down: 0)

    /// At most this many transfers are kept (a long recorded session keeps its first ones and
    /// counts the rest in ``omittedTransfers``).
    public static let maximumTransfers = 200_000

    /// Every stretch a link held or lost what was sent, in start order once finished.
    public private(set) var spans: [Span] = []
    /// Every reset, open, connect, close and refused connect.
    public private(set) var instants: [Instant] = []
    /// Loss stalls, in start order once finished.
    public private(set) var stalls: [Hold] = []
    /// Stretches in which bytes waited in a link's queue behind others.
    public private(set) var queues: [Hold] = []
    /// Bytes delivered and discarded, connection by connection, in time order.
    public private(set) var transfers: [Transfer] = []
    /// Transfers beyond ``maximumTransfers``.
    public private(set) var omittedTransfers = 0
    /// Packets a packet link (`explore --shell`'s) dropped, which TCP sends again (unlike a
    /// proxy's drop, bytes discarded for good): each an instant whose `detail` is the cause
    /// (`loss`, `queue-full`) — of kind `drop` for every packet the link dropped, and `drop
    /// upstream` or `drop downstream` with its connection for one that carried a connection's
    /// data. At most ``maximumTransfers``.
    public private(set) var packetDrops: [Instant] = []
    /// When ``finish(at:)`` closed the record (the session's end); nil before.
    public private(set) var finishedAt: Double?
    /// The transfers of each connection and direction, in time order, built by ``finish(at:)``:
    /// a message's path is read from one of these, not from every transfer of the session.
    private(set) var transfersByPath: [Path: [Transfer]] = [:]
    /// Stretches begun and not yet ended: an outage, or a partition of one direction, per proxy.
    private var open: [OpenKey: (kind: String, start: Double, origin: String?)] = [:]

    private struct OpenKey: Hashable {
        var what: String
        var proxy: String
    }

    /// An empty record.
    public init() {}

    /// Notes one of `proxy`'s events; `offset` is when the proxy's clock started on the session's.
    public mutating func record(_ event: ProxyEvent, proxy: String, offset: Duration) {
        let at = Self.seconds(event.time + offset)
        switch event.kind {
        case .outageStart:
            let kind = event.detail.map { $0.contains("handover") ? "handover" : "outage" } ?? "outage"
            // A forced outage says "forced" (and which fault asked); the shaper's own are the profile's.
            let forced = event.detail?.contains("forced") ?? false
            let origin = forced ? Self.faultTag(in: event.detail) ?? "the control API" : "the profile"
            open[OpenKey(what: "outage", proxy: proxy)] = (kind, at, origin)
        case .outageEnd:
            if let started = open.removeValue(forKey: OpenKey(what: "outage", proxy: proxy)) {
                spans.append(Span(kind: started.kind, proxy: proxy, start: started.start, end: at, down: true, origin: started.origin))
            }
        case .partition:
            // One stretch per hold: two faults may hold one direction, each healing its own.
            let direction = event.direction.map { "\($0)" } ?? ""
            let origin = Self.faultTag(in: event.detail)
            open[OpenKey(what: "partition \(direction) \(origin ?? "")", proxy: proxy)] = ("partition \(direction)", at, origin)
        case .heal:
            // A heal names its direction, and its fault when a fault asked; one without heals
            // every partition of the proxy.
            let healed = event.direction.map { "partition \($0) " }
            let origin = Self.faultTag(in: event.detail)
            for key in open.keys where key.what.hasPrefix("partition ") && key.proxy == proxy && (healed == nil || key.what.hasPrefix(healed!))
                && (origin == nil || key.what.hasSuffix(" \(origin!)"))
            {
                if let started = open.removeValue(forKey: key) {
                    spans.append(Span(kind: started.kind, proxy: proxy, start: started.start, end: at, down: true, origin: started.origin))
                }
            }
        case .lossStall:
            stalls.append(Hold(proxy: proxy, connection: event.connection, direction: event.direction, start: at, end: at + Self.seconds(event.duration ?? .zero)))
        case .queue:
            queues.append(Hold(proxy: proxy, connection: event.connection, direction: event.direction, start: at - Self.seconds(event.duration ?? .zero), end: at))
        case .deliver, .drop:
            if event.kind == .drop, event.connection == nil || event.detail?.hasPrefix("packet ") == true {
                if packetDrops.count < Self.maximumTransfers {
                    let cause = event.detail.map { $0.hasPrefix("packet ") ? String($0.dropFirst(7)) : $0 }
                    let kind = event.connection == nil ? "drop" : "drop \(event.direction.map { "\($0)" } ?? "")"
                    packetDrops.append(Instant(kind: kind, proxy: proxy, at: at, connection: event.connection, detail: cause))
                }
                break
            }
            guard let connection = event.connection, let direction = event.direction else { break }
            guard transfers.count < Self.maximumTransfers else {
                omittedTransfers += 1
                break
            }
            transfers.append(Transfer(
                proxy: proxy, connection: connection, direction: direction, at: at, bytes: event.bytes ?? 0, dropped: event.kind == .drop,
                detail: event.kind == .drop ? event.detail : nil))
        case .toxicAdded, .toxicUpdated, .toxicRemoved:
            guard let detail = event.detail, let colon = detail.range(of: ": ") else { break }
            let name = String(detail[..<colon.lowerBound])
            let words = detail[colon.upperBound...].split(separator: " ")
            let key = OpenKey(what: "toxic \(name)", proxy: proxy)
            if let started = open.removeValue(forKey: key) {
                spans.append(Span(kind: started.kind, proxy: proxy, start: started.start, end: at, down: started.kind.hasPrefix("blackhole"), origin: started.origin))
            }
            guard event.kind != .toxicRemoved, let type = words.first else { break }
            let direction = event.direction.map { " \($0)" } ?? ""
            // toxiproxy's timeout toxic at 0 holds everything and closes nothing: a blackhole.
            let blackhole = type == "timeout" && words.contains("timeout=0")
            open[key] = (blackhole ? "blackhole\(direction)" : "toxic \(type)\(direction)", at, Self.faultTag(in: name) ?? "the control API")
        case .reset:
            let origin = Self.faultTag(in: event.detail) ?? (event.detail?.contains("control API") == true ? "the control API" : nil)
            instants.append(Instant(kind: event.kind.rawValue, proxy: proxy, at: at, connection: event.connection, detail: event.detail, origin: origin))
        case .open, .connect, .close, .refused:
            instants.append(Instant(kind: event.kind.rawValue, proxy: proxy, at: at, connection: event.connection, detail: event.detail))
        default:
            break
        }
    }

    /// `fault N` when `text` names a planned fault (`fault 3: reset`, `outage forced for 2 s
    /// (fault 3)`, a toxic named `fault-3-latency`), else nil.
    public static func faultTag(in text: String?) -> String? {
        guard let text else { return nil }
        let characters = Array(text)
        var index = 0
        while index + 6 < characters.count {
            let word = String(characters[index ..< index + 6])
            let atWordStart = index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber)
            if atWordStart, word == "fault " || word == "fault-" {
                var end = index + 6
                while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
                if end > index + 6, let number = Int(String(characters[index + 6 ..< end])) { return "fault \(number)" }
            }
            index += 1
        }
        return nil
    }

    /// Closes every stretch still open at `end` (the session ended inside it).
    public mutating func finish(at end: Double) {
        finishedAt = end
        for (key, started) in open {
            let down = !key.what.hasPrefix("toxic ") || started.kind.hasPrefix("blackhole")
            spans.append(Span(kind: started.kind, proxy: key.proxy, start: started.start, end: end, down: down, origin: started.origin))
        }
        open = [:]
        spans.sort { ($0.start, $0.kind) < ($1.start, $1.kind) }
        stalls.sort { $0.start < $1.start }
        queues.sort { $0.start < $1.start }
        transfers.sort { $0.at < $1.at }
        transfersByPath = Dictionary(grouping: transfers) { Path(proxy: $0.proxy, connection: $0.connection, direction: $0.direction) }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func format(_ seconds: Double) -> String {
        String(format: "%.1f", seconds)
    }
}
