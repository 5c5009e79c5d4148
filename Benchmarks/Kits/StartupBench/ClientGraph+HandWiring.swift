import LowbandClient
import LowbandDeterminism
import LowbandWire

extension ClientGraph {
    /// Wires the graph by hand, line for line as `ClientEngine.init` does: each service gets
    /// what it needs through its initializer, in dependency order, and the same seeded streams
    /// (`derived(1)` client ids, `derived(2)` connection, `derived(3)` outbox).
    public static func wiredByHand(_ inputs: ClientGraphInputs) -> ClientGraph {
        let configuration = inputs.configuration
        let root = SeededGenerator(seed: configuration.seed)
        let log = ClientLog(capacity: configuration.logCapacity)
        let database = inputs.database
        let messages = MessageStore(writer: database.writer)
        let sync = SyncStore(writer: database.writer)
        let outboxStore = OutboxStore(writer: database.writer, clientIDs: ClientIDGenerator(generator: root.derived(1)))
        let token = configuration.token
        let connection = Connection(
            connector: inputs.connector, scheduler: inputs.scheduler, configuration: configuration.connection,
            generator: root.derived(2), log: log,
            loginRequest: { LoginRequest(token: token, lastSync: (try? sync.lastSync()) ?? 0) })
        let outbox = Outbox(
            store: outboxStore, sender: connection, scheduler: inputs.scheduler, configuration: configuration.outbox,
            generator: root.derived(3), log: log)
        let history = HistoryService(store: messages, sender: connection, scheduler: inputs.scheduler, log: log)
        let screen = ChatScreenModel(
            chatID: inputs.firstChatID, userID: inputs.userID, history: history, scheduler: inputs.scheduler,
            workClock: inputs.workClock, configuration: configuration.screen)
        return ClientGraph(
            log: log, database: database, messages: messages, sync: sync, connection: connection, outbox: outbox,
            history: history, screen: screen)
    }
}
