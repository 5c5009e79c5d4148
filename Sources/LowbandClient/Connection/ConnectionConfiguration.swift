/// Timeouts, heartbeat and back-off of a ``Connection``; every argument has a default.
public struct ConnectionConfiguration: Hashable, Sendable {
    /// How long a request waits for its reply before failing with `timedOut` (the link stays).
    public var requestTimeout: Duration
    /// How long the login waits for its reply before the link is dropped and retried; while
    /// the reply is arriving it waits on, until nothing has arrived for `heartbeatTimeout`.
    public var loginTimeout: Duration
    /// A ping is sent when nothing arrived for this long. The default, 270 s, is the heartbeat
    /// sweep's pick (docs/HEARTBEAT.md): below the cellular profiles' 5-minute NAT timeout with
    /// 30 s to spare, so no idle flow is forgotten, at 1.07× the lowest energy per idle hour.
    public var heartbeatInterval: Duration
    /// A ping is given up when nothing at all (no byte, no frame) has arrived for this long
    /// since it went out: the link is dead, it is closed and reconnected.
    public var heartbeatTimeout: Duration
    /// A request (or ping) unanswered for this long closes the link even while pushes keep
    /// arriving: what the client sends no longer gets through (a connection stuck in
    /// retransmission back-off), and a new connection carries the work. Requests with a longer
    /// timeout are bounded by this one.
    public var unansweredTimeout: Duration
    /// Delays between reconnect attempts.
    public var backoff: Backoff
    /// Requests in flight at most (login, pings and timed-out requests whose reply is still
    /// owed included); more fail at once with `tooManyRequests`.
    public var maximumPendingRequests: Int

    /// A configuration; `maximumPendingRequests` is raised to at least 1.
    public init(
        requestTimeout: Duration = .seconds(15),
        loginTimeout: Duration = .seconds(20),
        heartbeatInterval: Duration = .seconds(270),
        heartbeatTimeout: Duration = .seconds(10),
        unansweredTimeout: Duration = .seconds(30),
        backoff: Backoff = Backoff(),
        maximumPendingRequests: Int = 256
    ) {
        self.requestTimeout = requestTimeout
        self.loginTimeout = loginTimeout
        self.heartbeatInterval = heartbeatInterval
        self.heartbeatTimeout = heartbeatTimeout
        self.unansweredTimeout = unansweredTimeout
        self.backoff = backoff
        self.maximumPendingRequests = max(1, maximumPendingRequests)
    }
}
