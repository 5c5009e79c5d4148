public import LowbandFixtures
public import LowbandServer
public import LowbandShaper

/// What a messenger world is — the server's seeded data and its limits, and the network between it
/// and the devices — whatever carries it. One description runs two ways: in memory on a virtual
/// clock (``VirtualWorld``), or on loopback sockets through the shaping proxy on the wall clock
/// (``SocketHarness``), as hummingbird's tests run one router `.router` or `.live`.
///
/// ```swift
/// let description = WorldDescription(seed: 7, network: .profile(try NetworkProfile.load(named: "edge")))
/// let virtual = try VirtualWorld(description)                   // replayed exactly for the seed
/// let live = try await SocketHarness.start(.init(description))  // the same world, real sockets
/// ```
public struct WorldDescription: Sendable {
    /// The network between the devices and the server.
    public enum Network: Sendable {
        /// Every frame arrives this long after it was sent, and nothing else happens to it.
        case latency(Duration)
        /// The link model the shaping proxy plays: rate, delay, jitter, loss, outages.
        case profile(NetworkProfile)
    }

    /// The server's data: users with their tokens, chats, histories, seeded.
    public var world: MessengerWorld
    /// The server's limits, clock and framing.
    public var server: ServerConfiguration
    /// The network between the devices and the server.
    public var network: Network
    /// Seeds the network's decisions (jitter, loss, outages); by default the server's seed.
    public var networkSeed: UInt64

    /// The seed of the server's data (and, unless told otherwise, of the network's decisions).
    public var seed: UInt64 { world.seed }

    /// A world of `shape` seeded with `seed`, behind `network`.
    ///
    /// - Parameters:
    ///   - seed: seeds the server's data and, unless `networkSeed` is given, the network.
    ///   - shape: how many users, chats and messages the server starts with.
    ///   - network: the network between the devices and the server.
    ///   - networkSeed: seeds the network's decisions instead of `seed`.
    public init(seed: UInt64 = 7, shape: MessengerWorld.Shape = MessengerWorld.Shape(), network: Network = .latency(.milliseconds(60)), networkSeed: UInt64? = nil) {
        self.init(world: MessengerWorld(seed: seed, shape: shape), network: network, networkSeed: networkSeed)
    }

    /// A server with `world`'s data and the limits of `server`, behind `network`.
    public init(world: MessengerWorld, server: ServerConfiguration = ServerConfiguration(), network: Network, networkSeed: UInt64? = nil) {
        self.world = world
        self.server = server
        self.network = network
        self.networkSeed = networkSeed ?? world.seed
    }

    /// The network as the shaping proxy plays it: a profile as it is, a latency as a link of
    /// unlimited rate with that delay each way.
    public var profile: NetworkProfile {
        switch network {
        case .profile(let profile):
            return profile
        case .latency(let delay):
            let link = LinkProfile(rate: .unlimited, delay: delay, queueBytes: 1_000_000)
            return NetworkProfile(name: "latency", summary: "every frame \(delay) each way", downlink: link, uplink: link)
        }
    }
}
