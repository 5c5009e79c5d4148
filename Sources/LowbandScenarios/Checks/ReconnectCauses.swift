import LowbandClient
import LowbandRunReport
import LowbandShaper

/// Why each client lost its session: what the network (or an injected fault) did to that
/// client's connection in the time before the engine gave it up.
///
/// An engine gives a link up once nothing has arrived for its heartbeat interval plus timeout
/// (280 s with the defaults), or a request went unanswered for `unansweredTimeout` (30 s), so
/// the cause is looked for in the longer of those stretches before each lost session, first
/// match wins:
/// - `fault`: an injected fault cut the client (or everyone) off, reset its connection or
///   stopped the server or app;
/// - `outage` / `handover`: the profile's (or the scenario's) outage of that kind;
/// - `reset`: the network reset the client's connection;
/// - `loss-stall`: a retransmission timeout held the client's connection, either way;
/// - `other`: none of those (the engine's own doing, or a cause not modelled).
struct ReconnectCauses {
    static let causes = ["fault", "outage", "handover", "reset", "loss-stall", "other"]

    /// How far back from a lost session a cause counts, for engines pinging every `heartbeat`
    /// (nil: the engine's default).
    static func window(heartbeat: Duration?) -> Duration {
        let connection = ConnectionConfiguration()
        return max((heartbeat ?? connection.heartbeatInterval) + connection.heartbeatTimeout, connection.unansweredTimeout)
    }

    /// One `reconnects.<cause>` row per cause (0 included), counting lost sessions.
    static func metrics(timeline: [TimelineEvent], ledger: RunLedger, trace: TraceLog, faults: [(client: Int?, span: Range<Duration>)], heartbeat: Duration?) -> [RunMetric] {
        let window = window(heartbeat: heartbeat)
        let outages = outageSpans(timeline)
        let resets = trace.resets
        var counts = Dictionary(uniqueKeysWithValues: causes.map { ($0, 0) })
        for event in timeline where event.kind == .disconnect {
            guard let client = event.client else { continue }
            let lost = Duration.seconds(event.seconds)
            let from = lost - window
            let connection = ledger.connection(of: client, at: lost)
            let cause: String
            let faulted = faults.contains { ($0.client == nil || $0.client == client) && $0.span.lowerBound <= lost && $0.span.upperBound >= from }
                || timeline.contains { $0.kind == .note && $0.detail.hasPrefix("fault:") && ($0.client == nil || $0.client == client) && $0.seconds <= event.seconds && $0.seconds >= from.seconds }
            if faulted {
                cause = "fault"
            } else if let outage = outages.first(where: { $0.span.lowerBound <= lost && $0.span.upperBound >= from }) {
                cause = outage.kind == "handover" ? "handover" : "outage"
            } else if let connection, resets.contains(where: { $0.connection == connection && Duration.nanoseconds($0.time) <= lost && Duration.nanoseconds($0.time) >= from }) {
                cause = "reset"
            } else if let connection, Direction.allCases.contains(where: { direction in
                (trace.flow(FlowKey(connection: connection, direction: direction))?.stalled(from: from.nanosecondsClamped, to: lost.nanosecondsClamped) ?? 0) > 0
            }) {
                cause = "loss-stall"
            } else {
                cause = "other"
            }
            counts[cause, default: 0] += 1
        }
        return causes.map { RunMetric(name: "reconnects.\($0)", unit: "count", values: [Double(counts[$0] ?? 0)]) }
    }

    /// The outages on the timeline (the profile's, and a scenario's own), each with its kind;
    /// one still in force at the end runs on.
    private static func outageSpans(_ timeline: [TimelineEvent]) -> [(span: Range<Duration>, kind: String)] {
        var spans: [(span: Range<Duration>, kind: String)] = []
        var open: [Duration] = []
        var kinds: [String] = []
        for event in timeline.sorted(by: { $0.seconds < $1.seconds }) {
            if event.kind == .outageStart {
                open.append(.seconds(event.seconds))
                kinds.append(event.detail)
            } else if event.kind == .outageEnd, !open.isEmpty {
                spans.append((open.removeFirst() ..< .seconds(event.seconds), kinds.removeFirst()))
            }
        }
        for (start, kind) in zip(open, kinds) { spans.append((start ..< .seconds(Double(Int32.max)), kind)) }
        return spans
    }
}
