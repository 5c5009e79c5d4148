public import LowbandWire

/// Everything a client engine is made from, besides its transport, scheduler and clocks.
public struct ClientConfiguration: Hashable, Sendable {
    /// The login token.
    public var token: String
    /// The SQLite cache file (created when missing).
    public var databasePath: String
    /// Seeds every random choice of the engine (client ids, back-off jitter). Must differ
    /// between installs that talk to the same server (see ``ClientIDGenerator``).
    public var seed: UInt64
    /// The session with the server: request, login, heartbeat and unanswered timeouts, the
    /// reconnect back-off and the most requests in flight.
    public var connection: ConnectionConfiguration
    /// The outbox: upload chunk size, concurrent uploads, request timeout and retry back-off.
    public var outbox: OutboxConfiguration
    /// The chat screen: page size, viewport rows, prefetch distance and animation times.
    public var screen: ScreenConfiguration
    /// Log entries kept in memory.
    public var logCapacity: Int
    /// The wire dictionaries the login offers, whose bytes the connector's frame configuration
    /// must have (`LowbandWire/CompressionPolicy/dictionaries`, the shipped ones by default); the
    /// server picks one or none, and the link compresses with it both ways. Empty: plain LZ4,
    /// as a client before dictionaries (docs/PROTOCOL.md, "Compression dictionaries").
    public var compressionDictionaries: [WireDictionary.ID]
    /// How the cache file is written: `.durable` unless a virtual-time run says otherwise.
    package var cacheWrites: CacheWrites = .durable

    /// A configuration with the defaults of every service; only the token, the cache file and
    /// the seed are the caller's to choose.
    public init(
        token: String,
        databasePath: String,
        seed: UInt64,
        connection: ConnectionConfiguration = ConnectionConfiguration(),
        outbox: OutboxConfiguration = OutboxConfiguration(),
        screen: ScreenConfiguration = ScreenConfiguration(),
        logCapacity: Int = 1_000,
        compressionDictionaries: [WireDictionary.ID] = WireDictionary.shipped.map(\.id)
    ) {
        self.token = token
        self.databasePath = databasePath
        self.seed = seed
        self.connection = connection
        self.outbox = outbox
        self.screen = screen
        self.logCapacity = logCapacity
        self.compressionDictionaries = compressionDictionaries
    }

    /// The longest an outbox task waits, counting only time its session is up, once it is at
    /// the head of its chat's queue (the sends before it in that chat are resolved, its upload
    /// is done): by then it is resolved — sent, or refused for good — or the session has ended.
    ///
    /// `connection.unansweredTimeout + outbox.retryBackoff.maximumDelay`: an attempt starts as
    /// soon as the task is at the head (or the session starts), or within the retry back-off
    /// cap after a transient failure (the server busy, too many requests in flight); a request
    /// unanswered for `unansweredTimeout` closes the link. It holds while the server does not
    /// answer the task with another transient error, and when `outbox.requestTimeout` is at
    /// least `connection.unansweredTimeout` (the defaults: 30 s each, so 90 s): a shorter
    /// request timeout could fail attempts on a slow link that still answers, and retry them
    /// without end. A chat's k-th pending send is therefore resolved within k bounds of
    /// session time. See docs/CLIENT.md, "Liveness bound".
    public var outboxLivenessBound: Duration {
        connection.unansweredTimeout + outbox.retryBackoff.maximumDelay
    }
}
