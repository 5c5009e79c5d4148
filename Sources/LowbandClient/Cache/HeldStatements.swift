import GRDB

/// The statements a live delivery and a send run, each with its slot in ``HeldStatements``.
///
/// A case's SQL is the statement's whole text; the stores run it through
/// ``HeldStatements/statement(_:_:)``.
enum HeldSQL: Int, CaseIterable {
    case savepoint, releaseSavepoint, rollbackToSavepoint
    case liveState, insertNewMessage, insertMessage, chatUnread, chatReadBySender
    case deleteChunk, updateChunkNewest, insertChunk
    case clientIDCount, setClientIDCount, insertSendTask, completeSendTask, pendingTasks

    var sql: String {
        switch self {
        case .savepoint: "SAVEPOINT cacheWrite"
        case .releaseSavepoint: "RELEASE SAVEPOINT cacheWrite"
        case .rollbackToSavepoint: "ROLLBACK TRANSACTION TO SAVEPOINT cacheWrite"
        case .liveState: MessageStore.LiveState.sql
        case .insertNewMessage: CacheRows.insertNewMessageSQL
        case .insertMessage: CacheRows.insertMessageSQL
        case .chatUnread: MessageStore.chatUnreadSQL
        case .chatReadBySender: MessageStore.chatReadBySenderSQL
        case .deleteChunk: "DELETE FROM historyChunk WHERE chatID = ? AND oldestID = ?"
        case .updateChunkNewest: "UPDATE historyChunk SET newestID = ? WHERE chatID = ? AND oldestID = ?"
        case .insertChunk: "INSERT INTO historyChunk (chatID, oldestID, newestID) VALUES (?, ?, ?)"
        case .clientIDCount: "SELECT clientIDCount FROM syncState WHERE id = 1"
        case .setClientIDCount: "UPDATE syncState SET clientIDCount = ? WHERE id = 1"
        case .insertSendTask:
            "INSERT INTO outboxTask (kind, state, dependsOn, chatID, clientID, text, storedAt) VALUES ('send', 'pending', ?, ?, ?, ?, ?)"
        case .completeSendTask: "UPDATE outboxTask SET state = 'done', messageID = ?, lastError = NULL WHERE id = ?"
        case .pendingTasks: OutboxStore.pendingSQL
        }
    }
}

/// One cache connection's hot statements, prepared at their first use and kept: an array slot
/// a statement instead of GRDB's `cachedStatement(sql:)`, which hashes the whole SQL text into
/// its `[String: Statement]` at every call (2–3 % of the 100-client virtual-time crowd hour in
/// `Hasher` and the dictionary, issue 39).
///
/// A held statement is never left stepped (``CacheStatement`` resets it after each use), so it
/// is bound without a reset first. It belongs to one connection (only a `DatabaseQueue`'s has
/// one, ``CacheDatabase/statements``): used on another, the statements are dropped and prepared
/// again there. GRDB's `close()` calls
/// `sqlite3_close`, which fails while any statement of the connection is not finalized, so
/// whoever closes the connection calls ``finalize()`` first (``CacheDatabase/close()``).
///
/// Use it only inside a block on its connection's queue; it is not `Sendable`. A store without
/// one (nil: a store made with the public `init(writer:)`, over a writer whose owner may close it
/// without knowing of a holder) takes every statement from GRDB's cache, and costs no allocation:
/// the start-up gate counts the hand-wired client graph's (two more per graph, +16 %, when each
/// such store made an empty holder).
package final class HeldStatements {
    private var statements: [Statement?] = Array(repeating: nil, count: HeldSQL.allCases.count)
    /// The connection the statements were prepared on (nil: none yet, or finalized).
    private var connection: SQLiteConnection?

    /// A holder with nothing prepared yet.
    package init() {}

    /// The statement `key` on `db`, prepared at its first use on that connection.
    ///
    /// - Throws: the database's error when the SQL cannot be prepared.
    func statement(_ key: HeldSQL, _ db: Database) throws -> CacheStatement {
        if let connection, connection == db.sqliteConnection, let statement = statements[key.rawValue] {
            return CacheStatement(statement: statement, isReset: true)
        }
        return try prepare(key, db)
    }

    private func prepare(_ key: HeldSQL, _ db: Database) throws -> CacheStatement {
        if connection == nil || connection != db.sqliteConnection {
            finalize()
            connection = db.sqliteConnection
        }
        let statement = try db.makeStatement(sql: key.sql)
        statements[key.rawValue] = statement
        return CacheStatement(statement: statement, isReset: true)
    }

    /// Drops every statement (GRDB finalizes a statement when it goes), so the connection can
    /// close; a later use prepares them again.
    package func finalize() {
        for index in statements.indices { statements[index] = nil }
        connection = nil
    }

    /// How many statements are prepared and kept (for tests).
    package var heldCount: Int { statements.count { $0 != nil } }
}

extension HeldStatements? {
    /// The statement `key` on `db`: held, or from GRDB's `cachedStatement(sql:)` without a holder.
    ///
    /// - Throws: the database's error when the SQL cannot be prepared.
    func statement(_ key: HeldSQL, _ db: Database) throws -> CacheStatement {
        if let held = self { return try held.statement(key, db) }
        return CacheStatement(statement: try db.cachedStatement(sql: key.sql), isReset: false)
    }
}
