import Foundation

/// A fault as the proxies played it, read from their own events (never from a plan): its real
/// kind, start and end, and the link it acted on.
public struct PlayedFault: Sendable, Hashable, Codable {
    /// Who made it: `fault 3` (a planned fault, by its number), `the profile`, `the control API`.
    public var origin: String
    /// `outage`, `handover`, `partition upstream`, `blackhole both ways`, `toxic latency
    /// downstream`, `reset`.
    public var kind: String
    /// The link (proxy) it acted on: a device's name where each device has its own.
    public var link: String
    /// When it began (seconds on the session's clock).
    public var start: Double
    /// When it ended; nil for a reset (a moment).
    public var end: Double?
    /// The connections a reset reset, in order.
    public var connections: [Int]

    /// `fault 3: outage 2.717–5.433 s on bob`, `fault 2: reset at 4.800 s on bob (connections 1, 2)`.
    public var description: String {
        "\(origin): " + what
    }

    /// The fault without its origin: `outage 2.717–5.433 s on bob`.
    public var what: String {
        if let end {
            return "\(kind) \(Self.format(start))–\(Self.format(end)) s on \(link)"
        }
        let reset = connections.count == 1 ? "connection \(connections[0])" : "connections " + connections.map(String.init).joined(separator: ", ")
        return "\(kind) at \(Self.format(start)) s on \(link) (\(reset))"
    }

    /// Seconds with three decimals, as every fault line gives them.
    public static func format(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }
}

/// A fault a driver asked a proxy for: what the record of what was played is checked against.
public struct FaultRequest: Sendable, Hashable {
    /// How it came out.
    public enum Outcome: Sendable, Hashable {
        /// The proxy was asked, at ``FaultRequest/at``.
        case asked
        /// The proxy refused (its words).
        case refused(String)
        /// It was never asked (why: its event never came, the session ended first).
        case notPlayed(String)
    }

    /// The fault's number in the plan (`fault 3`).
    public var number: Int
    /// The plan's word for it, as `--faults` spells it: `outage`, `after:acked=reset`.
    public var words: String
    /// The kind the proxies' events must show: `outage`, `handover`, `partition upstream`,
    /// `blackhole both ways`, `toxic latency downstream`, `reset`.
    public var kind: String
    /// The link it was asked of.
    public var link: String
    /// When it was asked (seconds on the session's clock).
    public var at: Double
    /// When its end was asked; nil for a reset, or when the session ended first.
    public var ended: Double?
    /// How it came out.
    public var outcome: Outcome

    /// A request with every field given.
    public init(number: Int, words: String, kind: String, link: String, at: Double, ended: Double? = nil, outcome: Outcome = .asked) {
        self.number = number
        self.words = words
        self.kind = kind
        self.link = link
        self.at = at
        self.ended = ended
        self.outcome = outcome
    }

    /// `fault 3`, as the proxies' events name it.
    public var origin: String { "fault \(number)" }
}

extension NetworkRecord {
    /// Every fault the proxies played, from their own events, in start order: the planned ones
    /// (by number), the profile's own outages and what the control API asked for. A blackhole's
    /// two toxics are one fault (`blackhole both ways`); a reset of several connections at one
    /// moment is one fault. The link's own resets (a toxic's, the NAT's) are consequences, not
    /// faults, and are not listed.
    public var played: [PlayedFault] {
        var result: [PlayedFault] = []
        for span in spans {
            let origin = span.origin ?? "the control API"
            var kind = span.kind
            let words = kind.split(separator: " ")
            // The two directions of one fault on one link are one fault both ways.
            if let last = words.last, last == "upstream" || last == "downstream", span.origin?.hasPrefix("fault ") == true {
                let base = words.dropLast().joined(separator: " ")
                let other = "\(base) \(last == "upstream" ? "downstream" : "upstream")"
                if spans.contains(where: { $0.kind == other && $0.origin == span.origin && $0.proxy == span.proxy && abs($0.start - span.start) < 0.5 }) {
                    if last == "downstream" { continue }
                    kind = "\(base) both ways"
                }
            }
            result.append(PlayedFault(origin: origin, kind: kind, link: span.proxy, start: span.start, end: span.end, connections: []))
        }
        for reset in instants where reset.kind == "reset" {
            guard let origin = reset.origin else { continue }
            if let index = result.lastIndex(where: { $0.end == nil && $0.origin == origin && $0.link == reset.proxy && abs($0.start - reset.at) < 0.5 }) {
                if let connection = reset.connection { result[index].connections.append(connection) }
                continue
            }
            result.append(PlayedFault(origin: origin, kind: "reset", link: reset.proxy, start: reset.at, end: nil, connections: reset.connection.map { [$0] } ?? []))
        }
        return result.sorted { ($0.start, $0.link, $0.kind) < ($1.start, $1.link, $1.kind) }
    }

    /// Whether `link` had a connection open at `moment` (from its open and close events).
    public func hadOpenConnection(on link: String, at moment: Double) -> Bool {
        var open: Set<Int> = []
        for instant in instants where instant.proxy == link && instant.at <= moment {
            guard let connection = instant.connection else { continue }
            if instant.kind == "open" { open.insert(connection) }
            if instant.kind == "close" || instant.kind == "reset" || instant.kind == "refused" { open.remove(connection) }
        }
        return !open.isEmpty
    }

    /// The outage requests that fell inside `fault`'s outage on its link and lengthened it
    /// (the proxy keeps one forced outage and moves its end): their numbers, in order.
    /// `played` is ``played``, when the caller has it already.
    public func lengthening(_ fault: PlayedFault, by requests: [FaultRequest], among played: [PlayedFault]? = nil, tolerance: Double = 0.5) -> [FaultRequest] {
        guard fault.kind == "outage" || fault.kind == "handover", let end = fault.end else { return [] }
        let played = Set((played ?? self.played).map(\.origin))
        return requests.filter { request in
            guard case .asked = request.outcome, request.origin != fault.origin, !played.contains(request.origin) else { return false }
            return (request.kind == "outage" || request.kind == "handover") && request.link == fault.link
                && request.at >= fault.start - tolerance && request.at <= end + tolerance
        }
    }

    /// The recorder's own check: every fault asked of a proxy is in the proxies' events as the
    /// kind asked, on the link asked and on no other, starting when it was asked and ending when
    /// its end was asked (within `tolerance` seconds: the hop to the proxy's event loop); and
    /// nothing in the events claims a fault nobody asked for. Empty when they agree; else one
    /// line per disagreement.
    public func disagreements(with requests: [FaultRequest], tolerance: Double = 0.5) -> [String] {
        var problems: [String] = []
        let played = self.played
        for request in requests {
            let mine = played.filter { $0.origin == request.origin }
            guard case .asked = request.outcome else {
                if !mine.isEmpty { problems.append("\(request.origin) was not asked, yet the proxies played \(mine.map(\.what).joined(separator: "; "))") }
                continue
            }
            for fault in mine where fault.link != request.link {
                problems.append("\(request.origin) was asked of \(request.link), yet it acted on \(fault.link): \(fault.what)")
            }
            let here = mine.filter { $0.link == request.link }
            if here.isEmpty {
                if request.kind == "reset" {
                    if hadOpenConnection(on: request.link, at: request.at) {
                        problems.append("\(request.origin): a reset was asked of \(request.link) at \(PlayedFault.format(request.at)) s while a connection was open, yet no reset is in its events")
                    }
                } else if request.kind == "outage" || request.kind == "handover",
                    played.contains(where: { $0.link == request.link && ($0.kind == "outage" || $0.kind == "handover") && $0.start <= request.at + tolerance && ($0.end ?? 0) >= request.at - tolerance })
                {
                    // It fell inside an outage already in force on that link, which it lengthened.
                } else {
                    problems.append("\(request.origin): \(request.kind) was asked of \(request.link) at \(PlayedFault.format(request.at)) s, yet its events show nothing")
                }
                continue
            }
            for fault in here {
                if fault.kind != request.kind {
                    problems.append("\(request.origin) was asked as \(request.kind), yet played as \(fault.kind): \(fault.what)")
                }
                if abs(fault.start - request.at) > tolerance {
                    problems.append("\(request.origin) was asked at \(PlayedFault.format(request.at)) s, yet began at \(PlayedFault.format(fault.start)) s")
                }
                // An outage asked while this one was in force moved its end.
                let ends = [request.ended].compactMap { $0 } + lengthening(fault, by: requests, among: played, tolerance: tolerance).compactMap(\.ended)
                // One still in force when the session ended ends with it: that is no disagreement.
                let cutShort = fault.end.flatMap { end in finishedAt.map { end >= $0 - tolerance } } ?? false
                if let asked = ends.max(), let end = fault.end, abs(end - asked) > tolerance, !(cutShort && asked > end) {
                    problems.append("\(request.origin)'s end was asked at \(PlayedFault.format(asked)) s, yet it ended at \(PlayedFault.format(end)) s")
                }
            }
        }
        let numbers = Set(requests.map(\.origin))
        for fault in played where fault.origin.hasPrefix("fault ") && !numbers.contains(fault.origin) {
            problems.append("the proxies played \(fault.description), which no request asked for")
        }
        return problems
    }
}
