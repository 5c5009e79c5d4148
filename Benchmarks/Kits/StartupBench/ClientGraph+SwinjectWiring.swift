import LowbandClient
import LowbandDeterminism
import LowbandTransport
import LowbandWire
public import Swinject

extension ClientGraph {
    /// Registers every service of the graph in a new Swinject container and resolves the root.
    ///
    /// This is what an app pays at each launch with a container: the registrations, then the
    /// resolution. Services are in the `.container` scope (one instance per container, what an
    /// app's long-lived services are); the outside inputs are registered as instances, as an
    /// app registers its configuration and platform objects. The container is returned with
    /// the root, as an app keeps it for later resolutions.
    public static func wiredBySwinject(_ inputs: ClientGraphInputs) -> ContainerGraph<ClientGraph> {
        let container = makeContainer(inputs)
        return ContainerGraph(root: container.require(ClientGraph.self), container: container)
    }

    /// The container with every registration, before anything is resolved.
    public static func makeContainer(_ inputs: ClientGraphInputs) -> Container {
        let container = Container(defaultObjectScope: .container)
        let configuration = inputs.configuration
        let database = inputs.database
        let connector = inputs.connector
        let scheduler = inputs.scheduler
        let workClock = inputs.workClock
        let userID = inputs.userID
        let firstChatID = inputs.firstChatID

        container.register(ClientConfiguration.self) { _ in configuration }
        container.register(CacheDatabase.self) { _ in database }
        container.register((any FrameConnector).self) { _ in connector }
        container.register((any Scheduler).self) { _ in scheduler }
        container.register((any WorkClock).self) { _ in workClock }
        container.register(SeededGenerator.self) { r in SeededGenerator(seed: r.require(ClientConfiguration.self).seed) }

        container.register(ClientLog.self) { r in ClientLog(capacity: r.require(ClientConfiguration.self).logCapacity) }
        container.register(MessageStore.self) { r in MessageStore(writer: r.require(CacheDatabase.self).writer) }
        container.register(SyncStore.self) { r in SyncStore(writer: r.require(CacheDatabase.self).writer) }
        container.register(ClientIDGenerator.self) { r in ClientIDGenerator(generator: r.require(SeededGenerator.self).derived(1)) }
        container.register(OutboxStore.self) { r in
            OutboxStore(writer: r.require(CacheDatabase.self).writer, clientIDs: r.require(ClientIDGenerator.self))
        }
        container.register(Connection.self) { r in
            let configuration = r.require(ClientConfiguration.self)
            let sync = r.require(SyncStore.self)
            let token = configuration.token
            return Connection(
                connector: r.require((any FrameConnector).self), scheduler: r.require((any Scheduler).self),
                configuration: configuration.connection, generator: r.require(SeededGenerator.self).derived(2),
                log: r.require(ClientLog.self),
                loginRequest: { LoginRequest(token: token, lastSync: (try? sync.lastSync()) ?? 0) })
        }
        container.register(Outbox.self) { r in
            Outbox(
                store: r.require(OutboxStore.self), sender: r.require(Connection.self), scheduler: r.require((any Scheduler).self),
                configuration: r.require(ClientConfiguration.self).outbox, generator: r.require(SeededGenerator.self).derived(3),
                log: r.require(ClientLog.self))
        }
        container.register(HistoryService.self) { r in
            HistoryService(
                store: r.require(MessageStore.self), sender: r.require(Connection.self), scheduler: r.require((any Scheduler).self),
                log: r.require(ClientLog.self))
        }
        container.register(ChatScreenModel.self) { r in
            ChatScreenModel(
                chatID: firstChatID, userID: userID, history: r.require(HistoryService.self), scheduler: r.require((any Scheduler).self),
                workClock: r.require((any WorkClock).self), configuration: r.require(ClientConfiguration.self).screen)
        }
        container.register(ClientGraph.self) { r in
            ClientGraph(
                log: r.require(ClientLog.self), database: r.require(CacheDatabase.self), messages: r.require(MessageStore.self),
                sync: r.require(SyncStore.self), connection: r.require(Connection.self), outbox: r.require(Outbox.self),
                history: r.require(HistoryService.self), screen: r.require(ChatScreenModel.self))
        }
        return container
    }
}
