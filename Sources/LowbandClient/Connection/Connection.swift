public import LowbandDeterminism
public import LowbandTransport
public import LowbandWire

/// The client's session with the server: connects, logs in, multiplexes requests by sequence
/// number, keeps the link alive with pings and reconnects with back-off, logging in again with
/// the cache's `lastSync` each time (delta sync).
///
/// The decisions are `ConnectionStateMachine`'s; this class performs them on a
/// `FrameConnector`'s links and arms timers on the `Scheduler`. It is confined to that
/// scheduler: call it there, and its completions and events arrive there.
public final class Connection {
    /// Receives the session's events (logged in, pushes, disconnects); held weakly.
    public weak var observer: (any ConnectionObserver)?
    /// The scheduler the connection is confined to and arms its timers on.
    public let scheduler: any Scheduler
    /// Counters since the connection was made; read on its scheduler.
    public private(set) var statistics = ConnectionStatistics()

    private var machine: ConnectionStateMachine
    private let connector: any FrameConnector
    private let loginRequest: () -> LoginRequest
    private let log: ClientLog
    private var link: (any FrameLink)?
    private var connectToken: UInt64 = 0
    private var calls: [UInt32: (Result<Frame, ClientError>) -> Void] = [:]
    private var timeouts: [UInt32: ScheduledWork] = [:]
    private var reconnectTimer: ScheduledWork?
    private var heartbeatTimer: ScheduledWork?
    /// The wire dictionary this link's login agreed (docs/PROTOCOL.md, "Compression dictionaries").
    private var dictionaries = DictionaryAgreement()

    /// - Parameters:
    ///   - connector: opens the links to the server.
    ///   - scheduler: runs every timer (request timeouts, heartbeats, back-off).
    ///   - configuration: time-outs, heartbeats and back-off.
    ///   - loginRequest: called before each login for the token and the cache's `lastSync`.
    ///   - generator: the stream the back-off jitter is drawn from.
    ///   - log: where connection events are recorded.
    public init(
        connector: any FrameConnector,
        scheduler: any Scheduler,
        configuration: ConnectionConfiguration = ConnectionConfiguration(),
        generator: SeededGenerator,
        log: ClientLog,
        loginRequest: @escaping () -> LoginRequest
    ) {
        self.connector = connector
        self.scheduler = scheduler
        self.machine = ConnectionStateMachine(configuration: configuration, generator: generator)
        self.log = log
        self.loginRequest = loginRequest
    }

    /// True while a session is logged in and requests can be sent.
    public var isLoggedIn: Bool { machine.isLoggedIn }
    /// The time-outs, heartbeat and back-off the connection was made with.
    public var configuration: ConnectionConfiguration { machine.configuration }

    /// Requests owing a reply, as `ConnectionStateMachine/pendingCount` counts them; at most
    /// `configuration.maximumPendingRequests` of them are callers' requests.
    public var pendingRequestCount: Int { machine.pendingCount }

    /// Starts connecting; reconnects until ``stop()`` or a refused token.
    public func start() {
        guard case .connect = machine.start() else { return }
        connect()
    }

    /// Fails requests in flight with `stopped`, closes the link and cancels every timer.
    public func stop() {
        guard case .stop(let stopping) = machine.stop() else { return }
        stop(stopping)
    }

    /// Sends `request` and calls `completion` on the scheduler with its reply or the reason
    /// there is none. Fails with `notConnected` unless a session is logged in: callers that
    /// must wait for the network (the outbox) wait for the `loggedIn` event themselves.
    public func send<R: WireRequest>(_ request: R, timeout: Duration? = nil, completion: @escaping (Result<R.Reply, ClientError>) -> Void) {
        // Encoded first, so a request that cannot be encoded takes no sequence number; the frame
        // is made once its number is known.
        let payload: [UInt8]
        do {
            payload = try request.messagePackBytes()
        } catch {
            let failure = ClientError(.encodingFailed, "cannot encode \(R.command): \(error)")
            scheduler.execute { completion(.failure(failure)) }
            return
        }
        switch machine.sendRequest(command: R.command, timeout: timeout, now: scheduler.now) {
        case .send(let sequence, let timeout):
            calls[sequence] = { result in
                completion(result.flatMap { Self.decodeReply(R.Reply.self, from: $0) })
            }
            transmit(Frame(command: R.command, sequence: sequence, payload: payload))
            armTimeout(sequence: sequence, after: timeout)
        case .reject(let error):
            scheduler.execute { completion(.failure(error)) }
        }
    }

    // MARK: - Performing actions

    /// Cancels the timers, fails the requests, closes the link and reports the stop.
    private func stop(_ stopping: ConnectionStateMachine.Stopping) {
        cancelTimers()
        fail(stopping.failing, with: stopping.error)
        if stopping.closesLink { closeLink(stopping.error) }
        log.record(ClientLogEntry(time: scheduler.now, level: stopping.error.code == .stopped ? .info : .error, event: "stopped", message: stopping.error.description))
        observer?.connection(self, didEmit: .stopped(stopping.error))
    }

    private func perform(_ action: ConnectionStateMachine.LinkClosedAction?) {
        guard case .reconnect(let failing, let lost, let reason, let delay) = action else { return }
        cancelTimers()
        fail(failing, with: lost)
        waitToReconnect(reason: reason, after: delay)
    }

    private func perform(_ action: ConnectionStateMachine.ConnectFailedAction?) {
        guard case .waitToReconnect(let reason, let delay) = action else { return }
        waitToReconnect(reason: reason, after: delay)
    }

    private func perform(_ action: ConnectionStateMachine.RequestTimedOutAction?, sequence: UInt32) {
        switch action {
        case nil:
            break
        case .rearm(let delay):
            armTimeout(sequence: sequence, after: delay)
        case .fail(let error, let delay):
            // Completing cancels the armed timeout; the reply stays owed, so arm it again.
            complete(sequence, with: .failure(error))
            armTimeout(sequence: sequence, after: delay)
        case .closeLink(let error):
            closeLink(error)
        }
    }

    private func perform(_ action: ConnectionStateMachine.HeartbeatTimerFiredAction?) {
        switch action {
        case nil:
            break
        case .checkAgain(let delay):
            scheduleHeartbeat(after: delay)
        case .sendPing(let sequence, let timeout, let nextHeartbeat):
            scheduleHeartbeat(after: nextHeartbeat)
            statistics.pings += 1
            send(Ping(clientTime: Self.milliseconds(scheduler.now)), sequence: sequence, timeout: timeout)
        }
    }

    /// Reports the session's end and arms the reconnect timer.
    private func waitToReconnect(reason: ClientError, after delay: Duration) {
        statistics.disconnects += 1
        log.record(ClientLogEntry(time: scheduler.now, level: .info, event: "disconnected", message: reason.message))
        observer?.connection(self, didEmit: .disconnected(reason))
        reconnectTimer = scheduler.schedule(after: delay) { [weak self] in
            guard let self else { return }
            self.reconnectTimer = nil
            guard case .connect = self.machine.reconnectTimerFired() else { return }
            self.connect()
        }
    }

    private func scheduleHeartbeat(after delay: Duration) {
        heartbeatTimer = scheduler.schedule(after: delay) { [weak self] in
            guard let self else { return }
            self.heartbeatTimer = nil
            self.perform(self.machine.heartbeatTimerFired(now: self.scheduler.now))
        }
    }

    private func cancelTimers() {
        for timer in [reconnectTimer, heartbeatTimer].compactMap({ $0 }) {
            scheduler.cancel(timer)
        }
        reconnectTimer = nil
        heartbeatTimer = nil
    }

    private func fail(_ sequences: [UInt32], with error: ClientError) {
        for sequence in sequences {
            complete(sequence, with: .failure(error))
        }
    }

    /// The server broke the protocol on this link: logged, and the link closed (the connection
    /// reconnects with back-off).
    private func protocolError(_ error: ClientError) {
        log.record(ClientLogEntry(time: scheduler.now, level: .error, event: "protocolError", message: error.description))
        closeLink(error)
    }

    private func dropUnexpected(_ reason: String) {
        statistics.unexpectedFrames += 1
        log.record(ClientLogEntry(time: scheduler.now, level: .warning, event: "unexpectedReply", message: reason + "; dropped"))
    }

    private func connect() {
        connectToken += 1
        let token = connectToken
        statistics.connectAttempts += 1
        connector.connect { [weak self] result in
            guard let self, token == self.connectToken else {
                if case .success(let link) = result { link.close() }
                return
            }
            switch result {
            case .success(let link):
                guard self.machine.isConnecting else {
                    link.close()
                    return
                }
                self.link = link
                link.delegate = self
                switch self.machine.linkOpened(now: self.scheduler.now) {
                case .sendLogin(let sequence, let timeout):
                    let request = self.loginRequest()
                    self.dictionaries.loginSent(request)
                    self.send(request, sequence: sequence, timeout: timeout)
                case .closeLink(let error):
                    self.closeLink(error)
                }
            case .failure(let error):
                self.perform(self.machine.connectFailed(ClientError(.connectionLost, "cannot connect: \(error)")))
            }
        }
    }

    private func closeLink(_ error: ClientError) {
        guard let link else { return }
        self.link = nil
        dictionaries.reset()
        link.delegate = nil
        link.close()
        perform(machine.linkClosed(error: error))
    }

    private func send<M: WireRequest>(_ message: M, sequence: UInt32, timeout: Duration) {
        do {
            transmit(try Frame.request(message, sequence: sequence))
        } catch {
            log.record(ClientLogEntry(time: scheduler.now, level: .error, event: "encodingFailed", message: "cannot encode \(M.command): \(error)"))
        }
        armTimeout(sequence: sequence, after: timeout)
    }

    private func transmit(_ frame: Frame) {
        let frame = dictionaries.stamped(frame)
        statistics.record(sent: frame)
        link?.send(frame)
    }

    private func armTimeout(sequence: UInt32, after timeout: Duration) {
        if let armed = timeouts[sequence] { scheduler.cancel(armed) }
        timeouts[sequence] = scheduler.schedule(after: timeout) { [weak self] in
            guard let self else { return }
            self.timeouts[sequence] = nil
            self.perform(self.machine.requestTimedOut(sequence: sequence, now: self.scheduler.now), sequence: sequence)
        }
    }

    private func complete(_ sequence: UInt32, with result: Result<Frame, ClientError>) {
        if let timeout = timeouts.removeValue(forKey: sequence) { scheduler.cancel(timeout) }
        calls.removeValue(forKey: sequence)?(result)
    }

    /// Scheduler time in whole milliseconds, the ping's `clientTime` (not a wall-clock time).
    private static func milliseconds(_ time: Duration) -> ServerTime {
        let (seconds, attoseconds) = time.components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }

    private static func decodeReply<Reply: WireMessage>(_ type: Reply.Type, from frame: Frame) -> Result<Reply, ClientError> {
        if frame.flags.contains(.error) {
            return .failure(serverError(frame))
        }
        do {
            return .success(try frame.decode(Reply.self))
        } catch {
            return .failure(ClientError(.malformedReply, "\(frame.command) reply #\(frame.sequence): \(error)"))
        }
    }

    private static func serverError(_ frame: Frame) -> ClientError {
        guard let reply = try? frame.decode(ErrorReply.self) else {
            return ClientError(.malformedReply, "\(frame.command) error reply #\(frame.sequence) is not an ErrorReply")
        }
        let code: ClientError.Code = reply.code == .unauthorized ? .unauthorized : .server
        return ClientError(code, "\(frame.command) #\(frame.sequence) refused", serverReply: reply)
    }

    private func handleLoginReply(_ frame: Frame, sequence: UInt32) {
        if let timeout = timeouts.removeValue(forKey: sequence) { scheduler.cancel(timeout) }
        switch Self.decodeReply(LoginReply.self, from: frame) {
        case .success(let reply):
            if let error = dictionaries.loginReplied(reply) {
                protocolError(error)
                return
            }
            statistics.loginReplyPayloadBytes.append(frame.payload.count)
            guard case .reportLoggedIn(let heartbeat) = machine.loginSucceeded(now: scheduler.now) else { return }
            statistics.logins += 1
            observer?.connection(self, didEmit: .loggedIn(reply))
            scheduleHeartbeat(after: heartbeat)
        case .failure(let error):
            log.record(ClientLogEntry(time: scheduler.now, level: .error, event: "loginFailed", message: error.description))
            switch machine.loginFailed(error) {
            case nil: break
            case .closeLink(let error): closeLink(error)
            case .stop(let stopping): stop(stopping)
            }
        }
    }
}

extension Connection: FrameLinkDelegate {
    public func link(_ link: any FrameLink, didReceive frame: Frame) {
        guard link === self.link else { return }
        if let error = dictionaries.refusal(of: frame) {
            protocolError(error)
            return
        }
        statistics.record(received: frame)
        switch machine.received(flags: frame.flags, command: frame.command, sequence: frame.sequence, now: scheduler.now) {
        case nil:
            break
        case .deliverReply(let sequence):
            complete(sequence, with: .success(frame))
        case .deliverLoginReply(let sequence):
            handleLoginReply(frame, sequence: sequence)
        case .deliverPush:
            statistics.pushes += 1
            observer?.connection(self, didEmit: .push(frame))
        case .dropUnexpected(let reason):
            dropUnexpected(reason)
        case .closeLink(let error):
            closeLink(error)
        }
    }

    public func link(_ link: any FrameLink, didReceiveBytes count: Int) {
        guard link === self.link else { return }
        machine.receivedBytes(now: scheduler.now)
    }

    public func linkDidClose(_ link: any FrameLink, error: (any Error)?) {
        guard link === self.link else { return }
        self.link = nil
        link.delegate = nil
        dictionaries.reset()
        perform(machine.linkClosed(error: error.map { ClientError(.connectionLost, "the link broke: \($0)") }))
    }
}
