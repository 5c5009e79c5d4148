public import LowbandClient
public import LowbandDeterminism
public import LowbandTransport
import GRDB

/// The client engine's object graph, built the way ``ClientEngine``'s initializer builds it.
///
/// `ClientEngine` makes its services inside its own initializer and opens its database there
/// (from a path), so a container cannot build it from parts, and constructing it always costs a
/// SQLite open and a migration check. This root holds the same services, made by the same
/// public constructors with the same arguments, so that hand wiring and a container can be
/// compared on the graph itself. It plays the engine's part in the graph: it observes the
/// connection and the outbox (property injection, as the engine does) and owns the screen the
/// app opens first (the engine makes screens later, in `openChat`).
public final class ClientGraph {
    public let log: ClientLog
    public let database: CacheDatabase
    public let messages: MessageStore
    public let sync: SyncStore
    public let connection: Connection
    public let outbox: Outbox
    public let history: HistoryService
    public let screen: ChatScreenModel

    public init(
        log: ClientLog, database: CacheDatabase, messages: MessageStore, sync: SyncStore, connection: Connection,
        outbox: Outbox, history: HistoryService, screen: ChatScreenModel
    ) {
        self.log = log
        self.database = database
        self.messages = messages
        self.sync = sync
        self.connection = connection
        self.outbox = outbox
        self.history = history
        self.screen = screen
        connection.observer = self
        outbox.observer = self
    }
}

extension ClientGraph: ConnectionObserver {
    public func connection(_ connection: Connection, didEmit event: ConnectionEvent) {
        if case .loggedIn = event {
            outbox.connectionDidLogIn()
            screen.connectionDidLogIn()
        }
    }
}

extension ClientGraph: OutboxObserver {
    public func outbox(_ outbox: Outbox, didEmit event: OutboxEvent) {
        screen.outboxDidEmit(event)
    }
}

/// What the composition root receives from outside: `ClientEngine.init`'s parameters, with the
/// cache already open.
///
/// The database is opened (and migrated) once, before any measurement, so the wiring
/// benchmarks measure wiring and not SQLite; opening is what the cold-start benchmark measures.
/// `userID` is what the engine reads from the cache for each screen, read here once for the
/// same reason.
public struct ClientGraphInputs {
    public var configuration: ClientConfiguration
    public var database: CacheDatabase
    public var connector: any FrameConnector
    public var scheduler: any Scheduler
    public var workClock: any WorkClock
    public var userID: Int64
    /// The chat whose screen the app opens first.
    public var firstChatID: Int64

    public init(
        configuration: ClientConfiguration, database: CacheDatabase, connector: any FrameConnector, scheduler: any Scheduler,
        workClock: any WorkClock, userID: Int64, firstChatID: Int64
    ) {
        self.configuration = configuration
        self.database = database
        self.connector = connector
        self.scheduler = scheduler
        self.workClock = workClock
        self.userID = userID
        self.firstChatID = firstChatID
    }

    /// Inputs on an in-memory cache, a virtual scheduler and a connector that stays offline.
    ///
    /// - Throws: ``ClientError`` when the in-memory cache cannot be migrated.
    public static func inMemory(seed: UInt64 = 1) throws(ClientError) -> ClientGraphInputs {
        let writer: DatabaseQueue
        do {
            writer = try DatabaseQueue()
        } catch {
            throw ClientError(.database, "cannot open an in-memory SQLite database for the wiring benchmark: \(error)")
        }
        let database = try CacheDatabase(writer: writer)
        return ClientGraphInputs(
            configuration: ClientConfiguration(token: "startup-bench", databasePath: database.path, seed: seed),
            database: database, connector: OfflineConnector(), scheduler: VirtualScheduler(), workClock: ManualWorkClock(),
            userID: 1, firstChatID: 1)
    }
}
