import Foundation
public import LowbandRunReport
public import LowbandProxyCore

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

    /// One moment: a reset, a connection opened or closed, a refused connect.
    public struct Instant: Sendable, Hashable {
        /// `reset`, `open`, `close`, `refused`.
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

    /// Every stretch a link held or lost what was sent, in start order once finished.
    public private(set) var spans: [Span] = []
    /// Every reset, open, close and refused connect.
    public private(set) var instants: [Instant] = []
    /// Loss stalls: proxy, start and end (seconds).
    public private(set) var stalls: [(proxy: String, start: Double, end: Double)] = []
    /// Stretches in which bytes waited in a link's queue behind others: proxy, start and end (seconds).
    public private(set) var queues: [(proxy: String, start: Double, end: Double)] = []
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
            let direction = event.direction.map { "\($0)" } ?? ""
            open[OpenKey(what: "partition \(direction)", proxy: proxy)] = ("partition \(direction)", at, Self.faultTag(in: event.detail))
        case .heal:
            // A heal names its direction; one without heals every partition of the proxy.
            let healed = event.direction.map { "partition \($0)" }
            for key in open.keys where key.what.hasPrefix("partition ") && key.proxy == proxy && (healed == nil || key.what == healed) {
                if let started = open.removeValue(forKey: key) {
                    spans.append(Span(kind: started.kind, proxy: proxy, start: started.start, end: at, down: true, origin: started.origin))
                }
            }
        case .lossStall:
            stalls.append((proxy, at, at + Self.seconds(event.duration ?? .zero)))
        case .queue:
            queues.append((proxy, at - Self.seconds(event.duration ?? .zero), at))
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
        case .open, .close, .refused:
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
        for (key, started) in open {
            let down = !key.what.hasPrefix("toxic ") || started.kind.hasPrefix("blackhole")
            spans.append(Span(kind: started.kind, proxy: key.proxy, start: started.start, end: end, down: down, origin: started.origin))
        }
        open = [:]
        spans.sort { ($0.start, $0.kind) < ($1.start, $1.kind) }
        stalls.sort { $0.start < $1.start }
        queues.sort { $0.start < $1.start }
    }

    /// Seconds of `from ..< to` in which some link was down (overlaps counted once).
    public func downTime(from: Double, to: Double) -> Double {
        covered(downRanges, from: from, to: to)
    }

    /// Seconds of `from ..< to` in which some link stalled on a loss, outside its down time.
    public func stallTime(from: Double, to: Double) -> Double {
        let both = covered(downRanges + stalls.map { ($0.start, $0.end) }, from: from, to: to)
        return max(0, both - downTime(from: from, to: to))
    }

    /// Seconds of `from ..< to` in which bytes waited in some link's queue, outside its down
    /// time and loss stalls.
    public func queueTime(from: Double, to: Double) -> Double {
        let before = downRanges + stalls.map { ($0.start, $0.end) }
        let all = covered(before + queues.map { ($0.start, $0.end) }, from: from, to: to)
        return max(0, all - covered(before, from: from, to: to))
    }

    private var downRanges: [(Double, Double)] {
        spans.filter(\.down).map { ($0.start, $0.end) }
    }

    /// What the network did in `from ... to`, in words: `outage 12.0–15.3 s on mqtt; 2 loss
    /// stalls (0.8 s); bytes waited for the link for 1.2 s; reset at 14.1 s (connection 3)`, or
    /// `nothing: the links delivered`.
    public func describe(from: Double, to: Double) -> String {
        var parts: [String] = []
        for span in spans where span.end >= from && span.start <= to {
            let origin = span.origin.map { $0.hasPrefix("fault ") ? " (\($0))" : "" } ?? ""
            parts.append("\(span.kind) \(Self.format(span.start))–\(Self.format(span.end)) s on \(span.proxy)\(origin)")
        }
        let inWindow = stalls.filter { $0.end >= from && $0.start <= to }
        if !inWindow.isEmpty {
            let total = inWindow.reduce(0) { $0 + ($1.end - $1.start) }
            parts.append("\(inWindow.count) loss stall\(inWindow.count == 1 ? "" : "s") (\(Self.format(total)) s)")
        }
        let queued = covered(queues.map { ($0.start, $0.end) }, from: from, to: to)
        if queued >= 0.05 {
            parts.append("bytes waited for the link for \(Self.format(queued)) s")
        }
        let resets = instants.filter { $0.kind == "reset" && $0.at >= from && $0.at <= to }
        for reset in resets.prefix(5) {
            var words = reset.connection.map { ["connection \($0)"] } ?? []
            if let origin = reset.origin, origin.hasPrefix("fault ") { words.append(origin) }
            parts.append("reset at \(Self.format(reset.at)) s on \(reset.proxy)" + (words.isEmpty ? "" : " (\(words.joined(separator: ", ")))"))
        }
        if resets.count > 5 { parts.append("\(resets.count - 5) more resets") }
        let closes = instants.filter { $0.kind == "close" && $0.at >= from && $0.at <= to }
        if !closes.isEmpty { parts.append("\(closes.count) connection\(closes.count == 1 ? "" : "s") closed") }
        return parts.isEmpty ? "nothing: the links delivered" : parts.joined(separator: "; ")
    }

    /// Seconds of `from ..< to` that `ranges` cover, overlaps counted once.
    private func covered(_ ranges: [(Double, Double)], from: Double, to: Double) -> Double {
        guard to > from else { return 0 }
        return Stretches(ranges.map { $0.0 ..< max($0.0, $0.1) }).covered(from ..< to)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func format(_ seconds: Double) -> String {
        String(format: "%.1f", seconds)
    }
}
