public import LowbandTransport

/// Caps on connections and sessions, so no client — slow, idle, guessing or greedy — can make
/// the server buffer without bound or keep others out. Every argument has a default;
/// docs/SERVER.md has the table of what a client sees at each cap.
///
/// Times are on the server's scheduler, so they hold in virtual time as on sockets.
public struct ConnectionLimits: Sendable, Hashable {
    /// Connections served at once; a connection over it is closed as soon as it is accepted.
    public var maximumConnections: Int
    /// Sessions logged in as one user at once; a login over it closes that user's oldest
    /// session (the newest is the device in use; an old one is often a half-open leftover of a
    /// reconnect).
    public var sessionsPerUser: Int
    /// A connection with no frame either way (and no byte arriving) for this long is closed.
    /// The client engine pings after 270 s without news (its default), so it is never idle this
    /// long: the default, 10 minutes, is more than two heartbeats.
    public var idleTimeout: Duration
    /// A connection not logged in this long after it was accepted is closed.
    public var loginTimeout: Duration
    /// Unsent reply bytes above which a session stops being read, and below which it is read
    /// again (socket links only: the in-memory network has no such buffer).
    public var outbound: OutboundLimits
    /// A session over the outbound high mark whose client takes none of it for this long is
    /// closed (a slow client that still reads is only not read from).
    public var outboundStallTimeout: Duration
    /// Unsent bytes at which a session is closed at once: pushes from other users keep coming
    /// while it is not read.
    public var outboundHardLimit: Int
    /// The delay before answering a connection's first failed login; each further failure
    /// doubles it. The connection is not read meanwhile.
    public var loginFailureDelay: Duration
    /// Failed logins after which a connection is closed (after its answer).
    public var loginFailuresPerConnection: Int
    /// The longest delay before answering a failed login, however many came before it.
    public var loginFailureDelayCap: Duration
    /// How long a source address's failed logins count after its last one: a client that
    /// reconnects within it continues its back-off where the last connection left it.
    public var loginFailureMemory: Duration
    /// The most source addresses whose failed logins are remembered; past it the address whose
    /// last failure is oldest is forgotten.
    public var loginFailureSources: Int

    /// Limits; the defaults suit a server on a bad mobile network.
    public init(
        maximumConnections: Int = 4096,
        sessionsPerUser: Int = 10,
        idleTimeout: Duration = .seconds(600),
        loginTimeout: Duration = .seconds(30),
        outbound: OutboundLimits = OutboundLimits(),
        outboundStallTimeout: Duration = .seconds(30),
        outboundHardLimit: Int = 8 << 20,
        loginFailureDelay: Duration = .milliseconds(250),
        loginFailuresPerConnection: Int = 5,
        loginFailureDelayCap: Duration = .seconds(16),
        loginFailureMemory: Duration = .seconds(300),
        loginFailureSources: Int = 4096
    ) {
        self.maximumConnections = max(1, maximumConnections)
        self.sessionsPerUser = max(1, sessionsPerUser)
        self.idleTimeout = max(.milliseconds(1), idleTimeout)
        self.loginTimeout = max(.milliseconds(1), loginTimeout)
        self.outbound = outbound
        self.outboundStallTimeout = max(.milliseconds(1), outboundStallTimeout)
        self.outboundHardLimit = max(outbound.highWaterMark, outboundHardLimit)
        self.loginFailureDelay = max(.zero, loginFailureDelay)
        self.loginFailuresPerConnection = max(1, loginFailuresPerConnection)
        self.loginFailureDelayCap = max(self.loginFailureDelay, loginFailureDelayCap)
        self.loginFailureMemory = max(.zero, loginFailureMemory)
        self.loginFailureSources = max(1, loginFailureSources)
    }
}
