package import LowbandDeterminism
package import LowbandWire

/// The connection's logic with no I/O: events go in, actions come out.
///
/// It owns the session state (connecting, logging in, connected, waiting to reconnect), the
/// table of requests in flight by sequence number, the liveness decisions and the back-off.
/// ``Connection`` performs the actions (opens links, sends frames, arms timers). Tests drive it
/// directly, with no sockets and no sleeping, as NIO tests its `*StateMachine` types.
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
package struct ConnectionStateMachine {
    package enum State: Hashable, Sendable {
        case idle
        case connecting(attempt: Int)
        case loggingIn(attempt: Int, loginSequence: UInt32)
        case connected
        case waitingToReconnect(attempt: Int)
        /// Stopped by the owner, or refused by the server (`unauthorized`); nothing more happens.
        case stopped
    }

    /// What a request in flight is for.
    package enum Purpose: Hashable, Sendable {
        case login, ping, caller
    }

    /// Something for the driver to do, in order.
    package enum Action: Hashable, Sendable {
        /// Open a link with the connector.
        case connect
        /// Send the login request with this sequence number and arm its timeout.
        case sendLogin(sequence: UInt32, timeout: Duration)
        /// Send a ping with this sequence number and arm its timeout.
        case sendPing(sequence: UInt32, timeout: Duration)
        /// Send the caller's request with this sequence number and arm its timeout.
        case sendRequest(sequence: UInt32, timeout: Duration)
        /// Arm the timeout of request `sequence` again, `after` from now (replacing one armed).
        case armTimeout(sequence: UInt32, after: Duration)
        /// Hand the reply frame to the request's completion.
        case deliverReply(sequence: UInt32)
        /// Decode the login reply and report ``ConnectionStateMachine/loginSucceeded(now:)`` or a failure.
        case deliverLoginReply(sequence: UInt32)
        /// Hand the push to the engine.
        case deliverPush
        /// Log the frame and drop it; nothing else changes.
        case dropUnexpected(reason: String)
        /// Fail these requests (sorted by sequence) with the error.
        case failRequests([UInt32], ClientError)
        /// Fail a request that never got a sequence number.
        case rejectRequest(ClientError)
        /// Close the current link (its close is then reported with ``linkClosed(error:)``).
        case closeLink(ClientError)
        /// Arm the reconnect timer.
        case scheduleReconnect(after: Duration)
        /// Arm the heartbeat timer (every `heartbeatInterval` while connected).
        case scheduleHeartbeat(after: Duration)
        /// Cancel the reconnect and heartbeat timers.
        case cancelTimers
        /// A session started: the login reply was applied; tell the engine.
        case reportLoggedIn
        /// The session ended (or an attempt failed); tell the engine.
        case reportDisconnected(ClientError)
        /// Nothing more will happen; tell the engine why.
        case reportStopped(ClientError)
    }

    package private(set) var state: State = .idle
    package let configuration: ConnectionConfiguration
    private var generator: SeededGenerator
    private var pending: [UInt32: Request] = [:]
    private var lastSequence: UInt32 = 0
    /// When the last byte or frame arrived on the current link.
    private var lastReceived: Duration = .zero
    private var pingInFlight: UInt32?

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

    package init(configuration: ConnectionConfiguration = ConnectionConfiguration(), generator: SeededGenerator) {
        self.configuration = configuration
        self.generator = generator
    }

    /// Requests waiting for a reply: login and pings included, and requests that timed out
    /// whose reply is still owed (kept until it arrives or the link closes, at most
    /// `unansweredTimeout`). Never more than `maximumPendingRequests` callers' requests.
    package var pendingCount: Int { pending.count }

    package var isLoggedIn: Bool { state == .connected }

    // MARK: - Lifecycle

    package mutating func start() -> [Action] {
        guard state == .idle else { return [] }
        state = .connecting(attempt: 0)
        return [.connect]
    }

    package mutating func stop() -> [Action] {
        let wasLinked: Bool
        switch state {
        case .stopped: return []
        case .loggingIn, .connected: wasLinked = true
        case .idle, .connecting, .waitingToReconnect: wasLinked = false
        }
        state = .stopped
        let error = ClientError(.stopped, "the connection was stopped")
        var actions: [Action] = [.cancelTimers]
        actions += failAll(error)
        if wasLinked { actions.append(.closeLink(error)) }
        actions.append(.reportStopped(error))
        return actions
    }

    // MARK: - Link events

    package mutating func linkOpened(now: Duration) -> [Action] {
        guard case .connecting(let attempt) = state else { return [.closeLink(ClientError(.stopped, "a link opened after the connection moved on"))] }
        let sequence = allocate(.login, at: now)
        lastReceived = now
        state = .loggingIn(attempt: attempt, loginSequence: sequence)
        return [.sendLogin(sequence: sequence, timeout: configuration.loginTimeout)]
    }

    package mutating func connectFailed(_ error: ClientError) -> [Action] {
        guard case .connecting(let attempt) = state else { return [] }
        return waitToReconnect(attempt: attempt + 1, reason: error)
    }

    package mutating func reconnectTimerFired() -> [Action] {
        guard case .waitingToReconnect(let attempt) = state else { return [] }
        state = .connecting(attempt: attempt)
        return [.connect]
    }

    /// The link closed (either side, or broken). Requests in flight fail with `connectionLost`.
    package mutating func linkClosed(error: ClientError?) -> [Action] {
        let nextAttempt: Int
        switch state {
        case .connected: nextAttempt = 0
        case .loggingIn(let attempt, _): nextAttempt = attempt + 1
        case .idle, .connecting, .waitingToReconnect, .stopped: return []
        }
        let reason = error ?? ClientError(.connectionLost, "the link closed")
        let lost = ClientError(.connectionLost, "the link closed with the request in flight: \(reason.message)")
        var actions: [Action] = [.cancelTimers]
        actions += failAll(lost)
        actions += waitToReconnect(attempt: nextAttempt, reason: reason)
        return actions
    }

    // MARK: - Login outcome (decoded by the driver)

    package mutating func loginSucceeded(now: Duration) -> [Action] {
        guard case .loggingIn = state else { return [] }
        state = .connected
        lastReceived = now
        return [.reportLoggedIn, .scheduleHeartbeat(after: configuration.heartbeatInterval)]
    }

    /// The login reply was an error or unreadable. `unauthorized` stops for good; anything else
    /// drops the link and retries with back-off.
    package mutating func loginFailed(_ error: ClientError) -> [Action] {
        guard case .loggingIn = state else { return [] }
        if error.code == .unauthorized {
            state = .stopped
            return [.cancelTimers] + failAll(error) + [.closeLink(error), .reportStopped(error)]
        }
        return [.closeLink(error)]
    }

    // MARK: - Frames

    /// Bytes arrived (part of a frame, perhaps): the way down is alive. Nothing to do now; the
    /// timers read it when they fire.
    package mutating func receivedBytes(now: Duration) {
        switch state {
        case .loggingIn, .connected: lastReceived = now
        case .idle, .connecting, .waitingToReconnect, .stopped: break
        }
    }

    /// A frame arrived. Responses are matched to requests by sequence number and command.
    package mutating func received(flags: FrameFlags, command: Command, sequence: UInt32, now: Duration) -> [Action] {
        switch state {
        case .loggingIn, .connected: break
        case .idle, .connecting, .waitingToReconnect, .stopped:
            return [.dropUnexpected(reason: "\(command) frame #\(sequence) arrived with no session")]
        }
        lastReceived = now
        if flags.contains(.push) {
            // The server sends the login reply before any push, so a push first means the reply
            // was lost on the way: the login would wait for it while pushes keep the link busy,
            // and the cache would take them as continuing what it had (hiding the gap for
            // good). Drop the link; the next login's delta sync brings what was pushed.
            guard state == .connected else {
                return [.closeLink(ClientError(.connectionLost, "\(command) push #\(sequence) arrived before the login reply: the reply was lost; reconnecting"))]
            }
            return [.deliverPush]
        }
        guard flags.contains(.response) else {
            return [.dropUnexpected(reason: "\(command) request #\(sequence) from the server; the client serves no requests")]
        }
        guard let request = pending[sequence] else {
            return [.dropUnexpected(reason: "\(command) reply #\(sequence) answers no request in flight")]
        }
        let expected = Self.expectedCommand(for: request)
        if let expected, expected != command {
            return [.dropUnexpected(reason: "\(command) reply #\(sequence) answers a \(expected) request")]
        }
        pending[sequence] = nil
        if request.abandoned {
            return [.dropUnexpected(reason: "\(command) reply #\(sequence) arrived after its request timed out")]
        }
        switch request.purpose {
        case .login: return [.deliverLoginReply(sequence: sequence)]
        case .ping:
            pingInFlight = nil
            return []
        case .caller:
            return [.deliverReply(sequence: sequence)]
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

    /// The owner wants to send a request of `command` at `now`; it fails with `timedOut` after
    /// `timeout` (nil: the configuration's `requestTimeout`).
    package mutating func sendRequest(command: Command, timeout: Duration? = nil, now: Duration) -> [Action] {
        guard state == .connected else {
            let reason = state == .stopped ? ClientError(.stopped, "the connection is stopped") : ClientError(.notConnected, "\(command) needs a logged-in session")
            return [.rejectRequest(reason)]
        }
        guard pending.count < configuration.maximumPendingRequests else {
            return [.rejectRequest(ClientError(.tooManyRequests, "\(pending.count) requests are already in flight"))]
        }
        let sequence = allocate(.caller, at: now, command: command)
        let timeout = timeout ?? configuration.requestTimeout
        return [.sendRequest(sequence: sequence, timeout: min(timeout, configuration.unansweredTimeout))]
    }

    /// The timeout of request `sequence` fired at `now`.
    ///
    /// - A caller's request fails with `timedOut`; the link stays, and the reply stays owed.
    /// - Any request unanswered for `unansweredTimeout` closes the link: the way up is stuck.
    /// - A ping, or a login whose reply has begun to arrive, waits while bytes keep arriving;
    ///   once nothing has arrived for `heartbeatTimeout` the link is dead and is closed.
    package mutating func requestTimedOut(sequence: UInt32, now: Duration) -> [Action] {
        guard var request = pending[sequence] else { return [] }
        let age = now - request.sentAt
        let quiet = now - lastReceived
        let silence = configuration.heartbeatTimeout
        switch request.purpose {
        case .caller:
            let command = request.command.map { "\($0)" } ?? "request"
            if age >= configuration.unansweredTimeout {
                return [.closeLink(ClientError(
                    .timedOut, "\(command) #\(sequence) has had no reply for \(age) while the link stayed up: nothing sent gets through; reconnecting"))]
            }
            guard !request.abandoned else {
                return [.armTimeout(sequence: sequence, after: configuration.unansweredTimeout - age)]
            }
            request.abandoned = true
            pending[sequence] = request
            return [
                .failRequests([sequence], ClientError(.timedOut, "\(command) #\(sequence) got no reply in time")),
                .armTimeout(sequence: sequence, after: configuration.unansweredTimeout - age),
            ]
        case .login:
            if lastReceived > request.sentAt, quiet < silence {
                return [.armTimeout(sequence: sequence, after: silence - quiet)]
            }
            pending[sequence] = nil
            return [.closeLink(ClientError(.timedOut, "the login got no reply in time"))]
        case .ping:
            if age >= configuration.unansweredTimeout {
                pending[sequence] = nil
                pingInFlight = nil
                return [.closeLink(ClientError(.timedOut, "the heartbeat ping has had no reply for \(age) while frames kept arriving: nothing sent gets through; reconnecting"))]
            }
            if quiet < silence {
                return [.armTimeout(sequence: sequence, after: min(silence - quiet, configuration.unansweredTimeout - age))]
            }
            pending[sequence] = nil
            pingInFlight = nil
            return [.closeLink(ClientError(.timedOut, "the heartbeat ping got no reply and nothing arrived for \(quiet): the link is dead"))]
        }
    }

    /// The heartbeat timer fired: ping when the link has been quiet for a heartbeat interval,
    /// else look again when it will have been.
    package mutating func heartbeatTimerFired(now: Duration) -> [Action] {
        guard state == .connected else { return [] }
        let quiet = now - lastReceived
        guard pingInFlight == nil, quiet >= configuration.heartbeatInterval else {
            // Check again when the link will have been quiet for a whole interval.
            let remaining = configuration.heartbeatInterval - quiet
            return [.scheduleHeartbeat(after: remaining > .zero ? remaining : configuration.heartbeatInterval)]
        }
        let sequence = allocate(.ping, at: now)
        pingInFlight = sequence
        return [
            .scheduleHeartbeat(after: configuration.heartbeatInterval),
            .sendPing(sequence: sequence, timeout: min(configuration.heartbeatTimeout, configuration.unansweredTimeout)),
        ]
    }

    // MARK: - Helpers

    private mutating func allocate(_ purpose: Purpose, at now: Duration, command: Command? = nil) -> UInt32 {
        repeat {
            lastSequence = lastSequence == .max ? 1 : lastSequence + 1
        } while pending[lastSequence] != nil
        pending[lastSequence] = Request(purpose: purpose, sentAt: now, command: command)
        return lastSequence
    }

    /// Fails the callers still waiting (not those already told `timedOut`), in sequence order.
    private mutating func failAll(_ error: ClientError) -> [Action] {
        let callers = pending.filter { $0.value.purpose == .caller && !$0.value.abandoned }.keys.sorted()
        pending.removeAll()
        pingInFlight = nil
        return callers.isEmpty ? [] : [.failRequests(callers, error)]
    }

    private mutating func waitToReconnect(attempt: Int, reason: ClientError) -> [Action] {
        state = .waitingToReconnect(attempt: attempt)
        let delay = configuration.backoff.delay(attempt: attempt, using: &generator)
        return [.reportDisconnected(reason), .scheduleReconnect(after: delay)]
    }
}
