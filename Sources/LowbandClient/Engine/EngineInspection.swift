public import LowbandWire

/// What an engine holds at one moment, read-only: for checking what a run promised (nothing
/// lost, nothing duplicated, order kept, nothing stuck, bounded memory) once it has ended.
///
/// Everything is in a fixed order (chats by id, tasks oldest first, screens in opening order),
/// so two inspections of equal engines are equal and print the same. Take it on the engine's
/// scheduler, with ``ClientEngine/inspect()``.
public struct EngineInspection: Hashable, Sendable {
    /// One chat as the cache holds it.
    public struct ChatState: Hashable, Sendable {
        /// The chat.
        public var chatID: Int64
        /// Every cached message of the chat, oldest first (ids ascend).
        public var messages: [Message]
        /// Whether the chat is in the chat list (false: only messages of it are cached).
        public var isListed: Bool
        /// The chat list's unread count (0 when not listed).
        public var unreadCount: Int
        /// The chat list's last message, if cached.
        public var lastMessage: Message?
        /// The user's read position and the other members' receipts (nil when not listed).
        public var read: ReadStore.ChatReadState?
    }

    /// One open chat screen and its update queue.
    public struct ScreenState: Hashable, Sendable {
        /// The chat the screen shows.
        public var chatID: Int64
        /// The visible list, oldest first.
        public var rows: [ScreenRow]
        /// Updates waiting on the screen's queue now.
        public var queueBacklog: Int
        /// The most that ever waited at once.
        public var deepestBacklog: Int
        /// Newer pages still to be fetched after a login (see ``ChatScreenModel/isCatchingUp``).
        public var isCatchingUp: Bool
    }

    /// Chats in the list or with cached messages, by id.
    public var chats: [ChatState]
    /// Outbox tasks not done — pending and failed — oldest first, each with its `storedAt`.
    public var outbox: [OutboxTask]
    /// Requests owing a reply on the connection now (``Connection/pendingRequestCount``).
    public var pendingRequests: Int
    /// The cap on callers' requests in flight (`ConnectionConfiguration.maximumPendingRequests`).
    public var maximumPendingRequests: Int
    /// Read positions stored but not yet acknowledged by the server, by chat id.
    public var owedReadPositions: [ReadStore.Owed]
    /// The open chat screens, in opening order.
    public var screens: [ScreenState]
}

extension ClientEngine {
    /// Reads the cache and the in-memory state into an ``EngineInspection``. Changes nothing.
    ///
    /// - Throws: ``ClientError`` `.database` when the cache cannot be read.
    public func inspect() throws(ClientError) -> EngineInspection {
        do {
            let listed = try sync.chats()
            let listedByID = Dictionary(listed.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let chatIDs = Set(listed.map(\.id)).union(try messages.chatIDs()).sorted()
            var chats: [EngineInspection.ChatState] = []
            for chatID in chatIDs {
                let chat = listedByID[chatID]
                chats.append(EngineInspection.ChatState(
                    chatID: chatID, messages: try messages.allMessages(chatID: chatID), isListed: chat != nil,
                    unreadCount: chat?.unreadCount ?? 0, lastMessage: chat?.lastMessage, read: try reads.store.state(chatID: chatID)))
            }
            let screens = openScreens.map { screen in
                EngineInspection.ScreenState(
                    chatID: screen.chatID, rows: screen.rows, queueBacklog: screen.queue.backlog,
                    deepestBacklog: screen.queue.metrics.deepestBacklog, isCatchingUp: screen.isCatchingUp)
            }
            return EngineInspection(
                chats: chats, outbox: try outbox.store.unfinishedTasks(), pendingRequests: connection.pendingRequestCount,
                maximumPendingRequests: connection.configuration.maximumPendingRequests, owedReadPositions: try reads.store.owed(),
                screens: screens)
        } catch let error as ClientError {
            throw error
        } catch {
            throw ClientError(.database, "cannot read the cache for an inspection: \(error)")
        }
    }
}
