/// Timeouts, heartbeat and back-off of a ``Connection``; every argument has a default.
public struct ConnectionConfiguration: Hashable, Sendable {
    /// How long a request waits for its reply before failing with `timedOut`.
    public var requestTimeout: Duration
    /// How long the login waits for its reply before the link is dropped and retried.
    public var loginTimeout: Duration
    /// A ping is sent when nothing arrived for this long.
    public var heartbeatInterval: Duration
    /// A ping unanswered for this long means the link is dead: it is closed and reconnected.
    public var heartbeatTimeout: Duration
    public var backoff: Backoff
    /// Requests in flight at most; more fail at once with `tooManyRequests`.
    public var maximumPendingRequests: Int

    public init(
        requestTimeout: Duration = .seconds(15),
        loginTimeout: Duration = .seconds(20),
        heartbeatInterval: Duration = .seconds(20),
        heartbeatTimeout: Duration = .seconds(10),
        backoff: Backoff = Backoff(),
        maximumPendingRequests: Int = 256
    ) {
        self.requestTimeout = requestTimeout
        self.loginTimeout = loginTimeout
        self.heartbeatInterval = heartbeatInterval
        self.heartbeatTimeout = heartbeatTimeout
        self.backoff = backoff
        self.maximumPendingRequests = max(1, maximumPendingRequests)
    }
}
