public import GRDB
public import LowbandWire

/// Cached messages and the history chunks that say which ranges of them are complete.
///
/// Every change to messages and chunks happens in one transaction, so a crash never leaves a
/// chunk claiming messages that are not stored. The range logic itself is the pure
/// ``HistoryChunks``, ``HistoryCoverage`` and ``HistoryReconciliation``.
public final class MessageStore {
    private let writer: any DatabaseWriter
    /// The live delivery's statements (``CacheDatabase/statements`` in the engine).
    private let statements: HeldStatements?

    /// A store over the cache database `writer` (a ``CacheDatabase``'s writer in the product, a
    /// `DatabaseQueue()` in tests). Every call is atomic (through `writeCached`, a savepoint in a
    /// simulated cache's open batch).
    public convenience init(writer: any DatabaseWriter) {
        self.init(writer: writer, statements: nil)
    }

    /// A store over `writer` whose live deliveries run `statements`, which whoever closes the
    /// connection finalizes first (``CacheDatabase/statements``).
    package init(writer: any DatabaseWriter, statements: HeldStatements?) {
        self.writer = writer
        self.statements = statements
    }

    /// What storing a server page did.
    public struct PageOutcome: Hashable, Sendable {
        /// The range the page proved complete (nil: none).
        public var covered: ClosedRange<Int64>?
        /// Chunks joined into the page's chunk (two or more: the page closed a gap).
        public var absorbedChunks: Int
        /// The messages the page wrote and deleted inside the covered range.
        public var reconciliation: HistoryReconciliation
    }

    // MARK: - Reading

    /// The chat's chunks, oldest first.
    ///
    /// - Throws: the database's error when the cache cannot be read.
    public func chunks(chatID: Int64) throws -> HistoryChunks {
        try writer.readCached { db in try Self.loadChunks(db, chatID: chatID) }
    }

    /// The chat's newest message as the cache knows it.
    public func newestMessageID(chatID: Int64) throws -> Int64? {
        try writer.readCached { db in try Self.newestMessageID(db, chatID: chatID) }
    }

    /// The cached message `id` of the chat, or nil when it is not cached.
    ///
    /// - Throws: the database's error when the cache cannot be read.
    public func message(chatID: Int64, id: Int64) throws -> Message? {
        try writer.readCached { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM message WHERE chatID = ? AND id = ?"), arguments: [chatID, id]).map(CacheRows.message)
        }
    }

    /// Up to `limit` of the newest cached messages of the chat in `range`, oldest first.
    public func messages(chatID: Int64, in range: ClosedRange<Int64>, newest limit: Int) throws -> [Message] {
        try writer.readCached { db in try Self.messages(db, chatID: chatID, in: range, newest: limit) }
    }

    /// The chats the cache holds messages of, ascending.
    public func chatIDs() throws -> [Int64] {
        try writer.readCached { db in try Int64.fetchAll(db.cachedStatement(sql: "SELECT DISTINCT chatID FROM message ORDER BY chatID")) }
    }

    /// Every cached message of the chat, oldest first.
    public func allMessages(chatID: Int64) throws -> [Message] {
        try writer.readCached { db in
            var messages: [Message] = []
            try db.cachedStatement(sql: Self.allMessagesSQL).forEachRow(.integer(chatID)) { row in
                messages.append(try CacheRows.message(row))
            }
            return messages
        }
    }

    /// What the cache can show newer than `anchor`: up to `count` cached messages just above
    /// it inside the chunk that holds it (oldest first), and whether they reach the chat's
    /// newest known message.
    public func newer(chatID: Int64, than anchor: Int64, count: Int) throws -> (messages: [Message], reachesNewest: Bool) {
        try writer.readCached { db in
            let newest = try Self.newestMessageID(db, chatID: chatID)
            guard let newest, newest > anchor else { return ([], true) }
            guard let chunk = try Self.loadChunks(db, chatID: chatID).chunk(containing: anchor), chunk.newestID > anchor else { return ([], false) }
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM message WHERE chatID = ? AND id > ? AND id <= ? ORDER BY id LIMIT ?"),
                arguments: [chatID, anchor, chunk.newestID, min(count, Int(Int32.max))])
            let messages = try rows.map(CacheRows.message)
            return (messages, messages.count < count && chunk.newestID >= newest)
        }
    }

    /// Plans the page of `count` messages older than `anchor` (nil: the newest page).
    public func plan(chatID: Int64, olderThan anchor: Int64?, count: Int) throws -> HistoryPlan {
        try writer.readCached { db in
            let chunks = try Self.loadChunks(db, chatID: chatID)
            let newest = try Self.newestMessageID(db, chatID: chatID)
            var failure: (any Error)?
            let plan = HistoryPlan.older(chatID: chatID, anchor: anchor, count: count, newestKnownID: newest, chunks: chunks) { range in
                do {
                    return try Int.fetchOne(
                        db.cachedStatement(sql: "SELECT count(*) FROM message WHERE chatID = ? AND id BETWEEN ? AND ?"),
                        arguments: [chatID, range.lowerBound, range.upperBound]) ?? 0
                } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw failure }
            return plan
        }
    }

    // MARK: - Writing

    /// Stores a server page: inside the range it proves complete the server wins (missing
    /// messages are deleted, different ones replaced), and the range joins the chunks.
    @discardableResult
    public func apply(page reply: HistoryReply, for request: HistoryRequest) throws -> PageOutcome {
        try writer.writeCached { db in
            let chatID = request.chatID
            let coverage = HistoryCoverage(request: request, reply: reply)
            let cached = try coverage.range.map { try Self.messages(db, chatID: chatID, in: $0, newest: .max) } ?? []
            let reconciliation = HistoryReconciliation(cached: cached, page: reply.messages.filter { $0.chatID == chatID }, covered: coverage.range)
            for id in reconciliation.deletions {
                try db.cachedStatement(sql: "DELETE FROM message WHERE chatID = ? AND id = ?").execute(arguments: [chatID, id])
            }
            for message in reconciliation.upserts {
                try CacheRows.insert(message, into: db)
            }
            var chunks = try Self.loadChunks(db, chatID: chatID)
            let insertion = chunks.insert(coverage)
            for message in reconciliation.upserts where !(coverage.range?.contains(message.id) ?? false) {
                chunks.insert(.single(message.id))
            }
            try Self.saveChunks(db, chunks)
            if request.anchor == nil, let newest = reply.messages.map(\.id).max() {
                try db.cachedStatement(
                    sql: "UPDATE chat SET lastMessageID = ? WHERE id = ? AND (lastMessageID IS NULL OR lastMessageID < ?)").execute(arguments: [newest, chatID, newest])
            }
            return PageOutcome(covered: coverage.range, absorbedChunks: insertion?.absorbed.count ?? 0, reconciliation: reconciliation)
        }
    }

    /// Stores a message that arrived live (a push, or the reply to our own send) in a
    /// logged-in session. A session has seen every message since the chat's newest at login, so
    /// a newer message continues the chunk holding that newest one. A message inside a range
    /// believed complete means the belief was wrong: that chunk is forgotten.
    public func applyLive(_ message: Message) throws {
        try writer.writeCached(statements) { db in try Self.applyLive(db, message, statements) }
    }

    // MARK: - Helpers shared inside transactions

    /// ``applyLive(_:)`` inside the caller's transaction.
    ///
    /// A new message costs four statements (it was about ten): one read of what the rules need
    /// (the chat's newest message, the read position, the user, and the chat's chunks), the
    /// message (whose insert also says whether it was known), the chunk it grows and one update
    /// of the chat that applies ``ReadPositions/effect(of:wasKnown:readUpTo:userID:)``. Only our own message
    /// older than the chat's last one takes ``ReadPositions/move(_:chatID:to:acknowledged:)``'s
    /// recount, unless the count already left it out (``ReadPositions/passCounted(_:chatID:to:)``).
    static func applyLive(_ db: Database, _ message: Message, _ statements: HeldStatements?) throws {
        let chatID = message.chatID
        var (state, stored) = try LiveState.fetch(db, message, statements)
        // Stored before the chunks are worked out (they need only `known`): the insert that
        // ignores a known id is the seek that says whether the cache held the message, where an
        // EXISTS in the read took one seek more of the message table. The read comes first, as
        // the chat's newest message without a chat row is the largest stored id.
        state.known = try CacheRows.insertIfNew(message, into: db, statements)
        var chunks = stored
        if let previous = state.previousNewestID, message.id > previous {
            chunks.insert(.live(previousNewestID: previous, messageID: message.id))
        } else if !state.known {
            chunks.forgetChunk(containing: message.id)
            chunks.insert(.single(message.id))
        }
        try saveChunks(db, chunks, over: stored, statements)
        switch ReadPositions.effect(of: message, wasKnown: state.known, readUpTo: state.readUpTo, userID: state.userID) {
        case .unread(let added):
            try statements.statement(.chatUnread, db).run(.integer(chatID), .integer(message.id), .integer(Int64(added)))
        case .readBySender where state.lastMessageID.map({ $0 <= message.id }) ?? true:
            // The chat's last message: the position moves to it with nothing unread above
            // (``ReadPositions/move(_:chatID:to:acknowledged:)``'s result, in one update).
            try statements.statement(.chatReadBySender, db).run(.integer(chatID), .integer(message.id))
        case .readBySender where state.chatUpdatedAt.map({ message.sentAt <= $0 }) ?? false:
            // Older than the chat's last, and stored by the server before the login reply the
            // count comes from (``ReadPositions/passCounted(_:chatID:to:)``): the reply to a
            // send lost with its link, answered again after the next login.
            try ReadPositions.passCounted(db, chatID: chatID, to: message.id)
        case .readBySender:
            try db.cachedStatement(
                sql: "UPDATE chat SET lastMessageID = ? WHERE id = ? AND (lastMessageID IS NULL OR lastMessageID < ?)").execute(arguments: [message.id, chatID, message.id])
            try ReadPositions.move(db, chatID: chatID, to: message.id, acknowledged: true)
        }
    }

    /// A message from someone else: the chat's last message moves up to it, and `?3` more are
    /// unread.
    static let chatUnreadSQL = """
        UPDATE chat SET lastMessageID = CASE WHEN lastMessageID IS NULL OR lastMessageID < ?2 THEN ?2 ELSE lastMessageID END,
            unreadCount = unreadCount + ?3 WHERE id = ?1
        """

    /// Our own message that is the chat's last: ``ReadPositions/move(_:chatID:to:acknowledged:)``'s
    /// result, in one update.
    static let chatReadBySenderSQL = """
        UPDATE chat SET lastMessageID = ?2, readAcknowledgedUpTo = max(readAcknowledgedUpTo, ?2),
            readUpTo = max(readUpTo, ?2), unreadCount = CASE WHEN readUpTo < ?2 THEN 0 ELSE unreadCount END
        WHERE id = ?1
        """

    /// What ``applyLive(_:_:_:)`` reads before it writes, in one statement.
    struct LiveState: Hashable {
        /// The chat's newest message before this one (``newestMessageID(_:chatID:)``).
        var previousNewestID: Int64?
        /// The chat's `lastMessageID` column (nil: the chat is not cached or has none).
        var lastMessageID: Int64?
        /// The cache already held the message: not read by ``fetch(_:_:_:)`` (false there), but
        /// told by the insert (``CacheRows/insertIfNew(_:into:_:)``).
        var known: Bool
        /// The chat's read position; nil when the chat is not cached.
        var readUpTo: Int64?
        /// The logged-in user.
        var userID: Int64?
        /// The chat's `updatedAt` from the last login reply that carried it (nil: not cached).
        var chatUpdatedAt: Int64?

        /// The state and the chat's chunks (``loadChunks(_:chatID:)``), read by one statement.
        ///
        /// The chunks are the rows of a LEFT JOIN on the one row of the state (none: one row
        /// with NULL chunk columns). They are ordered here, not by an ORDER BY, which made
        /// SQLite sort them in a temporary B-tree; `(chatID, oldestID)` is the table's primary
        /// key, so the order is the one ``loadChunks(_:chatID:)``'s ORDER BY gives.
        static let sql = """
            SELECT coalesce(chat.lastMessageID, (SELECT max(id) FROM message WHERE chatID = ?1)),
                chat.lastMessageID,
                chat.readUpTo,
                (SELECT userID FROM syncState WHERE id = 1),
                chat.updatedAt,
                historyChunk.oldestID,
                historyChunk.newestID
            FROM (SELECT 1) LEFT JOIN chat ON chat.id = ?1 LEFT JOIN historyChunk ON historyChunk.chatID = ?1
            """

        static func fetch(_ db: Database, _ message: Message, _ statements: HeldStatements?) throws -> (LiveState, HistoryChunks) {
            var state: LiveState?
            var rows: [HistoryChunk] = []
            try statements.statement(.liveState, db).forEachRow(.integer(message.chatID)) { row in
                if state == nil {
                    state = LiveState(
                        previousNewestID: row.integer(0), lastMessageID: row.integer(1), known: false, readUpTo: row.integer(2),
                        userID: row.integer(3), chatUpdatedAt: row.integer(4))
                }
                // Both columns are NOT NULL: NULL only on the row of a chat without chunks.
                if let oldestID = row.integer(5) {
                    rows.append(HistoryChunk(chatID: message.chatID, oldestID: oldestID, newestID: row.integer(6) ?? 0))
                }
            }
            if rows.count > 1 { rows.sort { $0.oldestID < $1.oldestID } }
            let empty = LiveState(previousNewestID: nil, lastMessageID: nil, known: false, readUpTo: nil, userID: nil, chatUpdatedAt: nil)
            return (state ?? empty, HistoryChunks(chatID: message.chatID, chunks: rows))
        }
    }

    static func loadChunks(_ db: Database, chatID: Int64) throws -> HistoryChunks {
        var chunks: [HistoryChunk] = []
        try db.cachedStatement(sql: "SELECT oldestID, newestID FROM historyChunk WHERE chatID = ? ORDER BY oldestID").forEachRow(.integer(chatID)) { row in
            // Both columns are NOT NULL.
            chunks.append(HistoryChunk(chatID: chatID, oldestID: row.integer(0) ?? 0, newestID: row.integer(1) ?? 0))
        }
        return HistoryChunks(chatID: chatID, chunks: chunks)
    }

    static func saveChunks(_ db: Database, _ chunks: HistoryChunks) throws {
        try db.cachedStatement(sql: "DELETE FROM historyChunk WHERE chatID = ?").execute(arguments: [chunks.chatID])
        for chunk in chunks.chunks {
            try db.cachedStatement(
                sql: "INSERT INTO historyChunk (chatID, oldestID, newestID) VALUES (?, ?, ?)").execute(arguments: [chunk.chatID, chunk.oldestID, chunk.newestID])
        }
    }

    /// Writes `chunks` where `stored` (read in this transaction) was, touching only what
    /// changed: a live message grows the newest chunk, one UPDATE instead of deleting and
    /// inserting every chunk of the chat. The table ends as ``saveChunks(_:_:)`` leaves it.
    static func saveChunks(_ db: Database, _ chunks: HistoryChunks, over stored: HistoryChunks, _ statements: HeldStatements?) throws {
        for chunk in stored.chunks where !chunks.chunks.contains(where: { $0.oldestID == chunk.oldestID }) {
            try statements.statement(.deleteChunk, db).run(.integer(chunk.chatID), .integer(chunk.oldestID))
        }
        for chunk in chunks.chunks {
            if let before = stored.chunks.first(where: { $0.oldestID == chunk.oldestID }) {
                guard before.newestID != chunk.newestID else { continue }
                try statements.statement(.updateChunkNewest, db).run(
                    .integer(chunk.newestID), .integer(chunk.chatID), .integer(chunk.oldestID))
            } else {
                try statements.statement(.insertChunk, db).run(
                    .integer(chunk.chatID), .integer(chunk.oldestID), .integer(chunk.newestID))
            }
        }
    }

    static func newestMessageID(_ db: Database, chatID: Int64) throws -> Int64? {
        if let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT lastMessageID FROM chat WHERE id = ?"), arguments: [chatID]) {
            return id
        }
        return try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM message WHERE chatID = ?"), arguments: [chatID])
    }

    // The queries of ``CacheRows/messageColumns``, made once: an interpolated literal is a new
    // String at every call, which GRDB's statement cache then hashes.
    private static let allMessagesSQL = "SELECT \(CacheRows.messageColumns) FROM message WHERE chatID = ? ORDER BY id"
    private static let messagesInRangeSQL = "SELECT \(CacheRows.messageColumns) FROM message WHERE chatID = ? AND id BETWEEN ? AND ? ORDER BY id DESC LIMIT ?"

    static func messages(_ db: Database, chatID: Int64, in range: ClosedRange<Int64>, newest limit: Int) throws -> [Message] {
        var messages: [Message] = []
        try db.cachedStatement(sql: Self.messagesInRangeSQL).forEachRow(
            .integer(chatID), .integer(range.lowerBound), .integer(range.upperBound), .integer(Int64(min(limit, Int(Int32.max))))
        ) { row in
            messages.append(try CacheRows.message(row))
        }
        return messages.reversed()
    }
}
