/// One connection's standing against ``ConnectionLimits``: when it was last active, whether it
/// has logged in, how long it has been over its outbound limit, how many logins failed.
///
/// A state machine with no I/O and no clock: ``MessengerServer`` feeds it what happened with
/// the scheduler's time, arms one timer for ``deadline``, and when it fires asks ``check(at:outboundBytesWritten:)``
/// whether to close the connection. Tested without sockets or sleeping.
package struct SessionGuard: Sendable, Hashable {
    /// Why a connection must close, and the figures behind it.
    package struct Closing: Sendable, Hashable {
        package var reason: ServerEvent.Reason
        package var detail: String
    }

    /// How to answer a failed login.
    package struct LoginFailure: Sendable, Hashable {
        /// How long to wait before answering; the connection is not read meanwhile.
        package var delay: Duration
        /// Whether to close the connection once answered.
        package var closesAfterAnswer: Bool
    }

    package let limits: ConnectionLimits
    package let openedAt: Duration
    package private(set) var lastActivity: Duration
    package private(set) var isLoggedIn = false
    package private(set) var loginFailures = 0
    /// When the session last went over its outbound high mark, or last showed progress while
    /// over it; nil while under.
    package private(set) var stalledSince: Duration?
    private var writtenAtStall = 0

    package init(limits: ConnectionLimits, openedAt: Duration) {
        self.limits = limits
        self.openedAt = openedAt
        lastActivity = openedAt
    }

    /// A frame went either way, or bytes arrived.
    package mutating func active(at now: Duration) {
        lastActivity = max(lastActivity, now)
    }

    package mutating func loginSucceeded() {
        isLoggedIn = true
        loginFailures = 0
    }

    /// A login was refused: answer after a delay that doubles with each failure — this
    /// connection's, or its source address's when those are more (`addressFailures`, from
    /// ``LoginBackoff``) — up to ``ConnectionLimits/loginFailureDelayCap``; the last one allowed
    /// on a connection closes it after its answer.
    package mutating func loginFailed(addressFailures: Int = 0) -> LoginFailure {
        loginFailures += 1
        let doublings = min(max(loginFailures, addressFailures) - 1, 16)
        return LoginFailure(
            delay: min(limits.loginFailureDelay * (1 << doublings), limits.loginFailureDelayCap),
            closesAfterAnswer: loginFailures >= limits.loginFailuresPerConnection
        )
    }

    /// The link went over its outbound high mark (`true`) or back under its low one.
    /// `written` is the link's `LowbandTransport/FlowControlledFrameLink/outboundBytesWritten`.
    package mutating func outboundLimitCrossed(isOver: Bool, at now: Duration, written: Int) {
        if isOver {
            stalledSince = now
            writtenAtStall = written
        } else {
            stalledSince = nil
        }
    }

    /// When ``check(at:outboundBytesWritten:)`` should next run: the earliest time a limit can
    /// be reached if nothing else happens.
    package var deadline: Duration {
        var deadline = lastActivity + limits.idleTimeout
        if !isLoggedIn { deadline = min(deadline, openedAt + limits.loginTimeout) }
        if let stalledSince { deadline = min(deadline, stalledSince + limits.outboundStallTimeout) }
        return deadline
    }

    /// Whether the connection must close at `now`. A session over its outbound mark whose
    /// client took bytes since the last check is given another ``ConnectionLimits/outboundStallTimeout``.
    package mutating func check(at now: Duration, outboundBytesWritten written: Int) -> Closing? {
        if let since = stalledSince, now >= since + limits.outboundStallTimeout {
            if written > writtenAtStall {
                stalledSince = now
                writtenAtStall = written
            } else {
                return Closing(
                    reason: .outboundStalled,
                    detail: "over the outbound limit of \(limits.outbound.highWaterMark) bytes and the client took nothing for \(Self.text(limits.outboundStallTimeout))")
            }
        }
        if !isLoggedIn, now >= openedAt + limits.loginTimeout {
            return Closing(reason: .loginTimeout, detail: "not logged in \(Self.text(limits.loginTimeout)) after connecting")
        }
        if now >= lastActivity + limits.idleTimeout {
            return Closing(reason: .idle, detail: "no frame either way for \(Self.text(limits.idleTimeout))")
        }
        return nil
    }

    static func text(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
