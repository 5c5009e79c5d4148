import LowbandTransport
import LowbandWire

/// Enforcing ``ConnectionLimits``: one timer per connection for its ``SessionGuard``'s
/// deadline, delayed answers to failed logins, the per-user session cap, and closing with a
/// reported reason.
extension MessengerServer {
    /// Arms the connection's timer for its guard's deadline, unless one at or before it is armed
    /// already (that one re-arms when it fires, so activity never reschedules).
    func arm(_ session: SessionID) {
        guard let connection = connections[session] else { return }
        let deadline = connection.standing.deadline
        if let armed = connection.timerDeadline, armed <= deadline { return }
        if let timer = connection.timer { scheduler.cancel(timer) }
        connections[session]?.timerDeadline = deadline
        connections[session]?.timer = scheduler.schedule(at: deadline) { [weak self] in
            self?.timerFired(session)
        }
    }

    private func timerFired(_ session: SessionID) {
        guard var connection = connections[session] else { return }
        connection.timer = nil
        connection.timerDeadline = nil
        let closing = connection.standing.check(at: scheduler.now, outboundBytesWritten: connection.flow?.outboundBytesWritten ?? 0)
        connections[session] = connection
        if let closing {
            disconnect(session, closing.reason, closing.detail)
        } else {
            arm(session)
        }
    }

    /// Answers a failed login after the guard's delay, not reading the connection meanwhile,
    /// and closes it after the last failure allowed.
    func answerFailedLogin(_ session: SessionID, with outbound: [Outbound]) {
        guard let connection = connections[session] else { return }
        // A link with a source address continues that address's back-off (LoginBackoff); an
        // in-memory link has none and keeps its own.
        let addressFailures = connection.link.peerAddress.map { loginBackoff.failed(from: $0, at: scheduler.now) } ?? 0
        guard let failure = connections[session]?.standing.loginFailed(addressFailures: addressFailures) else { return }
        connections[session]?.pendingLoginAnswers += 1
        connections[session]?.flow?.holdReading()
        scheduler.schedule(after: failure.delay) { [weak self] in
            guard let self, connections[session] != nil else { return }
            connections[session]?.pendingLoginAnswers -= 1
            send(outbound)
            guard let connection = connections[session] else { return }
            if failure.closesAfterAnswer {
                disconnect(session, .loginFailures, "\(connection.standing.loginFailures) failed logins on one connection")
            } else if connection.pendingLoginAnswers == 0 {
                connection.flow?.releaseReading()
            }
        }
    }

    /// After `session` logged in: closes its user's oldest other sessions beyond
    /// ``ConnectionLimits/sessionsPerUser``.
    func enforceSessionLimit(after session: SessionID) {
        guard let userID = core.userID(of: session) else { return }
        let sessions = core.sessions(of: userID)
        let excess = sessions.count - limits.sessionsPerUser
        guard excess > 0 else { return }
        for old in sessions.lazy.filter({ $0 != session }).prefix(excess) {
            disconnect(old, .sessionLimit, "user \(userID) logged in on \(session), over \(limits.sessionsPerUser) sessions per user; the oldest goes")
        }
    }

    /// Ends `session` now (no more pushes), reports why, and closes its link.
    func disconnect(_ session: SessionID, _ reason: ServerEvent.Reason, _ detail: String) {
        guard let connection = connections.removeValue(forKey: session) else { return }
        sessionsByLink[ObjectIdentifier(connection.link)] = nil
        if let timer = connection.timer { scheduler.cancel(timer) }
        let userID = core.userID(of: session)
        core.closeSession(session)
        onEvent?(ServerEvent(time: scheduler.now, session: session, userID: userID, reason: reason, detail: detail))
        connection.link.close()
    }

    /// Reports a connection refused before it had a session.
    func report(_ session: SessionID?, _ reason: ServerEvent.Reason, _ detail: String) {
        onEvent?(ServerEvent(time: scheduler.now, session: session, userID: session.flatMap { core.userID(of: $0) }, reason: reason, detail: detail))
    }
}
