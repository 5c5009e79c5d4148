public import LowbandDeterminism
public import LowbandWire

/// The connection's logic with no I/O: events go in, actions come out.
///
/// It owns the session state (connecting, logging in, connected, waiting to reconnect), the
/// table of requests in flight by sequence number, the heartbeat decision and the back-off.
/// ``Connection`` performs the actions (opens links, sends frames, arms timers). Tests drive it
/// directly, with no sockets and no sleeping, as NIO tests its `*StateMachine` types.
public struct ConnectionStateMachine {
    public enum State: Hashable, Sendable {
        case idle
        case connecting(attempt: Int)
        case loggingIn(attempt: Int, loginSequence: UInt32)
        case connected
        case waitingToReconnect(attempt: Int)
        /// Stopped by the owner, or refused by the server (`unauthorized`); nothing more happens.
        case stopped
    }

    /// What a request in flight is for.
    public enum Purpose: Hashable, Sendable {
        case login, ping, caller
    }

    /// Something for the driver to do, in order.
    public enum Action: Hashable, Sendable {
        /// Open a link with the connector.
        case connect
        /// Send the login request with this sequence number and arm its timeout.
        case sendLogin(sequence: UInt32, timeout: Duration)
        /// Send a ping with this sequence number and arm its timeout.
        case sendPing(sequence: UInt32, timeout: Duration)
        /// Send the caller's request with this sequence number and arm its timeout.
        case sendRequest(sequence: UInt32, timeout: Duration)
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

    public private(set) var state: State = .idle
    public let configuration: ConnectionConfiguration
    private var generator: SeededGenerator
    private var pending: [UInt32: Purpose] = [:]
    private var lastSequence: UInt32 = 0
    private var lastReceived: Duration = .zero
    private var pingInFlight: UInt32?
    /// Commands of caller requests, recorded so a reply of the wrong type is recognised.
    private var callerCommands: [UInt32: Command] = [:]

    public init(configuration: ConnectionConfiguration = ConnectionConfiguration(), generator: SeededGenerator) {
        self.configuration = configuration
        self.generator = generator
    }

    /// Requests waiting for a reply, login and pings included.
    public var pendingCount: Int { pending.count }

    public var isLoggedIn: Bool { state == .connected }

    // MARK: - Lifecycle

    public mutating func start() -> [Action] {
        guard state == .idle else { return [] }
        state = .connecting(attempt: 0)
        return [.connect]
    }

    public mutating func stop() -> [Action] {
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

    public mutating func linkOpened(now: Duration) -> [Action] {
        guard case .connecting(let attempt) = state else { return [.closeLink(ClientError(.stopped, "a link opened after the connection moved on"))] }
        let sequence = allocate(.login)
        lastReceived = now
        state = .loggingIn(attempt: attempt, loginSequence: sequence)
        return [.sendLogin(sequence: sequence, timeout: configuration.loginTimeout)]
    }

    public mutating func connectFailed(_ error: ClientError) -> [Action] {
        guard case .connecting(let attempt) = state else { return [] }
        return waitToReconnect(attempt: attempt + 1, reason: error)
    }

    public mutating func reconnectTimerFired() -> [Action] {
        guard case .waitingToReconnect(let attempt) = state else { return [] }
        state = .connecting(attempt: attempt)
        return [.connect]
    }

    /// The link closed (either side, or broken). Requests in flight fail with `connectionLost`.
    public mutating func linkClosed(error: ClientError?) -> [Action] {
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

    public mutating func loginSucceeded(now: Duration) -> [Action] {
        guard case .loggingIn = state else { return [] }
        state = .connected
        lastReceived = now
        return [.reportLoggedIn, .scheduleHeartbeat(after: configuration.heartbeatInterval)]
    }

    /// The login reply was an error or unreadable. `unauthorized` stops for good; anything else
    /// drops the link and retries with back-off.
    public mutating func loginFailed(_ error: ClientError) -> [Action] {
        guard case .loggingIn = state else { return [] }
        if error.code == .unauthorized {
            state = .stopped
            return [.cancelTimers] + failAll(error) + [.closeLink(error), .reportStopped(error)]
        }
        return [.closeLink(error)]
    }

    // MARK: - Frames

    /// A frame arrived. Responses are matched to requests by sequence number and command.
    public mutating func received(flags: FrameFlags, command: Command, sequence: UInt32, now: Duration) -> [Action] {
        switch state {
        case .loggingIn, .connected: break
        case .idle, .connecting, .waitingToReconnect, .stopped:
            return [.dropUnexpected(reason: "\(command) frame #\(sequence) arrived with no session")]
        }
        lastReceived = now
        if flags.contains(.push) {
            return [.deliverPush]
        }
        guard flags.contains(.response) else {
            return [.dropUnexpected(reason: "\(command) request #\(sequence) from the server; the client serves no requests")]
        }
        guard let purpose = pending[sequence] else {
            return [.dropUnexpected(reason: "\(command) reply #\(sequence) answers no request in flight")]
        }
        let expected = expectedCommand(for: purpose, sequence: sequence)
        if let expected, expected != command {
            return [.dropUnexpected(reason: "\(command) reply #\(sequence) answers a \(expected) request")]
        }
        pending[sequence] = nil
        switch purpose {
        case .login: return [.deliverLoginReply(sequence: sequence)]
        case .ping:
            pingInFlight = nil
            return []
        case .caller:
            callerCommands[sequence] = nil
            return [.deliverReply(sequence: sequence)]
        }
    }

    private func expectedCommand(for purpose: Purpose, sequence: UInt32) -> Command? {
        switch purpose {
        case .login: .login
        case .ping: .ping
        case .caller: callerCommands[sequence]
        }
    }

    // MARK: - Requests

    /// The owner wants to send a request of `command`.
    public mutating func sendRequest(command: Command, timeout: Duration? = nil) -> [Action] {
        guard state == .connected else {
            let reason = state == .stopped ? ClientError(.stopped, "the connection is stopped") : ClientError(.notConnected, "\(command) needs a logged-in session")
            return [.rejectRequest(reason)]
        }
        guard pending.count < configuration.maximumPendingRequests else {
            return [.rejectRequest(ClientError(.tooManyRequests, "\(pending.count) requests are already in flight"))]
        }
        let sequence = allocate(.caller)
        callerCommands[sequence] = command
        return [.sendRequest(sequence: sequence, timeout: timeout ?? configuration.requestTimeout)]
    }

    public mutating func requestTimedOut(sequence: UInt32) -> [Action] {
        guard let purpose = pending.removeValue(forKey: sequence) else { return [] }
        switch purpose {
        case .caller:
            let command = callerCommands.removeValue(forKey: sequence).map { "\($0)" } ?? "request"
            return [.failRequests([sequence], ClientError(.timedOut, "\(command) #\(sequence) got no reply in time"))]
        case .login:
            return [.closeLink(ClientError(.timedOut, "the login got no reply in time"))]
        case .ping:
            pingInFlight = nil
            return [.closeLink(ClientError(.timedOut, "the heartbeat ping got no reply in time: the link is dead"))]
        }
    }

    /// The heartbeat timer fired: ping when the link has been quiet for a heartbeat interval,
    /// else look again when it will have been.
    public mutating func heartbeatTimerFired(now: Duration) -> [Action] {
        guard state == .connected else { return [] }
        let quiet = now - lastReceived
        guard pingInFlight == nil, quiet >= configuration.heartbeatInterval else {
            // Check again when the link will have been quiet for a whole interval.
            let remaining = configuration.heartbeatInterval - quiet
            return [.scheduleHeartbeat(after: remaining > .zero ? remaining : configuration.heartbeatInterval)]
        }
        let sequence = allocate(.ping)
        pingInFlight = sequence
        return [
            .scheduleHeartbeat(after: configuration.heartbeatInterval),
            .sendPing(sequence: sequence, timeout: configuration.heartbeatTimeout),
        ]
    }

    // MARK: - Helpers

    private mutating func allocate(_ purpose: Purpose) -> UInt32 {
        repeat {
            lastSequence = lastSequence == .max ? 1 : lastSequence + 1
        } while pending[lastSequence] != nil
        pending[lastSequence] = purpose
        return lastSequence
    }

    private mutating func failAll(_ error: ClientError) -> [Action] {
        let callers = pending.filter { $0.value == .caller }.keys.sorted()
        pending.removeAll()
        callerCommands.removeAll()
        pingInFlight = nil
        return callers.isEmpty ? [] : [.failRequests(callers, error)]
    }

    private mutating func waitToReconnect(attempt: Int, reason: ClientError) -> [Action] {
        state = .waitingToReconnect(attempt: attempt)
        let delay = configuration.backoff.delay(attempt: attempt, using: &generator)
        return [.reportDisconnected(reason), .scheduleReconnect(after: delay)]
    }
}
