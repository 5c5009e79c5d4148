public import LowbandDeterminism
public import LowbandFixtures
public import LowbandTransport
public import LowbandWire

/// The messenger server on a transport: accepts ``LowbandTransport/FrameLink``s, runs each
/// frame through its ``ServerCore`` at the scheduler's time, and sends what the core returns.
///
/// It knows only the transport seam, so the same server runs behind real sockets
/// (``MessengerSocketServer``, or a ``LowbandTransport/SocketFrameListener`` on the scheduler's
/// event loop) and on an ``LowbandSimulation/InMemoryNetwork`` on a virtual scheduler. Like a
/// scheduler it is confined to one thread: accept, the link callbacks and every method run
/// there. Its links are held until they close.
///
/// In memory:
///
/// ```swift
/// let scheduler = VirtualScheduler()
/// let server = MessengerServer(configuration: ServerConfiguration(seed: 7), scheduler: scheduler)
/// let network = InMemoryNetwork(scheduler: scheduler)
/// let connector = network.makeConnector(to: server)   // the client engine's FrameConnector
/// let token = server.world.users[0].token
/// ```
public final class MessengerServer: FrameLinkAcceptor, FrameLinkDelegate {
    public let scheduler: any Scheduler
    /// The state and logic; read it for ids, messages and uploads.
    public private(set) var core: ServerCore
    private var links: [SessionID: any FrameLink] = [:]
    /// Looked up, never iterated.
    private var sessionsByLink: [ObjectIdentifier: SessionID] = [:]

    public init(core: ServerCore, scheduler: any Scheduler) {
        self.core = core
        self.scheduler = scheduler
    }

    /// A server with the seeded data of `configuration`.
    public convenience init(configuration: ServerConfiguration = ServerConfiguration(), scheduler: any Scheduler) {
        self.init(core: ServerCore(configuration: configuration), scheduler: scheduler)
    }

    /// The data the server started from: users (ids, tokens, names), chats (ids, members), history.
    public var world: MessengerWorld { core.world }

    /// Connections being served.
    public var connectionCount: Int { links.count }

    // MARK: Transport

    public func accept(_ link: any FrameLink) {
        let session = core.openSession()
        links[session] = link
        sessionsByLink[ObjectIdentifier(link)] = session
        link.delegate = self
    }

    public func link(_ link: any FrameLink, didReceive frame: Frame) {
        guard let session = sessionsByLink[ObjectIdentifier(link)] else { return }
        send(core.handle(frame, from: session, at: scheduler.now))
    }

    public func linkDidClose(_ link: any FrameLink, error: (any Error)?) {
        guard let session = sessionsByLink.removeValue(forKey: ObjectIdentifier(link)) else { return }
        links[session] = nil
        core.closeSession(session)
    }

    /// Closes every connection (clients see the close), as a server going down would. Their
    /// sessions end when the links report the close.
    public func disconnectAll() {
        for session in links.keys.sorted() {
            links[session]?.close()
        }
    }

    private func send(_ outbound: [Outbound]) {
        for item in outbound {
            links[item.session]?.send(item.frame)
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
