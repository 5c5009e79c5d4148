public import LowbandClient
public import LowbandDeterminism
public import LowbandFixtures
public import LowbandServer
public import LowbandShaper
public import LowbandSimulation
public import LowbandTransport

/// Lowband's messenger server and client engines on one virtual clock, connected by an
/// in-memory network: a whole messenger in one test, replayed exactly for a seed.
///
/// Nothing moves until the test advances the clock (``advance(by:)``, ``advance(until:limit:)``);
/// time then jumps from one piece of work to the next, so a minute of a 2G link passes in
/// milliseconds. The server is seeded with a realistic world (users, chats, histories) from
/// `seed`; the network adds a fixed latency or plays a `NetworkProfile` — the same link model
/// the shaping proxy uses — and every engine keeps its cache in a real SQLite file in
/// ``directory``, removed with the world.
///
/// ```swift
/// let world = try VirtualWorld(seed: 7, profile: try NetworkProfile.load(named: "edge"))
/// let alice = try world.makeClient(user: 1)
/// let bob = try world.makeClient(user: 2)
/// let chat = world.chats(of: 1).first { $0.memberIDs.contains(2) }!
/// try alice.engine.send(text: "hi", to: chat.id)
/// #expect(world.advance(until: { bob.arrived.contains { $0.text == "hi" } }))
/// ```
///
/// A world and everything in it is used from one thread (the test's); it is not `Sendable`.
public final class VirtualWorld {
    /// The clock every part of the world runs on.
    public let scheduler: VirtualScheduler
    /// The in-process messenger server, seeded with ``world``.
    public let server: MessengerServer
    /// The network between the clients and the server: cut it, partition it, refuse
    /// connections or add toxics to test your code's behaviour under faults.
    public let network: InMemoryNetwork
    /// The seed of the server's world, the network's decisions and (derived) each client's.
    public let seed: UInt64
    /// What the world was made from.
    public let worldDescription: WorldDescription
    /// What the network hands the server's links to: the server, or what wraps it.
    public let acceptor: any FrameLinkAcceptor
    private let ownsDirectory: Bool
    /// Where the clients' SQLite caches live; removed when the world is released (unless the
    /// world was given it).
    public let directory: String
    /// The clock the clients' screens measure their work with; it moves only when told.
    public let workClock = ManualWorkClock()
    private var clientCount = 0

    /// A world seeded with `seed`.
    ///
    /// - Parameters:
    ///   - seed: the seed of the server's world, the network's decisions and the clients'.
    ///   - profile: shapes the network by this profile (its decisions seeded with `seed`);
    ///     nil adds `latency` to every frame instead.
    ///   - latency: the one-way delay of every frame when there is no profile.
    ///   - shape: how many users, chats and messages the server starts with.
    /// - Throws: when the temporary directory for the clients' caches cannot be made.
    public convenience init(
        seed: UInt64 = 7, profile: NetworkProfile? = nil, latency: Duration = .milliseconds(60), shape: MessengerWorld.Shape = MessengerWorld.Shape()
    ) throws {
        try self.init(WorldDescription(seed: seed, shape: shape, network: profile.map { .profile($0) } ?? .latency(latency)))
    }

    /// The world `description` says, in memory on a virtual clock.
    ///
    /// - Parameters:
    ///   - description: the server and the network.
    ///   - directory: an existing directory for the clients' caches, which the world leaves in
    ///     place; nil for a new one in the temporary directory, removed with the world.
    ///   - trace: receives the network's shaping decisions (with a profile).
    ///   - acceptor: wraps the server where the network hands it links (to watch every frame);
    ///     nil for the server itself.
    /// - Throws: when the temporary directory for the clients' caches cannot be made.
    public init(
        _ description: WorldDescription, directory: String? = nil, trace: (any ShaperTraceSink)? = nil,
        acceptor: ((MessengerServer) -> any FrameLinkAcceptor)? = nil
    ) throws {
        let scheduler = VirtualScheduler()
        self.scheduler = scheduler
        worldDescription = description
        seed = description.seed
        let server = MessengerServer(world: description.world, configuration: description.server, scheduler: scheduler)
        self.server = server
        switch description.network {
        case .profile(let profile):
            network = InMemoryNetwork(scheduler: scheduler, profile: profile, seed: description.networkSeed, trace: trace, frame: description.server.frame)
        case .latency(let latency):
            network = InMemoryNetwork(scheduler: scheduler, configuration: InMemoryNetwork.Configuration(latency: latency))
        }
        self.acceptor = acceptor.map { wrap in wrap(server) } ?? server
        if let directory {
            self.directory = directory
            ownsDirectory = false
        } else {
            self.directory = try TemporaryDirectory.make(prefix: "lowband-world")
            ownsDirectory = true
        }
    }

    deinit {
        if ownsDirectory { TemporaryDirectory.remove(directory) }
    }

    /// The server's seeded world: users (with their login tokens), chats and histories.
    public var world: MessengerWorld { worldDescription.world }

    /// The chats `userID` is a member of, in ascending id order.
    public func chats(of userID: Int64) -> [MessengerWorld.ChatHistory] {
        world.chats(of: userID)
    }

    /// A client engine logged in as `userID`, its cache in ``directory``, connecting over
    /// ``network``; it starts connecting unless `start` is false. Its events are recorded in
    /// the returned ``VirtualClient``.
    ///
    /// The world does not keep the client: releasing it (after `engine.stop()`) is the app
    /// going away, and a new client on the same `database` is the app starting again.
    ///
    /// - Parameters:
    ///   - userID: the user to log in as, 1 through the world's user count.
    ///   - database: the cache's file name in ``directory``; by default a new one per client.
    ///   - seed: the engine's own seed; by default derived from the world's seed, the user and
    ///     the client's number, so two clients never share client ids.
    ///   - connector: opens the engine's links; by default straight over ``network`` to the
    ///     server. Wrap `InMemoryNetwork/makeConnector(to:)` to stall or fail connects.
    ///   - start: whether the engine starts connecting at once (else call its `start()`).
    ///   - configure: changes the engine's configuration (time-outs, outbox, screen) first.
    /// - Throws: `ClientError` when the cache cannot be opened; a precondition failure for a
    ///   user the world does not have.
    public func makeClient(
        user userID: Int64, database: String? = nil, seed: UInt64? = nil, connector: (any FrameConnector)? = nil, start: Bool = true,
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) throws(ClientError) -> VirtualClient {
        precondition(userID >= 1 && userID <= Int64(world.users.count), "the world has users 1...\(world.users.count), not \(userID)")
        let user = world.users[Int(userID - 1)]
        clientCount += 1
        var derived = SeededGenerator(seed: self.seed).derived(UInt64(userID), UInt64(clientCount))
        let engineSeed = seed ?? derived.next()
        var configuration = ClientConfiguration(
            token: user.token, databasePath: "\(directory)/\(database ?? "client-\(userID)-\(clientCount).sqlite")", seed: engineSeed)
        configure(&configuration)
        let engine = try ClientEngine(
            configuration: configuration, connector: connector ?? network.makeConnector(to: acceptor), scheduler: scheduler, workClock: workClock)
        let client = VirtualClient(user: userID, engine: engine)
        if start { engine.start() }
        return client
    }

    /// Time since the world was made.
    public var now: Duration { scheduler.now }

    /// Runs everything due in the next `duration` and leaves the clock `duration` later.
    public func advance(by duration: Duration) {
        scheduler.advance(by: duration)
    }

    /// Runs the world's work in time order until `condition` holds (checked after every piece
    /// of work) or `limit` of virtual time has passed.
    ///
    /// - Returns: whether `condition` holds; the clock stops at the instant it first did, so
    ///   ``now`` tells when.
    @discardableResult
    public func advance(until condition: () -> Bool, limit: Duration = .seconds(120)) -> Bool {
        let deadline = scheduler.now + limit
        while !condition() {
            guard let next = scheduler.nextDeadline, next <= deadline else {
                scheduler.advance(to: deadline)
                return condition()
            }
            scheduler.advance(to: next)
        }
        return true
    }
}
