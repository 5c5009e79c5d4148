import Foundation
public import LowbandClient
public import LowbandProxy
public import LowbandServer
public import LowbandShaper
public import LowbandTransport
import LowbandTransportSockets
public import NIOCore
import NIOPosix
import Synchronization

/// A ``WorldDescription`` live: the real server, the real shaping proxy and real client engines
/// on 127.0.0.1 ephemeral ports, in one process, on the wall clock. `lowband run` on sockets, the
/// push-to-visible benchmark and the tests build their socket worlds with it; ``VirtualWorld``
/// runs the same description in memory on a virtual clock.
///
/// Each part runs on an event loop of its own, as three machines would: the server on one, the
/// proxy on another, and the engines on a third, so an engine's synchronous SQLite work never
/// delays the server or the proxy. Engines connect through the proxy.
///
/// ```swift
/// let harness = try await SocketHarness.start(SocketHarness.Configuration(profile: edge))
/// let engine = try await harness.startEngine(ClientConfiguration(token: token, databasePath: harness.databasePath("a.sqlite")))
/// try await harness.server.post("hi", in: chatID, from: 2)
/// let teardown = try await harness.stop()   // teardown.isClean: nothing left behind
/// ```
public final class SocketHarness: Sendable {
    /// What the harness starts; every argument has a default.
    public struct Configuration: Sendable {
        /// The network between the server and the engines (the proxy's one simulated device).
        public var profile: NetworkProfile
        /// Seeds every random decision of the link (jitter, loss, outages, wake-ups).
        public var shaperSeed: UInt64
        /// The server's data: users with their tokens, chats, histories, seeded.
        public var world: MessengerWorld
        /// The server's limits, clock and framing.
        public var server: ServerConfiguration
        /// The proxy's name in its events and control API.
        public var proxyName: String
        /// Event-loop threads the engines share (1: every engine on one loop).
        public var engineThreads: Int
        /// The shaper's trace sink, made from the instant the proxy's clock starts (its time
        /// zero); nil for none.
        public var trace: (@Sendable (_ proxyZero: NIODeadline) -> any ShaperTraceSink)?
        /// What accepts the server's links, made on the server's loop (given) from the server (a
        /// wrapper that watches every frame); nil for the server itself.
        public var serverAcceptor: (@Sendable (MessengerServer, any EventLoop) -> any FrameLinkAcceptor)?
        /// An existing directory for the engines' databases (``SocketHarness/databasePath(_:)``),
        /// which ``SocketHarness/stop()`` removes; nil for a new one in the temporary directory.
        public var directory: String?

        /// The world `description` says, live: its network as the proxy's profile (a latency as a
        /// link of unlimited rate with that delay), seeded with its network seed.
        public init(
            _ description: WorldDescription, proxyName: String = "lowband-harness", engineThreads: Int = 1,
            trace: (@Sendable (_ proxyZero: NIODeadline) -> any ShaperTraceSink)? = nil,
            serverAcceptor: (@Sendable (MessengerServer, any EventLoop) -> any FrameLinkAcceptor)? = nil,
            directory: String? = nil
        ) {
            self.init(
                profile: description.profile, shaperSeed: description.networkSeed, world: description.world, server: description.server, proxyName: proxyName,
                engineThreads: engineThreads, trace: trace, serverAcceptor: serverAcceptor, directory: directory)
        }

        /// A configuration; by default the `perfect` link (no rate limit, delay or loss), shaper
        /// seed 1, the world of seed 1 with the default shape, and one engine thread.
        public init(
            profile: NetworkProfile = NetworkProfile(
                name: "perfect", downlink: LinkProfile(rate: .unlimited, queueBytes: 1_000_000), uplink: LinkProfile(rate: .unlimited, queueBytes: 1_000_000)),
            shaperSeed: UInt64 = 1,
            world: MessengerWorld = MessengerWorld(seed: 1),
            server: ServerConfiguration = ServerConfiguration(),
            proxyName: String = "lowband-harness",
            engineThreads: Int = 1,
            trace: (@Sendable (_ proxyZero: NIODeadline) -> any ShaperTraceSink)? = nil,
            serverAcceptor: (@Sendable (MessengerServer, any EventLoop) -> any FrameLinkAcceptor)? = nil,
            directory: String? = nil
        ) {
            self.profile = profile
            self.shaperSeed = shaperSeed
            self.world = world
            self.server = server
            self.proxyName = proxyName
            self.engineThreads = engineThreads
            self.trace = trace
            self.serverAcceptor = serverAcceptor
            self.directory = directory
        }
    }

    /// What the harness was started with.
    public let configuration: Configuration
    /// The messenger server, listening on 127.0.0.1 on a loop of its own.
    public let server: MessengerSocketServer
    /// The server's seeded data: users (with their login tokens), chats and histories.
    public var world: MessengerWorld { configuration.world }
    /// The shaping proxy in front of the server, playing ``Configuration/profile``.
    public let proxy: ShapingProxy
    /// Where engines connect: the proxy's listening port.
    public let proxyPort: Int
    /// The server's loop; no engine runs on it.
    public var serverLoop: any EventLoop { server.scheduler.eventLoop }
    /// The loops the engines run on, none of them the server's or the proxy's.
    public var engineLoops: any EventLoopGroup { engineGroup }
    /// The directory the engines' databases live in (``databasePath(_:)``), removed by ``stop()``.
    public let directory: String
    private let serverGroup: MultiThreadedEventLoopGroup
    private let proxyGroup: MultiThreadedEventLoopGroup
    private let engineGroup: MultiThreadedEventLoopGroup
    private let state = Mutex(State())

    private struct State {
        var engines: [ClientEngineHost] = []
        var stopping = false
        var teardown: Teardown?
    }

    private init(
        configuration: Configuration, server: MessengerSocketServer, proxy: ShapingProxy, proxyPort: Int, directory: String,
        groups: (server: MultiThreadedEventLoopGroup, proxy: MultiThreadedEventLoopGroup, engines: MultiThreadedEventLoopGroup)
    ) {
        self.configuration = configuration
        self.server = server
        self.proxy = proxy
        self.proxyPort = proxyPort
        self.directory = directory
        serverGroup = groups.server
        proxyGroup = groups.proxy
        engineGroup = groups.engines
    }

    /// Starts the server and the proxy in front of it, each on a loop of its own; engines are
    /// started with ``startEngine(_:)``. Whatever was started is stopped again when a step fails.
    public static func start(_ configuration: Configuration = Configuration()) async throws -> SocketHarness {
        let groups = (
            server: MultiThreadedEventLoopGroup(numberOfThreads: 1), proxy: MultiThreadedEventLoopGroup(numberOfThreads: 1),
            engines: MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.engineThreads))
        )
        var server: MessengerSocketServer?
        var proxy: ShapingProxy?
        var directory: String?
        do {
            directory = try configuration.directory ?? TemporaryDirectory.make(prefix: "lowband-harness")
            let serverLoop = groups.server.next()
            let acceptor = configuration.serverAcceptor.map { make in { @Sendable (server: MessengerServer) in make(server, serverLoop) } }
            let started = try await MessengerSocketServer.start(
                world: configuration.world, configuration: configuration.server, eventLoop: serverLoop, acceptor: acceptor)
            server = started
            let shaping = ShapingProxy(
                configuration: ShapingProxy.Configuration(
                    name: configuration.proxyName, listen: ProxyEndpoint(host: "127.0.0.1", port: 0),
                    upstream: ProxyEndpoint(host: started.host, port: started.port),
                    link: .network(configuration.profile, seed: configuration.shaperSeed, trace: configuration.trace?(NIODeadline.now()))),
                group: groups.proxy)
            proxy = shaping
            guard let proxyPort = try await shaping.start().port else {
                throw SetupError(description: "the shaping proxy did not report its port")
            }
            return SocketHarness(configuration: configuration, server: started, proxy: shaping, proxyPort: proxyPort, directory: directory ?? "", groups: groups)
        } catch {
            if let proxy { await proxy.stop() }
            if let server { try? await server.stop() }
            try? await groups.engines.shutdownGracefully()
            try? await groups.proxy.shutdownGracefully()
            try? await groups.server.shutdownGracefully()
            if let directory { try? FileManager.default.removeItem(atPath: directory) }
            throw error
        }
    }

    /// A path for an engine's database inside ``directory``.
    public func databasePath(_ name: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }

    /// Starts an engine on one of ``engineLoops``, connecting through the proxy; ``stop()``
    /// stops it.
    ///
    /// - Throws: ``SetupError`` after ``stop()``; the engine host's error.
    public func startEngine(_ configuration: ClientConfiguration) async throws -> ClientEngineHost {
        if state.withLock({ $0.stopping }) { throw SetupError(description: "the socket harness was stopped; start a new one") }
        let engine = try await ClientEngineHost.start(configuration: configuration, host: "127.0.0.1", port: proxyPort, eventLoop: engineGroup.next())
        state.withLock { $0.engines.append(engine) }
        return engine
    }

    /// Stops the engines (so none reconnects to a closing proxy), the proxy and the server,
    /// checks that nothing is left (see ``Teardown``), ends the event loops and removes the
    /// engines' databases. Calling it again returns the first call's report.
    @discardableResult
    public func stop() async throws -> Teardown {
        let (first, engines) = state.withLock { state in
            defer { state.stopping = true }
            return (!state.stopping, state.engines)
        }
        guard first else {
            if let teardown = state.withLock({ $0.teardown }) { return teardown }
            throw SetupError(description: "the socket harness is being stopped by another caller")
        }
        var teardown = Teardown()
        for engine in engines {
            try await engine.stop()
            let scheduler = engine.scheduler
            // Work the stop itself made due now (failing completions) runs first: one turn of
            // the scheduler behind it; what is left after that is timers that outlived the stop.
            teardown.pendingEngineWork += try await scheduler.eventLoop.flatSubmit {
                let turned = scheduler.eventLoop.makePromise(of: Int.self)
                scheduler.execute { turned.succeed(scheduler.pendingCount) }
                return turned.futureResult
            }.get()
        }
        await proxy.stop()
        teardown.openProxyConnections = await proxy.statistics.openConnections
        try await server.stop()
        teardown.serverConnections = try await server.connectionCount
        let probeLoop = engineGroup.next()
        teardown.serverPortRefuses = await Self.refusesConnections(port: server.port, loop: probeLoop)
        teardown.proxyPortRefuses = await Self.refusesConnections(port: proxyPort, loop: probeLoop)
        try await engineGroup.shutdownGracefully()
        try await proxyGroup.shutdownGracefully()
        try await serverGroup.shutdownGracefully()
        try? FileManager.default.removeItem(atPath: directory)
        teardown.databasesRemoved = !FileManager.default.fileExists(atPath: directory)
        state.withLock { $0.teardown = teardown }
        return teardown
    }

    /// Why the harness could not start, or an engine could not be added.
    public struct SetupError: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// What a stopped harness left behind: nothing, when ``isClean``.
    public struct Teardown: Hashable, Sendable {
        /// Connects to the server's port are refused.
        public var serverPortRefuses = false
        /// Connects to the proxy's port are refused.
        public var proxyPortRefuses = false
        /// Work still scheduled on the engines' schedulers after they stopped (timers).
        public var pendingEngineWork = 0
        /// Connections the proxy still held after it stopped.
        public var openProxyConnections = 0
        /// Connections the server still served after it stopped.
        public var serverConnections = 0
        /// The engines' database directory is gone.
        public var databasesRemoved = false

        /// A report of nothing checked yet (every flag false, every count zero).
        public init() {}

        /// Both ports refuse connections, no work, connection or database is left.
        public var isClean: Bool {
            serverPortRefuses && proxyPortRefuses && pendingEngineWork == 0 && openProxyConnections == 0 && serverConnections == 0 && databasesRemoved
        }
    }

    /// True when a TCP connect to 127.0.0.1:`port` is refused (nothing listens any more).
    private static func refusesConnections(port: Int, loop: any EventLoop) async -> Bool {
        let connector = SocketFrameConnector(
            scheduler: EventLoopScheduler(eventLoop: loop),
            configuration: SocketFrameConnector.Configuration(host: "127.0.0.1", port: port, connectTimeout: .seconds(2)))
        return await withCheckedContinuation { continuation in
            loop.execute {
                connector.connect { result in
                    switch result {
                    case .success(let link):
                        link.close()
                        continuation.resume(returning: false)
                    case .failure(let error):
                        continuation.resume(returning: (error as? TransportError)?.code == .connectionRefused)
                    }
                }
            }
        }
    }
}
