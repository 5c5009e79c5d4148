/// Something the server did to a connection on its own: refused it or closed it, and why.
///
/// ``MessengerServer/onEvent`` hears each one; `lowband server` prints them to stderr.
public struct ServerEvent: Sendable, Hashable, CustomStringConvertible {
    /// Why; a struct so a new reason never breaks a switch.
    public struct Reason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Over ``ConnectionLimits/maximumConnections``: closed when accepted.
        public static let connectionLimit = Reason(rawValue: "connection-limit")
        /// Nothing either way for ``ConnectionLimits/idleTimeout``.
        public static let idle = Reason(rawValue: "idle")
        /// Not logged in within ``ConnectionLimits/loginTimeout``.
        public static let loginTimeout = Reason(rawValue: "login-timeout")
        /// ``ConnectionLimits/loginFailuresPerConnection`` failed logins.
        public static let loginFailures = Reason(rawValue: "login-failures")
        /// A newer session of the same user went over ``ConnectionLimits/sessionsPerUser``.
        public static let sessionLimit = Reason(rawValue: "session-limit")
        /// Over the outbound high mark with nothing taken for ``ConnectionLimits/outboundStallTimeout``.
        public static let outboundStalled = Reason(rawValue: "outbound-stalled")
        /// Unsent bytes reached ``ConnectionLimits/outboundHardLimit``.
        public static let outboundHardLimit = Reason(rawValue: "outbound-hard-limit")
    }

    /// The server scheduler's time.
    public var time: Duration
    /// The connection's session; nil for a connection refused before it had one.
    public var session: SessionID?
    /// Who the session was logged in as.
    public var userID: Int64?
    /// Why the connection was refused or closed.
    public var reason: Reason
    /// The figures behind the reason, for a person.
    public var detail: String

    /// An event with every field given.
    public init(time: Duration, session: SessionID?, userID: Int64?, reason: Reason, detail: String) {
        self.time = time
        self.session = session
        self.userID = userID
        self.reason = reason
        self.detail = detail
    }

    /// One line: `closed session 3 (user 1): outbound-stalled: …`.
    public var description: String {
        let who = session.map { "session \($0.rawValue)" } ?? "a connection"
        let user = userID.map { " (user \($0))" } ?? ""
        let verb = reason == .connectionLimit ? "refused" : "closed"
        return "\(verb) \(who)\(user): \(reason): \(detail)"
    }
}

/// A connection as the server sees it now: who, and how much it has not yet been sent.
public struct ConnectionSnapshot: Sendable, Hashable {
    /// The connection's session.
    public var session: SessionID
    /// Who the session is logged in as; nil before login.
    public var userID: Int64?
    /// Reply and push bytes not yet written to the socket (0 on links that do not say).
    public var queuedOutboundBytes: Int
    /// The most ``queuedOutboundBytes`` has been, measured after each frame sent.
    public var peakQueuedOutboundBytes: Int
    /// Whether the connection is not being read (over its outbound limit, or a login
    /// failure's delay is running).
    public var isReadingHeld: Bool
    /// Scheduler time of the last frame either way or byte in.
    public var lastActivity: Duration
}
