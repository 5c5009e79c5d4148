public import LowbandDeterminism
public import LowbandTransport
public import LowbandWire

/// The messenger server on a transport: accepts `LowbandTransport/FrameLink`s, runs each
/// frame through its ``ServerCore`` at the scheduler's time, and sends what the core returns.
///
/// It knows only the transport seam, so the same server runs behind real sockets
/// (``MessengerSocketServer``, or a `LowbandTransport/SocketFrameListener` on the scheduler's
/// event loop) and on an `LowbandSimulation/InMemoryNetwork` on a virtual scheduler. Like a
/// scheduler it is confined to one thread: accept, the link callbacks and every method run
/// there. Its links are held until they close.
///
/// It enforces the configuration's ``ConnectionLimits`` — the connection and per-user session
/// caps, idle and login timeouts, the login back-off and, on links that are
/// `LowbandTransport/FlowControlledFrameLink`s, the outbound limits — on its scheduler's
/// clock, reporting every connection it refuses or closes to ``onEvent``.
///
/// In memory:
///
/// ```swift
/// let scheduler = VirtualScheduler()
/// let world = MessengerWorld(seed: 7)                  // LowbandFixtures: seeded data
/// let server = MessengerServer(world: world, scheduler: scheduler)
/// let network = InMemoryNetwork(scheduler: scheduler)
/// let connector = network.makeConnector(to: server)   // the client engine's FrameConnector
/// let token = world.users[0].token
/// ```
public final class MessengerServer: FrameLinkAcceptor, FrameLinkDelegate {
    /// Where the server runs and sets its timers.
    public let scheduler: any Scheduler
    /// The state and logic; read it for ids, messages and uploads.
    public internal(set) var core: ServerCore
    /// Hears every connection the server refuses or closes on its own, with the reason.
    public var onEvent: ((ServerEvent) -> Void)?
    var connections: [SessionID: Connection] = [:]
    /// Looked up, never iterated.
    var sessionsByLink: [ObjectIdentifier: SessionID] = [:]
    /// Failed logins per source address, across connections.
    lazy var loginBackoff = LoginBackoff(limits: limits)

    /// A served link and its standing against the connection limits.
    struct Connection {
        let link: any FrameLink
        /// The link, when it can stop reading and say what it has not yet written.
        let flow: (any FlowControlledFrameLink)?
        var standing: SessionGuard
        var timer: ScheduledWork?
        var timerDeadline: Duration?
        var peakQueuedBytes = 0
        /// Failed logins whose delayed answer has not gone out yet.
        var pendingLoginAnswers = 0
    }

    /// A server around `core`, on `scheduler`.
    public init(core: ServerCore, scheduler: any Scheduler) {
        self.core = core
        self.scheduler = scheduler
    }

    /// Connections being served.
    public var connectionCount: Int { connections.count }

    var limits: ConnectionLimits { core.configuration.connections }

    // MARK: Transport

    /// Serves `link` as a new session, or closes it at once when ``ConnectionLimits/maximumConnections``
    /// are open already.
    public func accept(_ link: any FrameLink) {
        guard connections.count < limits.maximumConnections else {
            report(nil, .connectionLimit, "\(connections.count) connections are open; the limit is \(limits.maximumConnections)")
            link.close()
            return
        }
        let session = core.openSession()
        connections[session] = Connection(
            link: link, flow: link as? any FlowControlledFrameLink, standing: SessionGuard(limits: limits, openedAt: scheduler.now))
        sessionsByLink[ObjectIdentifier(link)] = session
        link.delegate = self
        arm(session)
    }

    /// Handles a client's frame: answers it and sends the pushes it causes.
    public func link(_ link: any FrameLink, didReceive frame: Frame) {
        guard let session = sessionsByLink[ObjectIdentifier(link)], connections[session] != nil else { return }
        connections[session]?.standing.active(at: scheduler.now)
        let outbound = core.handle(frame, from: session, at: scheduler.now)
        guard frame.command == .login, let reply = outbound.first, reply.session == session else {
            send(outbound)
            return
        }
        if reply.frame.flags.contains(.error) {
            answerFailedLogin(session, with: outbound)
        } else {
            connections[session]?.standing.loginSucceeded()
            send(outbound)
            enforceSessionLimit(after: session)
        }
    }

    public func link(_ link: any FrameLink, didReceiveBytes count: Int) {
        guard let session = sessionsByLink[ObjectIdentifier(link)] else { return }
        connections[session]?.standing.active(at: scheduler.now)
    }

    public func link(_ link: any FrameLink, didCrossOutboundLimit isOver: Bool) {
        guard let session = sessionsByLink[ObjectIdentifier(link)], let flow = connections[session]?.flow else { return }
        connections[session]?.standing.outboundLimitCrossed(isOver: isOver, at: scheduler.now, written: flow.outboundBytesWritten)
        arm(session)
    }

    public func linkDidClose(_ link: any FrameLink, error: (any Error)?) {
        guard let session = sessionsByLink.removeValue(forKey: ObjectIdentifier(link)) else { return }
        if let timer = connections.removeValue(forKey: session)?.timer { scheduler.cancel(timer) }
        core.closeSession(session)
    }

    /// Closes every connection (clients see the close), as a server going down would. Their
    /// sessions end when the links report the close.
    public func disconnectAll() {
        for session in connections.keys.sorted() {
            connections[session]?.link.close()
        }
    }

    /// Every connection served, by session ascending: who it is and what it has yet to be sent.
    public var connectionSnapshots: [ConnectionSnapshot] {
        connections.keys.sorted().compactMap { session in
            guard let connection = connections[session] else { return nil }
            return ConnectionSnapshot(
                session: session, userID: core.userID(of: session),
                queuedOutboundBytes: connection.flow?.queuedOutboundBytes ?? 0,
                peakQueuedOutboundBytes: connection.peakQueuedBytes,
                isReadingHeld: connection.flow?.isReadingHeld ?? false,
                lastActivity: connection.standing.lastActivity)
        }
    }

    func send(_ outbound: [Outbound]) {
        for item in outbound {
            guard let connection = connections[item.session] else { continue }
            connection.link.send(item.frame)
            connections[item.session]?.standing.active(at: scheduler.now)
            guard let flow = connection.flow else { continue }
            let queued = flow.queuedOutboundBytes
            if queued > connection.peakQueuedBytes { connections[item.session]?.peakQueuedBytes = queued }
            if queued >= limits.outboundHardLimit {
                disconnect(item.session, .outboundHardLimit, "\(queued) bytes unsent; the hard limit is \(limits.outboundHardLimit)")
            }
        }
    }

    // MARK: Acting as other users

    /// Posts a message to a chat as `userID` (from a device not connected here) and pushes it
    /// to every logged-in session of every member, the sender's included. Returns the message.
    @discardableResult
    public func post(_ text: String, attachments: [Attachment] = [], in chatID: Int64, from userID: Int64) throws(ErrorReply) -> Message {
        let (message, outbound) = try core.post(text, attachments: attachments, in: chatID, from: userID, at: scheduler.now)
        send(outbound)
        return message
    }

    /// Changes a user's status and pushes the changed contact to everyone who has them as a contact.
    public func updateStatus(of userID: Int64, to status: String?) throws(ErrorReply) {
        send(try core.updateStatus(of: userID, to: status, at: scheduler.now))
    }

    /// Changes a user's settings; their next delta login returns them.
    public func updateSettings(of userID: Int64, _ change: (inout Settings) -> Void) throws(ErrorReply) {
        try core.updateSettings(of: userID, at: scheduler.now, change)
    }

    /// The server's time now (ms since the Unix epoch, by the scheduler's clock).
    public var serverTime: ServerTime { core.serverTime(at: scheduler.now) }
}
