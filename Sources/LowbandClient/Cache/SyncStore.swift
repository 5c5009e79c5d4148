public import GRDB
public import LowbandWire

/// The offline-first part of the cache: settings, contacts, chats with their last message, and
/// the sync cursor a login passes as `lastSync` so the server sends only what changed.
public final class SyncStore {
    private let writer: any DatabaseWriter

    /// A store over the cache database `writer`. Every call is atomic (through `writeCached`, a
    /// savepoint in a simulated cache's open batch).
    public init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// What one login reply changed.
    public struct SyncOutcome: Hashable, Sendable {
        /// The logged-in user.
        public var userID: Int64
        /// The reply's server time, now the cursor for the next login's `lastSync`.
        public var serverTime: ServerTime
        /// Whether the reply carried new settings.
        public var settingsChanged: Bool
        /// Contacts the reply added or changed.
        public var contactsChanged: Int
        /// Chats the reply added or changed.
        public var chatsChanged: Int
        /// True when the reply was a full sync (`lastSync` was 0).
        public var wasFullSync: Bool
    }

    /// The `serverTime` of the last login reply applied; 0 before the first.
    public func lastSync() throws -> ServerTime {
        try writer.readCached { db in try ServerTime.fetchOne(db.cachedStatement(sql: "SELECT lastSync FROM syncState WHERE id = 1")) ?? 0 }
    }

    /// The user of the last login, if any.
    public func userID() throws -> Int64? {
        try writer.readCached { db in try Int64.fetchOne(db.cachedStatement(sql: "SELECT userID FROM syncState WHERE id = 1")) }
    }

    /// Applies a login reply in one transaction and moves the cursor to its `serverTime`.
    ///
    /// A chat's new last message is stored as a chunk of its own: the cache cannot know what
    /// lies between it and what was cached before, so the gap stays a gap.
    @discardableResult
    public func apply(login reply: LoginReply) throws -> SyncOutcome {
        try writer.writeCached { db in
            let previous = try ServerTime.fetchOne(db.cachedStatement(sql: "SELECT lastSync FROM syncState WHERE id = 1")) ?? 0
            if let settings = reply.settings {
                try CacheRows.upsert(settings, into: db)
            }
            for contact in reply.contacts {
                try CacheRows.upsert(contact, into: db)
            }
            try db.cachedStatement(sql: "UPDATE syncState SET userID = ?, lastSync = ? WHERE id = 1").execute(arguments: [reply.userID, reply.serverTime])
            for chat in reply.chats {
                try CacheRows.upsert(chat, into: db)
                if let last = chat.lastMessage {
                    let known = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM message WHERE chatID = ? AND id = ?)"), arguments: [chat.id, last.id]) ?? false
                    try CacheRows.insert(last, into: db)
                    if !known {
                        var chunks = try MessageStore.loadChunks(db, chatID: chat.id)
                        chunks.forgetChunk(containing: last.id)
                        chunks.insert(.single(last.id))
                        try MessageStore.saveChunks(db, chunks)
                    }
                }
                try ReadPositions.loginApplied(db, chatID: chat.id)
            }
            return SyncOutcome(
                userID: reply.userID, serverTime: reply.serverTime, settingsChanged: reply.settings != nil,
                contactsChanged: reply.contacts.count, chatsChanged: reply.chats.count, wasFullSync: previous == 0)
        }
    }

    /// A contact changed (a push).
    public func apply(contact: Contact) throws {
        try writer.writeCached { db in try CacheRows.upsert(contact, into: db) }
    }

    /// The user's settings from the last sync that carried them; nil before the first.
    ///
    /// - Throws: the database's error when the cache cannot be read.
    public func settings() throws -> Settings? {
        try writer.readCached { db in try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM settings WHERE id = 1")).map(CacheRows.settings) }
    }

    /// Contacts by id.
    public func contacts() throws -> [Contact] {
        try writer.readCached { db in try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM contact ORDER BY id")).map(CacheRows.contact) }
    }

    /// The chat list as cached, newest activity first (ties by id), each with its last message
    /// (the one the chat's `lastMessageID` names, if cached).
    ///
    /// - Throws: ``ClientError`` `.database` naming the chat when a stored list is not valid
    ///   JSON; GRDB's error when the cache cannot be read.
    public func chats() throws -> [Chat] {
        try writer.readCached { db in try ChatListQuery.fetch(db) }
    }
}
