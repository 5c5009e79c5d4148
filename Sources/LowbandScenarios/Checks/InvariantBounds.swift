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
        let network = profile.worstDelivery
        settle = connection.heartbeatInterval + connection.heartbeatTimeout + connection.backoff.maximumDelay
            + connection.loginTimeout + network
        liveness = client.outboxLivenessBound + network
    }
}
