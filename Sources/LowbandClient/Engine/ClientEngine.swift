public import LowbandDeterminism
public import LowbandTransport
public import LowbandWire

/// What the engine tells its owner (a CLI, a scenario, a test).
public enum ClientEvent: Hashable, Sendable {
    /// A login reply was applied to the cache (delta sync after every reconnect).
    case synced(SyncStore.SyncOutcome)
    /// A push was applied to the cache.
    case messageArrived(Message)
    /// The outbox stored, sent, retried or gave up a task.
    case outbox(OutboxEvent)
    /// The session ended with this error; the connection reconnects with back-off.
    case disconnected(ClientError)
    /// The connection stopped for good: ``ClientEngine/stop()`` (code `.stopped`) or an error it
    /// does not retry.
    case stopped(ClientError)
}

/// Receives the engine's events at once, on its scheduler (see ``ClientEngine/addObserver(_:)``).
public protocol ClientEngineObserver: AnyObject {
    /// Called for every event, in order, on the engine's scheduler.
    func engine(_ engine: ClientEngine, didEmit event: ClientEvent)
}

/// The offline-first client engine and its composition root.
///
/// The initializer is the one place where the services are made and wired, by hand, each
/// getting what it needs through its initializer, in dependency order: log → cache →
/// stores → connection → outbox → read marker → history. No container, no reflection: reading it top to
/// bottom is reading the engine's object graph (a start-up benchmark compares this with a DI
/// container). Everything runs on `scheduler`; nothing reads the wall clock or the global
/// random generator.
///
/// An app needs only its façade: ``start()`` and ``stop()``, ``send(text:to:attachment:)``,
/// ``openChat(_:)``, ``markRead(chatID:upTo:)``, ``pendingTasks()`` and ``events(bufferingNewest:)``.
/// The services below are public for tools, scenarios and tests that look inside.
public final class ClientEngine {
    /// What the engine was made from.
    public let configuration: ClientConfiguration
    /// Runs everything the engine does, and its timers.
    public let scheduler: any Scheduler
    /// The engine's recent log entries, in memory (``ClientConfiguration/logCapacity``).
    public let log: ClientLog
    /// The SQLite cache file every store below reads and writes.
    public let database: CacheDatabase
    /// Messages in the cache: live pushes, history pages, the chat screen's reads.
    public let messages: MessageStore
    /// Chats and contacts, and the delta sync a login reply applies.
    public let sync: SyncStore
    /// The session with the server: connecting, login, back-off, requests and pushes.
    public let connection: Connection
    /// Messages and uploads waiting to be sent, stored before they go out.
    public let outbox: Outbox
    /// Read positions, sent to the server when a session is up.
    public let reads: ReadMarker
    /// History pages fetched in chunks around what the screen shows.
    public let history: HistoryService
    private let workClock: any WorkClock
    private var screens: [WeakScreen] = []
    private var checkpointQueued = false
    private let broadcast = ClientEventBroadcast()

    /// Builds the engine. Nothing connects until ``start()``.
    ///
    /// - Parameters:
    ///   - configuration: the token, the cache file, the seed and the services' settings.
    ///   - connector: opens links to the server (sockets in the product, in-memory in tests).
    ///   - scheduler: runs everything the engine does, and its timers.
    ///   - workClock: measures screen work for the dropped-frame count.
    /// - Throws: ``ClientError`` `.database` when the cache cannot be opened even fresh.
    public init(configuration: ClientConfiguration, connector: any FrameConnector, scheduler: any Scheduler, workClock: any WorkClock) throws(ClientError) {
        let root = SeededGenerator(seed: configuration.seed)
        self.configuration = configuration
        self.scheduler = scheduler
        self.workClock = workClock

        let log = ClientLog(capacity: configuration.logCapacity)
        self.log = log

        let database = try CacheDatabase(path: configuration.databasePath, writes: configuration.cacheWrites)
        self.database = database
        if let recovery = database.recovery {
            log.record(ClientLogEntry(time: scheduler.now, level: .error, event: "cacheRecovered", message: recovery.description))
        }

        let messages = MessageStore(writer: database.writer, statements: database.statements)
        let sync = SyncStore(writer: database.writer)
        let outboxStore = OutboxStore(
            writer: database.writer, clientIDs: ClientIDGenerator(generator: root.derived(1)), statements: database.statements)
        self.messages = messages
        self.sync = sync

        let token = configuration.token
        let offered = configuration.compressionDictionaries.map(\.wireValue)
        let connection = Connection(
            connector: connector, scheduler: scheduler, configuration: configuration.connection,
            generator: root.derived(2), log: log,
            loginRequest: {
                // The cursor is read at each login, so every reconnect is a delta sync.
                let lastSync = (try? sync.lastSync()) ?? 0
                return LoginRequest(token: token, lastSync: lastSync, compressionDictionaries: offered)
            }
        )
        self.connection = connection

        self.outbox = Outbox(
            store: outboxStore, sender: connection, scheduler: scheduler, configuration: configuration.outbox,
            generator: root.derived(3), log: log)
        self.reads = ReadMarker(
            store: ReadStore(writer: database.writer), sender: connection, scheduler: scheduler,
            backoff: configuration.outbox.retryBackoff, generator: root.derived(4), log: log)
        self.history = HistoryService(store: messages, sender: connection, scheduler: scheduler, log: log)

        connection.observer = self
        outbox.observer = self
    }

    // MARK: Events

    /// How many unread events an ``events(bufferingNewest:)`` stream holds by default.
    public static let defaultEventBuffer = 1_024

    /// Every event the engine emits from now on, in order, for one consumer; open as many
    /// streams as there are consumers, each with its own buffer.
    ///
    /// A stream holds at most `limit` events its consumer has not read yet. A consumer that
    /// falls further behind loses the oldest of them: the newest `limit` are kept (the
    /// `bufferingNewest` policy), so a slow consumer never holds the engine up and never grows
    /// memory without bound (a `limit` below 1 is taken as 1). Cancelling the consuming task ends the stream and removes it from
    /// the engine; every stream ends when the engine is released. Call it on the engine's
    /// scheduler; observers (``addObserver(_:)``) see each event before the streams do.
    public func events(bufferingNewest limit: Int = ClientEngine.defaultEventBuffer) -> AsyncStream<ClientEvent> {
        broadcast.stream(bufferingNewest: limit)
    }

    /// Calls `observer` for every event, at once on the engine's scheduler, after the observers
    /// added before it. Held weakly; adding it again changes nothing.
    ///
    /// For code that must act in the same turn of the scheduler as the event (the engine host's
    /// waits, virtual-time scenarios); anything else reads ``events(bufferingNewest:)``.
    public func addObserver(_ observer: any ClientEngineObserver) {
        broadcast.add(observer)
    }

    /// Stops calling `observer`.
    public func removeObserver(_ observer: any ClientEngineObserver) {
        broadcast.remove(observer)
    }

    /// Event streams still open (neither cancelled nor ended).
    var eventStreamCount: Int { broadcast.streamCount }

    /// Resumes the stored outbox and the owed read positions, and starts connecting.
    public func start() {
        outbox.start()
        reads.start()
        connection.start()
    }

    /// Stops the outbox, the read marker and the connection; timers are cancelled and nothing
    /// connects again. The cache stays open until the engine is released.
    public func stop() {
        outbox.stop()
        reads.stop()
        connection.stop()
    }

    /// Stores a message in the outbox; it goes out when a session is up.
    ///
    /// - Returns: the stored task, with the client id that makes a resend idempotent.
    /// - Throws: ``ClientError`` `.database` when the cache fails (nothing is stored).
    @discardableResult
    public func send(text: String, to chatID: Int64, attachment: OutgoingAttachment? = nil) throws(ClientError) -> OutboxTask {
        try outbox.enqueueMessage(chatID: chatID, text: text, attachment: attachment)
    }

    /// Marks `chatID` read up to message `upTo` (one the cache holds): the position and the
    /// chat's unread count change in the cache at once, and the server is told when a session
    /// is up — after a lost link or a restart too, until it has acknowledged it. Idempotent; a
    /// position at or below the current one changes nothing.
    ///
    /// - Returns: whether the read position moved.
    /// - Throws: ``ClientError`` `.unknownMessage` when the cache holds no such message in the
    ///   chat; `.database` when the cache fails.
    @discardableResult
    public func markRead(chatID: Int64, upTo: Int64) throws(ClientError) -> Bool {
        try reads.markRead(chatID: chatID, upTo: upTo)
    }

    /// The messages and uploads stored and not yet acknowledged by the server, oldest first.
    ///
    /// - Throws: ``ClientError`` `.database` when the cache cannot be read.
    public func pendingTasks() throws(ClientError) -> [OutboxTask] {
        do {
            return try outbox.store.pendingTasks()
        } catch {
            throw ClientError(.database, "cannot read the outbox: \(error)")
        }
    }

    /// A screen for `chatID`, fed by the cache-first history and live messages. Call
    /// ``ChatScreenModel/open()`` to load its first page.
    public func openChat(_ chatID: Int64) -> ChatScreenModel {
        let screen = ChatScreenModel(
            chatID: chatID, userID: (try? sync.userID()) ?? 0, history: history, scheduler: scheduler,
            workClock: workClock, configuration: configuration.screen)
        screens.removeAll { $0.screen == nil }
        screens.append(WeakScreen(screen: screen))
        return screen
    }

    /// The chat screens opened with ``openChat(_:)`` that are still alive, in opening order.
    public var openScreens: [ChatScreenModel] {
        screens.compactMap(\.screen)
    }

    private struct WeakScreen {
        weak var screen: ChatScreenModel?
    }

    private func record(_ level: ClientLogEntry.Level, _ event: String, _ message: String) {
        log.record(ClientLogEntry(time: scheduler.now, level: level, event: event, message: message))
    }

    private func emit(_ event: ClientEvent) {
        broadcast.emit(event, from: self)
    }
}

extension ClientEngine: ConnectionObserver {
    public func connection(_ connection: Connection, didEmit event: ConnectionEvent) {
        switch event {
        case .loggedIn(let reply):
            do {
                emit(.synced(try sync.apply(login: reply)))
            } catch {
                record(.error, "databaseFailed", "cannot apply the login reply: \(error)")
            }
            outbox.connectionDidLogIn()
            reads.pump()
            for screen in openScreens { screen.connectionDidLogIn() }
        case .push(let frame):
            handlePush(frame)
        case .disconnected(let error):
            emit(.disconnected(error))
        case .stopped(let error):
            emit(.stopped(error))
        }
        checkpointLater()
    }

    /// Copies a long cache log back into the file on a turn of its own, queued behind the
    /// screen updates the event queued, so a pushed row is shown before the checkpoint's syncs
    /// (2–4 ms on disk) instead of after them (``WALCheckpoints``).
    private func checkpointLater() {
        guard !checkpointQueued, database.isCheckpointDue else { return }
        checkpointQueued = true
        scheduler.execute { [weak self] in
            guard let self else { return }
            self.checkpointQueued = false
            do {
                try self.database.checkpointIfDue()
            } catch {
                self.record(.warning, "checkpointFailed", "\(error)")
            }
        }
    }

    private func handlePush(_ frame: Frame) {
        let arrivedAt = scheduler.now
        do {
            switch try ServerPush(frame) {
            case .newMessage(let push):
                // Shown first, then stored, in the same turn: the row does not wait for the
                // cache's commit. Nothing else runs between the two; a process killed between
                // them has not stored a message the server still holds, and the chat's next
                // catch-up or page brings it again.
                let message = push.message
                var shown = false
                for screen in openScreens where screen.chatID == message.chatID {
                    screen.messageArrived(message, at: arrivedAt)
                    shown = true
                }
                do {
                    try messages.applyLive(message)
                } catch where shown {
                    return record(
                        .warning, "badPush",
                        "message \(message.id) of chat \(message.chatID) is on screen but was not stored: \(error); the chat's history brings it again")
                }
                emit(.messageArrived(message))
            case .contactChanged(let push):
                try sync.apply(contact: push.contact)
            case .readReceipt(let receipt):
                try reads.store.apply(receipt: receipt)
            case nil:
                record(.warning, "unknownPush", "push \(frame.command) #\(frame.sequence) is not in this client's catalogue; dropped")
            }
        } catch {
            record(.warning, "badPush", "push \(frame.command) #\(frame.sequence) dropped: \(error)")
        }
    }
}

extension ClientEngine: OutboxObserver {
    public func outbox(_ outbox: Outbox, didEmit event: OutboxEvent) {
        for screen in openScreens { screen.outboxDidEmit(event) }
        emit(.outbox(event))
        checkpointLater()
    }
}
