/// Everything a client engine is made from, besides its transport, scheduler and clocks.
public struct ClientConfiguration: Hashable, Sendable {
    /// The login token.
    public var token: String
    /// The SQLite cache file (created when missing).
    public var databasePath: String
    /// Seeds every random choice of the engine (client ids, back-off jitter). Must differ
    /// between installs that talk to the same server (see ``ClientIDGenerator``).
    public var seed: UInt64
    public var connection: ConnectionConfiguration
    public var outbox: OutboxConfiguration
    public var screen: ScreenConfiguration
    /// Log entries kept in memory.
    public var logCapacity: Int

    public init(
        token: String,
        databasePath: String,
        seed: UInt64,
        connection: ConnectionConfiguration = ConnectionConfiguration(),
        outbox: OutboxConfiguration = OutboxConfiguration(),
        screen: ScreenConfiguration = ScreenConfiguration(),
        logCapacity: Int = 1_000
    ) {
        self.token = token
        self.databasePath = databasePath
        self.seed = seed
        self.connection = connection
        self.outbox = outbox
        self.screen = screen
        self.logCapacity = logCapacity
    }
}
