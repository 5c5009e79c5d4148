public import LowbandTransport
public import LowbandTransportSockets
public import LowbandWire
public import NIOCore
import NIOPosix

/// A ``MessengerServer`` listening on a TCP port, driven from async code: the in-process
/// server of socket tests and of `lowband server`.
///
/// The server, its scheduler and every connection live on one event loop; this handle is
/// `Sendable` and hops there for you. ``stop()`` closes the port and every connection but keeps
/// the data; ``restart()`` listens on the same port again, so clients reconnect to the data
/// they left.
///
/// ```swift
/// let world = MessengerWorld(seed: 7)                  // LowbandFixtures: seeded data
/// let server = try await MessengerSocketServer.start(world: world)
/// let token = world.users[0].token                     // log in as user 1
/// // connect to 127.0.0.1:server.port, e.g. with SocketFrameConnector
/// try await server.post("hi", in: chatID, from: 2)   // user 2 writes: pushes go out
/// try await server.stop()
/// ```
public final class MessengerSocketServer: Sendable {
    /// The server's clock and event loop.
    public let scheduler: EventLoopScheduler
    /// The bound TCP port (the same after a restart).
    public let port: Int
    /// The host it listens on, as given.
    public let host: String
    private let listener: SocketFrameListener
    private let server: NIOLoopBoundBox<MessengerServer>
    private let acceptor: NIOLoopBoundBox<any FrameLinkAcceptor>

    private init(
        scheduler: EventLoopScheduler, port: Int, host: String, listener: SocketFrameListener, server: NIOLoopBoundBox<MessengerServer>,
        acceptor: NIOLoopBoundBox<any FrameLinkAcceptor>
    ) {
        self.scheduler = scheduler
        self.port = port
        self.host = host
        self.listener = listener
        self.server = server
        self.acceptor = acceptor
    }

    /// Starts a server on `core` (its data in memory, or on a data directory) and listens.
    ///
    /// - Parameters:
    ///   - core: the server's data and configuration.
    ///   - listenerConfiguration: host and port (port 0 picks a free one; default 127.0.0.1:0). Its frame
    ///     configuration is replaced by the core's `configuration.frame`.
    ///   - eventLoop: where the server runs; nil for one of NIO's shared loops.
    ///   - onEvent: hears every connection the server refuses or closes on its own, with the
    ///     reason (on the event loop; keep it short).
    ///   - makeAcceptor: what accepts the listener's links, made on the server's loop from the
    ///     server (e.g. a wrapper that watches every frame); nil for the server itself.
    public static func start(
        core: ServerCore,
        listener listenerConfiguration: SocketFrameListener.Configuration = SocketFrameListener.Configuration(),
        eventLoop: (any EventLoop)? = nil,
        onEvent: (@Sendable (ServerEvent) -> Void)? = nil,
        acceptor makeAcceptor: (@Sendable (MessengerServer) -> any FrameLinkAcceptor)? = nil
    ) async throws -> MessengerSocketServer {
        let configuration = core.configuration
        let eventLoop = eventLoop ?? MultiThreadedEventLoopGroup.singleton.next()
        let scheduler = EventLoopScheduler(eventLoop: eventLoop)
        var listening = listenerConfiguration
        listening.frame = configuration.frame
        listening.outboundLimits = configuration.connections.outbound
        let listener = SocketFrameListener(scheduler: scheduler, configuration: listening)
        let (server, acceptor) = try await eventLoop.submit {
            let server = MessengerServer(core: core, scheduler: scheduler)
            server.onEvent = onEvent
            let acceptor: any FrameLinkAcceptor = makeAcceptor?(server) ?? server
            return (NIOLoopBoundBox(server, eventLoop: eventLoop), NIOLoopBoundBox(acceptor, eventLoop: eventLoop))
        }.get()
        let port = try await listener.start { acceptor.value }
        return MessengerSocketServer(
            scheduler: scheduler, port: port, host: listening.host, listener: listener, server: server, acceptor: acceptor)
    }

    /// Stops listening and closes every connection; the data stays for ``restart()``.
    public func stop() async throws {
        try await listener.stop()
    }

    /// Listens again on the same port with the same data (after ``stop()``).
    public func restart() async throws {
        let acceptor = self.acceptor
        try await listener.start { acceptor.value }
    }

    /// Runs `body` with the server on its event loop and returns what it returns.
    public func withServer<Result: Sendable>(_ body: @escaping @Sendable (MessengerServer) throws -> Result) async throws -> Result {
        let server = self.server
        return try await scheduler.eventLoop.submit { try body(server.value) }.get()
    }

    /// Posts a message as `userID` and pushes it to the members' logged-in sessions.
    @discardableResult
    public func post(_ text: String, attachments: [Attachment] = [], in chatID: Int64, from userID: Int64) async throws -> Message {
        try await withServer { server in try server.post(text, attachments: attachments, in: chatID, from: userID) }
    }

    /// Changes a user's status and pushes the changed contact.
    public func updateStatus(of userID: Int64, to status: String?) async throws {
        try await withServer { server in try server.updateStatus(of: userID, to: status) }
    }

    /// Connections being served.
    public var connectionCount: Int {
        get async throws { try await withServer { $0.connectionCount } }
    }

    /// Every connection served, by session: who, and how many reply bytes it has yet to be sent.
    public var connections: [ConnectionSnapshot] {
        get async throws { try await withServer { $0.connectionSnapshots } }
    }
}
