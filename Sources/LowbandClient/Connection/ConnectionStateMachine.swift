import LowbandDeterminism
import LowbandWire

/// The connection's logic with no I/O: each event goes in through its own method, which
/// returns that event's own action for ``Connection`` to perform (nil: nothing to do), as
/// swift-nio writes its `*StateMachine` types.
///
/// It owns the session state (connecting, logging in, connected, waiting to reconnect), the
/// table of requests in flight by sequence number, the liveness decisions and the back-off.
/// ``Connection`` performs the actions (opens links, sends frames, arms timers). Tests drive it
/// directly, with no sockets and no sleeping.
///
/// A link is judged by what arrives, each way on its own evidence:
/// - **The way down** is alive while bytes arrive. A ping, or a login whose reply has started
///   to arrive, is given up only when nothing at all has arrived for `heartbeatTimeout`, so a
///   large reply or a queue of frames on a slow link is not mistaken for a dead one.
/// - **The way up** is alive while the server answers. Pushes prove nothing about it: a TCP
///   connection deep in retransmission back-off can deliver pushes for minutes while nothing
///   the client sends gets through. A request left unanswered for `unansweredTimeout` (even one
///   that already failed with `timedOut`) closes the link, and the reconnect carries the work.
/// - A request's own timeout fails only that request; the link stays.
struct ConnectionStateMachine {
    enum State: Hashable, Sendable {
        case idle
        case connecting(attempt: Int)
        case loggingIn(attempt: Int, loginSequence: UInt32)
        case connected
        case waitingToReconnect(attempt: Int)
        /// Stopped by the owner, or refused by the server (`unauthorized`); nothing more happens.
        case stopped
    }

    /// What a request in flight is for.
    private enum Purpose: Hashable, Sendable {
        case login, ping, caller
    }

    /// A request that owes a reply.
    private struct Request {
        var purpose: Purpose
        var sentAt: Duration
        /// The caller's command, so a reply of the wrong type is recognised.
        var command: Command?
        /// Its caller was already told `timedOut`; a late reply is dropped, but still proves
        /// the way up works.
        var abandoned = false
    }

    /// The end of the connection, for good: what ``stop()`` and a refused token do.
    struct Stopping: Hashable, Sendable {
        /// Callers' requests to fail with `error`, by sequence, ascending (perhaps none).
        var failing: [UInt32]
        /// Whether a link is open and must be closed.
        var closesLink: Bool
        /// Why: `stopped`, or the server's refusal.
        var error: ClientError
    }

    /// The connection is read only through the owner's questions below and, in tests, this.
    private(set) var state: State = .idle
    let configuration: ConnectionConfiguration
    private var generator: SeededGenerator
    private var pending: [UInt32: Request] = [:]
    private var lastSequence: UInt32 = 0
    /// When the last byte or frame arrived on the current link.
    private var lastReceived: Duration = .zero
    private var pingInFlight: UInt32?

    init(configuration: ConnectionConfiguration = ConnectionConfiguration(), generator: SeededGenerator) {
        self.configuration = configuration
        self.generator = generator
    }

    /// Requests waiting for a reply: login and pings included, and requests that timed out
    /// whose reply is still owed (kept until it arrives or the link closes, at most
    /// `unansweredTimeout`). Never more than `maximumPendingRequests` callers' requests.
    var pendingCount: Int { pending.count }

    var isLoggedIn: Bool { state == .connected }

    /// Whether a link is being opened (a link that opens now is wanted).
    var isConnecting: Bool {
        if case .connecting = state { return true }
        return false
    }

    // MARK: - Lifecycle

    enum StartAction: Hashable, Sendable {
        /// Open a link with the connector.
        case connect
    }

    mutating func start() -> StartAction? {
        guard state == .idle else { return nil }
        state = .connecting(attempt: 0)
        return .connect
    }

    enum StopAction: Hashable, Sendable {
        /// Cancel the timers, fail the requests, close the link if open, report `stopped`.
        case stop(Stopping)
    }

    mutating func stop() -> StopAction? {
        let closesLink: Bool
        switch state {
        case .stopped: return nil
        case .loggingIn, .connected: closesLink = true
        case .idle, .connecting, .waitingToReconnect: closesLink = false
        }
        state = .stopped
        let error = ClientError(.stopped, "the connection was stopped")
        return .stop(Stopping(failing: failAll(), closesLink: closesLink, error: error))
    }

    // MARK: - Link events

    enum LinkOpenedAction: Hashable, Sendable {
        /// Send the login request with this sequence number and arm its timeout.
        case sendLogin(sequence: UInt32, timeout: Duration)
        /// The connection moved on while the link opened: close it.
        case closeLink(ClientError)
    }

    mutating func linkOpened(now: Duration) -> LinkOpenedAction {
        guard case .connecting(let attempt) = state else { return .closeLink(ClientError(.stopped, "a link opened after the connection moved on")) }
        let sequence = allocate(.login, at: now)
        lastReceived = now
        state = .loggingIn(attempt: attempt, loginSequence: sequence)
        return .sendLogin(sequence: sequence, timeout: configuration.loginTimeout)
    }

    enum ConnectFailedAction: Hashable, Sendable {
        /// Report the disconnect with `reason` and arm the reconnect timer for `after`.
        case waitToReconnect(reason: ClientError, after: Duration)
    }

    mutating func connectFailed(_ error: ClientError) -> ConnectFailedAction? {
        guard case .connecting(let attempt) = state else { return nil }
        return .waitToReconnect(reason: error, after: waitToReconnect(attempt: attempt + 1))
    }

    enum ReconnectTimerFiredAction: Hashable, Sendable {
        /// Open a link with the connector.
        case connect
    }

    mutating func reconnectTimerFired() -> ReconnectTimerFiredAction? {
        guard case .waitingToReconnect(let attempt) = state else { return nil }
        state = .connecting(attempt: attempt)
        return .connect
    }

    enum LinkClosedAction: Hashable, Sendable {
        /// Cancel the timers, fail `failing` (ascending) with `lost`, report the disconnect with
        /// `reason` and arm the reconnect timer for `after`.
        case reconnect(failing: [UInt32], lost: ClientError, reason: ClientError, after: Duration)
    }

    /// The link closed (either side, or broken). Requests in flight fail with `connectionLost`.
    mutating func linkClosed(error: ClientError?) -> LinkClosedAction? {
        let nextAttempt: Int
        switch state {
        case .connected: nextAttempt = 0
        case .loggingIn(let attempt, _): nextAttempt = attempt + 1
        case .idle, .connecting, .waitingToReconnect, .stopped: return nil
        }
        let reason = error ?? ClientError(.connectionLost, "the link closed")
        let lost = ClientError(.connectionLost, "the link closed with the request in flight: \(reason.message)")
        let failing = failAll()
        return .reconnect(failing: failing, lost: lost, reason: reason, after: waitToReconnect(attempt: nextAttempt))
    }

    // MARK: - Login outcome (decoded by the driver)

    enum LoginSucceededAction: Hashable, Sendable {
        /// Tell the engine a session started, and arm the heartbeat timer for `heartbeatAfter`.
        case reportLoggedIn(heartbeatAfter: Duration)
    }

    mutating func loginSucceeded(now: Duration) -> LoginSucceededAction? {
        guard case .loggingIn = state else { return nil }
        state = .connected
        lastReceived = now
        return .reportLoggedIn(heartbeatAfter: configuration.heartbeatInterval)
    }

    enum LoginFailedAction: Hashable, Sendable {
        /// Drop the link; its close brings the reconnect.
        case closeLink(ClientError)
        /// The token was refused: stop for good.
        case stop(Stopping)
    }

    /// The login reply was an error or unreadable. `unauthorized` stops for good; anything else
    /// drops the link and retries with back-off.
    mutating func loginFailed(_ error: ClientError) -> LoginFailedAction? {
        guard case .loggingIn = state else { return nil }
        if error.code == .unauthorized {
            state = .stopped
            return .stop(Stopping(failing: failAll(), closesLink: true, error: error))
        }
        return .closeLink(error)
    }

    // MARK: - Frames

    /// Bytes arrived (part of a frame, perhaps): the way down is alive. Nothing to do now; the
    /// timers read it when they fire.
    mutating func receivedBytes(now: Duration) {
        switch state {
        case .loggingIn, .connected: lastReceived = now
        case .idle, .connecting, .waitingToReconnect, .stopped: break
        }
    }

    enum ReceivedAction: Hashable, Sendable {
        /// Hand the reply frame to the completion of request `sequence`.
        case deliverReply(sequence: UInt32)
        /// Decode the login reply and report ``loginSucceeded(now:)`` or ``loginFailed(_:)``.
        case deliverLoginReply(sequence: UInt32)
        /// Hand the push to the engine.
        case deliverPush
        /// Log the frame and drop it; nothing else changes.
        case dropUnexpected(reason: String)
        /// Close the link (its close is then reported with ``linkClosed(error:)``).
        case closeLink(ClientError)
    }

    /// A frame arrived. Responses are matched to requests by sequence number and command.
    /// A ping's reply needs nothing done (nil).
    mutating func received(flags: FrameFlags, command: Command, sequence: UInt32, now: Duration) -> ReceivedAction? {
        switch state {
        case .loggingIn, .connected: break
        case .idle, .connecting, .waitingToReconnect, .stopped:
            return .dropUnexpected(reason: "\(command) frame #\(sequence) arrived with no session")
        }
        lastReceived = now
        if flags.contains(.push) {
            // The server sends the login reply before any push, so a push first means the reply
            // was lost on the way: the login would wait for it while pushes keep the link busy,
            // and the cache would take them as continuing what it had (hiding the gap for
            // good). Drop the link; the next login's delta sync brings what was pushed.
            guard state == .connected else {
                return .closeLink(ClientError(.connectionLost, "\(command) push #\(sequence) arrived before the login reply: the reply was lost; reconnecting"))
            }
            return .deliverPush
        }
        guard flags.contains(.response) else {
            return .dropUnexpected(reason: "\(command) request #\(sequence) from the server; the client serves no requests")
        }
        guard let request = pending[sequence] else {
            return .dropUnexpected(reason: "\(command) reply #\(sequence) answers no request in flight")
        }
        let expected = Self.expectedCommand(for: request)
        if let expected, expected != command {
            return .dropUnexpected(reason: "\(command) reply #\(sequence) answers a \(expected) request")
        }
        pending[sequence] = nil
        if request.abandoned {
            return .dropUnexpected(reason: "\(command) reply #\(sequence) arrived after its request timed out")
        }
        switch request.purpose {
        case .login: return .deliverLoginReply(sequence: sequence)
        case .ping:
            pingInFlight = nil
            return nil
        case .caller:
            return .deliverReply(sequence: sequence)
        }
    }

    private static func expectedCommand(for request: Request) -> Command? {
        switch request.purpose {
        case .login: .login
        case .ping: .ping
        case .caller: request.command
        }
    }

    // MARK: - Requests

    enum SendRequestAction: Hashable, Sendable {
        /// Send the caller's request with this sequence number and arm its timeout.
        case send(sequence: UInt32, timeout: Duration)
        /// Fail the request at once; it took no sequence number.
        case reject(ClientError)
    }

    /// The owner wants to send a request of `command` at `now`; it fails with `timedOut` after
    /// `timeout` (nil: the configuration's `requestTimeout`).
    mutating func sendRequest(command: Command, timeout: Duration? = nil, now: Duration) -> SendRequestAction {
        guard state == .connected else {
            let reason = state == .stopped ? ClientError(.stopped, "the connection is stopped") : ClientError(.notConnected, "\(command) needs a logged-in session")
            return .reject(reason)
        }
        guard pending.count < configuration.maximumPendingRequests else {
            return .reject(ClientError(.tooManyRequests, "\(pending.count) requests are already in flight"))
        }
        let sequence = allocate(.caller, at: now, command: command)
        let timeout = timeout ?? configuration.requestTimeout
        return .send(sequence: sequence, timeout: min(timeout, configuration.unansweredTimeout))
    }

    enum RequestTimedOutAction: Hashable, Sendable {
        /// Arm the request's timeout again, `after` from now.
        case rearm(after: Duration)
        /// Fail the caller's request with the error; its reply stays owed: arm its timeout
        /// again, `rearmAfter` from now.
        case fail(ClientError, rearmAfter: Duration)
        /// Close the link (its close is then reported with ``linkClosed(error:)``).
        case closeLink(ClientError)
    }

    /// The timeout of request `sequence` fired at `now`.
    ///
    /// - A caller's request fails with `timedOut`; the link stays, and the reply stays owed.
    /// - Any request unanswered for `unansweredTimeout` closes the link: the way up is stuck.
    /// - A ping, or a login whose reply has begun to arrive, waits while bytes keep arriving;
    ///   once nothing has arrived for `heartbeatTimeout` the link is dead and is closed.
    mutating func requestTimedOut(sequence: UInt32, now: Duration) -> RequestTimedOutAction? {
        guard var request = pending[sequence] else { return nil }
        let age = now - request.sentAt
        let quiet = now - lastReceived
        let silence = configuration.heartbeatTimeout
        switch request.purpose {
        case .caller:
            let command = request.command.map { "\($0)" } ?? "request"
            if age >= configuration.unansweredTimeout {
                return .closeLink(ClientError(
                    .timedOut, "\(command) #\(sequence) has had no reply for \(age) while the link stayed up: nothing sent gets through; reconnecting"))
            }
            guard !request.abandoned else {
                return .rearm(after: configuration.unansweredTimeout - age)
            }
            request.abandoned = true
            pending[sequence] = request
            return .fail(ClientError(.timedOut, "\(command) #\(sequence) got no reply in time"), rearmAfter: configuration.unansweredTimeout - age)
        case .login:
            if lastReceived > request.sentAt, quiet < silence {
                return .rearm(after: silence - quiet)
            }
            pending[sequence] = nil
            return .closeLink(ClientError(.timedOut, "the login got no reply in time"))
        case .ping:
            if age >= configuration.unansweredTimeout {
                pending[sequence] = nil
                pingInFlight = nil
                return .closeLink(ClientError(.timedOut, "the heartbeat ping has had no reply for \(age) while frames kept arriving: nothing sent gets through; reconnecting"))
            }
            if quiet < silence {
                return .rearm(after: min(silence - quiet, configuration.unansweredTimeout - age))
            }
            pending[sequence] = nil
            pingInFlight = nil
            return .closeLink(ClientError(.timedOut, "the heartbeat ping got no reply and nothing arrived for \(quiet): the link is dead"))
        }
    }

    enum HeartbeatTimerFiredAction: Hashable, Sendable {
        /// The link was not quiet long enough (or a ping is in flight): arm the heartbeat timer
        /// for `after`.
        case checkAgain(after: Duration)
        /// Arm the heartbeat timer for `nextHeartbeat`, then send a ping with this sequence
        /// number and arm its timeout.
        case sendPing(sequence: UInt32, timeout: Duration, nextHeartbeat: Duration)
    }

    /// The heartbeat timer fired: ping when the link has been quiet for a heartbeat interval,
    /// else look again when it will have been.
    mutating func heartbeatTimerFired(now: Duration) -> HeartbeatTimerFiredAction? {
        guard state == .connected else { return nil }
        let quiet = now - lastReceived
        guard pingInFlight == nil, quiet >= configuration.heartbeatInterval else {
            // Check again when the link will have been quiet for a whole interval.
            let remaining = configuration.heartbeatInterval - quiet
            return .checkAgain(after: remaining > .zero ? remaining : configuration.heartbeatInterval)
        }
        let sequence = allocate(.ping, at: now)
        pingInFlight = sequence
        return .sendPing(
            sequence: sequence, timeout: min(configuration.heartbeatTimeout, configuration.unansweredTimeout),
            nextHeartbeat: configuration.heartbeatInterval)
    }

    // MARK: - Helpers

    private mutating func allocate(_ purpose: Purpose, at now: Duration, command: Command? = nil) -> UInt32 {
        repeat {
            lastSequence = lastSequence == .max ? 1 : lastSequence + 1
        } while pending[lastSequence] != nil
        pending[lastSequence] = Request(purpose: purpose, sentAt: now, command: command)
        return lastSequence
    }

    /// Forgets every request; returns the callers still waiting (not those already told
    /// `timedOut`), in sequence order, for the driver to fail.
    private mutating func failAll() -> [UInt32] {
        let callers = pending.filter { $0.value.purpose == .caller && !$0.value.abandoned }.keys.sorted()
        pending.removeAll()
        pingInFlight = nil
        return callers
    }

    /// Moves to waiting and returns the back-off delay of `attempt`.
    private mutating func waitToReconnect(attempt: Int) -> Duration {
        state = .waitingToReconnect(attempt: attempt)
        return configuration.backoff.delay(attempt: attempt, using: &generator)
    }
}
