import LowbandClient
import LowbandDeterminism
import LowbandFixtures
import LowbandServer
import LowbandShaper
import LowbandSimulation
import LowbandTesting
import LowbandTransport
import LowbandWire
import Testing

/// A real messenger server and client engines on one virtual clock, over an in-memory network,
/// each engine with a real SQLite file: deterministic end-to-end runs. The world itself is the
/// LowbandTesting product's; this adds the client tests' defaults (engine seed 11, one cache
/// file name per engine, short time-outs) and their event collector.
final class ClientTestWorld {
    let world: LowbandTesting.VirtualWorld
    var scheduler: VirtualScheduler { world.scheduler }
    var server: MessengerServer { world.server }
    var network: InMemoryNetwork { world.network }
    var workClock: ManualWorkClock { world.workClock }

    /// - Parameter profile: shapes the network by this profile (its seed is `seed`) instead of
    ///   adding `latency` to every frame.
    init(seed: UInt64 = 7, latency: Duration = .milliseconds(60), shape: MessengerWorld.Shape = MessengerWorld.Shape(), profile: NetworkProfile? = nil) throws {
        world = try LowbandTesting.VirtualWorld(seed: seed, profile: profile, latency: latency, shape: shape)
    }

    static let connection = ConnectionConfiguration(
        requestTimeout: .seconds(10), loginTimeout: .seconds(10), heartbeatInterval: .seconds(15), heartbeatTimeout: .seconds(5),
        backoff: Backoff(initialDelay: .milliseconds(200), maximumDelay: .seconds(2)))

    /// An engine logged in as `userID` with its cache in `database`, connecting through
    /// `connector` (nil: straight over the network).
    func makeEngine(
        user userID: Int64 = 1, database: String = "client.sqlite", seed: UInt64 = 11, connection: ConnectionConfiguration = ClientTestWorld.connection,
        outbox: OutboxConfiguration = OutboxConfiguration(), screen: ScreenConfiguration = ScreenConfiguration(), connector: (any FrameConnector)? = nil
    ) throws -> (ClientEngine, EngineEvents) {
        let client = try world.makeClient(user: userID, database: database, seed: seed, connector: connector, start: false) { configuration in
            configuration.connection = connection
            configuration.outbox = outbox
            configuration.screen = screen
        }
        let events = EngineEvents()
        client.engine.addObserver(events)
        return (client.engine, events)
    }

    /// An engine of user 1, logged in, with its `chatIndex`-th chat open on a screen of 10-row
    /// pages that has shown its first page and gone idle.
    func engineWithOpenChat(_ chatIndex: Int = 0) throws -> (engine: ClientEngine, events: EngineEvents, screen: ChatScreenModel, chat: MessengerWorld.ChatHistory) {
        let chat = chats(of: 1)[chatIndex]
        let (engine, events) = try makeEngine(screen: ScreenConfiguration(pageSize: 10))
        engine.start()
        #expect(run { engine.connection.isLoggedIn })
        let screen = engine.openChat(chat.id)
        screen.open()
        #expect(run { screen.rows.count == 10 && !screen.isLoading && !screen.queue.isBusy })
        return (engine, events, screen, chat)
    }

    /// Chats of `userID`, ascending.
    func chats(of userID: Int64) -> [MessengerWorld.ChatHistory] {
        world.chats(of: userID)
    }

    /// The server's messages of `chatID` sent by `userID` with a client id, in server order.
    func sent(in chatID: Int64, by userID: Int64) -> [Message] {
        (server.core.messages(in: chatID) ?? []).filter { $0.senderID == userID && $0.clientID != nil }
    }

    /// Advances until `condition` holds (checked after every piece of work), or `limit` passes.
    @discardableResult
    func run(until condition: () -> Bool, limit: Duration = .seconds(120)) -> Bool {
        world.advance(until: condition, limit: limit)
    }
}

/// Collects an engine's events.
final class EngineEvents: ClientEngineObserver {
    var events: [ClientEvent] = []

    func engine(_ engine: ClientEngine, didEmit event: ClientEvent) {
        events.append(event)
    }

    var syncs: [SyncStore.SyncOutcome] { events.compactMap { if case .synced(let outcome) = $0 { outcome } else { nil } } }
    var outbox: [OutboxEvent] { events.compactMap { if case .outbox(let event) = $0 { event } else { nil } } }
    var sent: [Message] { outbox.compactMap { if case .sent(_, let message) = $0 { message } else { nil } } }
    var failures: [ClientError] { outbox.compactMap { if case .failed(_, let error) = $0 { error } else { nil } } }
    var arrived: [Message] { events.compactMap { if case .messageArrived(let message) = $0 { message } else { nil } } }
    var disconnects: Int { events.count { if case .disconnected = $0 { true } else { false } } }
}
