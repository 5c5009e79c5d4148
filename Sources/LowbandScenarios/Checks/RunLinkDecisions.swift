import LowbandRunReport
import LowbandShaper

/// What the network and the played faults did to one client's connections, read from the run's
/// own record: the trace's resets and forgotten flows, its loss stalls and outages, and the
/// faults as the injector played them (``RunFault``). Each decision names the fault it was, or
/// says it was the profile's own.
struct RunLinkDecisions {
    /// One thing done to a client's link, at a time, in words; `fault` when a played fault did it.
    struct Decision {
        var time: Duration
        var words: String
        var fault: RunFault?
    }

    let ledger: RunLedger
    let trace: TraceLog
    let timeline: [TimelineEvent]

    /// Kinds of fault that end a connection (its bytes in flight are lost with it).
    static let ending: Set<FaultKind> = [.reset, .connectionReset, .serverRestart, .appKill, .natExpiry, .addressChange, .toxicTimeout, .toxicResetPeer, .toxicLimitData]
    /// Kinds of fault that hold or slow a connection's bytes without ending it.
    static let holding: Set<FaultKind> = [.outage, .handover, .partition, .toxicLatency, .toxicBandwidth, .toxicSlicer, .appSuspend]

    private var played: [RunFault] { ledger.faults.filter { $0.skipped == nil } }

    /// The first thing that ended connection `connection` of `client` in `after ... before`: a
    /// reset, a forgotten flow, or a fault that ends connections. Nil when nothing did. Only
    /// while the connection lived: until the client's engine noticed a lost link, or its frames
    /// crossed another connection, whichever came first (a fault after that ended another one).
    func ending(connection: Int, client: Int, after: Duration, before: Duration) -> Decision? {
        let before = min(before, lifetimeEnd(of: connection, client: client, after: after))
        var found: [Decision] = []
        for reset in trace.resets where reset.connection == connection {
            let time = Duration.nanoseconds(reset.time)
            guard time >= after, time <= before else { continue }
            let fault = played.first { Self.ending.contains($0.kind) && $0.touches(client) && $0.covers(time) }
            found.append(Decision(time: time, words: "connection \(connection) was reset at \(Self.words(time)) s" + by(fault), fault: fault))
        }
        // A forgotten flow stays open and silent: bytes written to it after it was forgotten
        // vanish too, so one forgotten before `after` ended it as well.
        for forgotten in trace.forgotten where forgotten.connection == connection {
            let time = Duration.nanoseconds(forgotten.time)
            guard time <= before else { continue }
            let fault = played.first { [.natExpiry, .addressChange].contains($0.kind) && $0.touches(client) && $0.covers(time) }
            let already = time < after ? ", before these bytes were written: it stayed open, and everything written to it vanished" : ": its bytes vanished both ways"
            found.append(Decision(time: time, words: "the network forgot connection \(connection) at \(Self.words(time)) s" + by(fault) + already, fault: fault))
        }
        for fault in played where Self.ending.contains(fault.kind) && fault.touches(client) {
            let from = max(fault.start, after)
            guard from <= min(fault.end ?? fault.start, before), from >= after, found.allSatisfy({ $0.fault != fault }) else { continue }
            found.append(Decision(time: from, words: "\(fault.described) ended connection \(connection)", fault: fault))
        }
        return found.min { $0.time < $1.time }
    }

    /// When connection `connection` of `client`, in use at `after`, was over at the latest: the
    /// client's first lost session after `after` (a millisecond's slack: the reset comes first),
    /// or the first frame on another connection of it.
    private func lifetimeEnd(of connection: Int, client: Int, after: Duration) -> Duration {
        let lost = timeline.first { $0.kind == .disconnect && $0.client == client && Duration.seconds($0.seconds) >= after }
            .map { Duration.seconds($0.seconds) + .milliseconds(1) }
        let next = (ledger.connectionsUsed[client] ?? []).first { $0.time > after && ledger.resolved($0.placement)?.connection != connection }?.time
        return [lost, next].compactMap { $0 }.min() ?? .seconds(Int64(Int32.max))
    }

    /// The longest hold of client `client`'s connection `connection` in `from ..< to`: loss
    /// stalls either way, an outage, or a fault that holds bytes. Nil when nothing held it.
    func longestHold(connection: Int?, client: Int, from: Duration, to: Duration) -> Decision? {
        var found: [(held: Duration, decision: Decision)] = []
        if let connection {
            for direction in Direction.allCases {
                let stalled = trace.flow(FlowKey(connection: connection, direction: direction))?.stalled(from: from.nanosecondsClamped, to: to.nanosecondsClamped) ?? 0
                guard stalled > 0 else { continue }
                let held = Duration.nanoseconds(stalled)
                found.append((held, Decision(
                    time: from, words: "losses stalled connection \(connection)'s \(direction.rawValue) for \(Self.words(held)) s between \(Self.words(from)) s and \(Self.words(to)) s (the profile's loss)",
                    fault: nil)))
            }
        }
        for outage in outages() where outage.span.lowerBound < to && outage.span.upperBound > from {
            let held = min(outage.span.upperBound, to) - max(outage.span.lowerBound, from)
            let fault = played.first { [.outage, .handover, .addressChange].contains($0.kind) && $0.covers(outage.span.lowerBound) && abs(($0.start - outage.span.lowerBound).nanosecondsClamped) <= 1_000_000 }
            let words = fault.map { "\($0.described) held every byte for \(Self.words(held)) s" }
                ?? "the profile's \(outage.kind) \(Self.words(outage.span.lowerBound))–\(Self.words(outage.span.upperBound)) s held every byte for \(Self.words(held)) s"
            found.append((held, Decision(time: outage.span.lowerBound, words: words, fault: fault)))
        }
        for fault in played where Self.holding.contains(fault.kind) && ![.outage, .handover].contains(fault.kind) && fault.touches(client) {
            let end = fault.end ?? fault.start
            guard fault.start < to, end > from else { continue }
            let held = min(end, to) - max(fault.start, from)
            found.append((held, Decision(time: fault.start, words: "\(fault.described) held or slowed its bytes for \(Self.words(held)) s", fault: fault)))
        }
        return found.max { $0.held < $1.held }?.decision
    }

    /// Why client `client`'s session ended at `end`: the latest thing in the `window` before it
    /// that ended or held its connection; nil when nothing did (its engine gave it up).
    func sessionEnd(client: Int, at end: Duration, window: Duration) -> Decision? {
        let from = end - window
        let connection = ledger.connection(of: client, at: end)
        let ended = connection.flatMap { ending(connection: $0, client: client, after: from, before: end + .milliseconds(1)) }
        let faults = played.filter { Self.ending.contains($0.kind) && $0.touches(client) && $0.start >= from && $0.start <= end + .milliseconds(1) }
            .map { Decision(time: $0.start, words: $0.described, fault: $0) }
        if let latest = (faults + [ended].compactMap { $0 }).max(by: { $0.time < $1.time }) { return latest }
        return longestHold(connection: connection, client: client, from: from, to: end)
    }

    /// Played faults that touched `client` in `from ..< to`, except `excluding`, in time order.
    func faults(touching client: Int, from: Duration, to: Duration, excluding: RunFault? = nil) -> [RunFault] {
        played.filter { $0 != excluding && $0.touches(client) && $0.start < to && ($0.end ?? $0.start) >= from }
    }

    private func by(_ fault: RunFault?) -> String {
        fault.map { " by \($0.described)" } ?? " (the profile's own decision)"
    }

    private func outages() -> [(span: Range<Duration>, kind: String)] {
        var spans: [(span: Range<Duration>, kind: String)] = []
        var open: [(Duration, String)] = []
        for event in timeline {
            if event.kind == .outageStart { open.append((.seconds(event.seconds), event.detail)) }
            if event.kind == .outageEnd, !open.isEmpty {
                let (start, kind) = open.removeFirst()
                spans.append((start ..< max(start, .seconds(event.seconds)), kind))
            }
        }
        return spans
    }

    static func words(_ time: Duration) -> String {
        RunFault.words(time)
    }
}
