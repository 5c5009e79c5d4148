import LowbandClient
import LowbandShaper

/// How long the checks give the system before a missing message or a waiting task counts as a
/// broken promise, derived from the profile and the engine's configuration (docs/RUN.md,
/// "Invariants"). Both bounds are generous on purpose: a violation must be a bug, not a slow link.
struct InvariantBounds: Hashable {
    /// After a message is stored, a member whose session stays up (and delivering) this long
    /// must have it: a dead link is noticed (heartbeat interval + time-out), a new session is
    /// made (the longest back-off + the login time-out), the worst retransmission stall and a
    /// full queue each way drain, and the message crosses the link twice.
    var settle: Duration
    /// An outbox task may wait at most this long while its client's session is up and the
    /// network delivers: the engine's own bound (``LowbandClient/ClientConfiguration/outboxLivenessBound``:
    /// an unanswered request closes the link, plus the longest retry back-off) plus the
    /// network's worst case (a send behind the worst stall and a full queue).
    var liveness: Duration

    init(profile: NetworkProfile, client: ClientConfiguration = ClientConfiguration(token: "", databasePath: "", seed: 0)) {
        let connection = client.connection
        // The worst stretch of a timeline counts: a bound must hold in every segment.
        let segments = profile.timeline?.segments ?? []
        let uplinks = [profile.uplink] + segments.map(\.uplink)
        let downlinks = [profile.downlink] + segments.map(\.downlink)
        let links = uplinks + downlinks
        let oneWay = links.map { $0.delay + $0.jitter.amount }.max() ?? .zero
        let worstStall = links.filter { $0.loss.rate > 0 }.map(\.loss.maximumRTO).max() ?? .zero
        let queue = profile.uplink.queueBytes
        let drain = (uplinks.map { Self.drain($0, queue: queue) }.max() ?? .zero)
            + (downlinks.map { Self.drain($0, queue: profile.downlink.queueBytes) }.max() ?? .zero)
        let wake = profile.wakeUp?.delay.upperBound ?? .zero
        let network = oneWay * 2 + worstStall + drain + wake + profile.connectDelay.upperBound
        settle = connection.heartbeatInterval + connection.heartbeatTimeout + connection.backoff.maximumDelay
            + connection.loginTimeout + network
        liveness = client.outboxLivenessBound + network
    }

    /// The time a full queue of `queue` bytes takes to leave at the link's rate.
    private static func drain(_ link: LinkProfile, queue: Int) -> Duration {
        let bitsPerSecond: Double
        switch link.rate {
        case .bitsPerSecond(let rate): bitsPerSecond = Double(rate)
        case .unlimited: return .zero
        case .trace(let trace): bitsPerSecond = trace.averageBitsPerSecond
        }
        guard bitsPerSecond > 0 else { return .zero }
        return .nanoseconds(Int64(min(Double(queue) * 8 / bitsPerSecond, 3600) * 1e9))
    }
}
