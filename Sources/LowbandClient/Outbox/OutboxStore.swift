public import Foundation
public import GRDB
public import LowbandWire

/// The outbox's tasks in the cache. Every step a task takes is one transaction, so a crash
/// leaves each task either before or after a step, never half-way.
public final class OutboxStore {
    private let writer: any DatabaseWriter
    private let clientIDs: ClientIDGenerator
    /// The number of the next client id, once read from the cache: this store is the counter's
    /// only writer, so a send reads it once, not at every send.
    private var nextClientIDNumber: Int64?
    /// A send's statements (``CacheDatabase/statements`` in the engine).
    private let statements: HeldStatements?

    /// A store over the cache database `writer`, giving sends client ids from `clientIDs`.
    public convenience init(writer: any DatabaseWriter, clientIDs: ClientIDGenerator) {
        self.init(writer: writer, clientIDs: clientIDs, statements: nil)
    }

    /// A store over `writer` whose sends run `statements`, which whoever closes the connection
    /// finalizes first (``CacheDatabase/statements``).
    package init(writer: any DatabaseWriter, clientIDs: ClientIDGenerator, statements: HeldStatements?) {
        self.writer = writer
        self.clientIDs = clientIDs
        self.statements = statements
    }

    /// Stores a message to send (and its upload, if it has an attachment) in one transaction,
    /// with its client id. Nothing goes on the wire before this returns.
    ///
    /// - Parameters:
    ///   - chatID: the chat to send to.
    ///   - text: the message's text.
    ///   - attachment: a file to upload first and attach; nil for none.
    ///   - storedAt: the engine's scheduler time, kept with the tasks (nil: unknown).
    /// - Returns: the send task, then the upload task if any.
    public func enqueueMessage(chatID: Int64, text: String, attachment: OutgoingAttachment? = nil, storedAt: Duration? = nil) throws -> [OutboxTask] {
        let stamp = storedAt.map { Backoff.nanoseconds($0) }
        let known = nextClientIDNumber
        let statements = statements
        let (tasks, number) = try writer.writeCached(statements) { db in
            let number: Int64 = try known ?? statements.statement(.clientIDCount, db).firstRow { $0.integer(0) ?? 0 } ?? 0
            try statements.statement(.setClientIDCount, db).run(.integer(number + 1))
            let clientID = clientIDs.clientID(number: number)
            var uploadTaskID: Int64?
            if let attachment {
                let uploadID = "u" + String(clientID, radix: 16)
                let template = Attachment(
                    id: uploadID, kind: attachment.kind, size: Int64(attachment.data.count), width: attachment.width,
                    height: attachment.height, duration: attachment.duration, url: "")
                try db.cachedStatement(
                    sql: "INSERT INTO outboxTask (kind, state, chatID, attachment, uploadID, totalSize, storedAt) VALUES ('upload', 'pending', ?, ?, ?, ?, ?)").execute(arguments: [chatID, try CacheRows.encodeJSON(template), uploadID, attachment.data.count, stamp])
                let id = db.lastInsertedRowID
                try db.cachedStatement(sql: "INSERT INTO outboxBlob (taskID, data) VALUES (?, ?)").execute(arguments: [id, Data(attachment.data)])
                uploadTaskID = id
            }
            try statements.statement(.insertSendTask, db).run(
                StepValue(uploadTaskID), .integer(chatID), .integer(Int64(bitPattern: clientID)), .text(text), StepValue(stamp))
            // The send task as the row just written reads back, without reading it.
            let send = OutboxTask(
                id: db.lastInsertedRowID, kind: .send, state: .pending, dependsOn: uploadTaskID, chatID: chatID, clientID: clientID,
                text: CacheRows.storedText(text), attachment: nil, uploadID: nil, totalSize: nil, acknowledgedOffset: 0, url: nil, messageID: nil, attempts: 0,
                lastError: nil, storedAt: stamp.map { .nanoseconds($0) })
            return (try [send] + [uploadTaskID].compactMap { $0 }.compactMap { try Self.task(db, id: $0) }, number)
        }
        // Only once the write is kept: a write that threw left the counter as it was.
        nextClientIDNumber = number + 1
        return tasks
    }

    /// Tasks not done or failed, oldest first.
    public func pendingTasks() throws -> [OutboxTask] {
        try writer.readCached { db in
            try Self.tasks(statements.statement(.pendingTasks, db))
        }
    }

    /// Tasks not done (pending, then failed ones too), oldest first: what is still owed.
    public func unfinishedTasks() throws -> [OutboxTask] {
        try writer.readCached { db in
            try Self.tasks(db, sql: Self.unfinishedSQL)
        }
    }

    /// Every task, oldest first.
    public func allTasks() throws -> [OutboxTask] {
        try writer.readCached { db in try Self.tasks(db, sql: Self.allSQL) }
    }

    /// The task `id`, or nil when there is none.
    ///
    /// - Throws: the database's error when the cache cannot be read.
    public func task(id: Int64) throws -> OutboxTask? {
        try writer.readCached { db in try Self.task(db, id: id) }
    }

    /// Up to `length` bytes of an upload's data from `offset`.
    public func uploadBytes(taskID: Int64, offset: Int64, length: Int) throws -> Data {
        try writer.readCached { db in
            // substr on a blob counts bytes, from 1.
            try Data.fetchOne(db.cachedStatement(sql: "SELECT substr(data, ?, ?) FROM outboxBlob WHERE taskID = ?"), arguments: [offset + 1, length, taskID]) ?? Data()
        }
    }

    /// The server holds `offset` bytes of the upload.
    public func recordUploadProgress(taskID: Int64, acknowledgedOffset offset: Int64) throws {
        try writer.writeCached { db in
            try db.cachedStatement(sql: "UPDATE outboxTask SET acknowledgedOffset = ? WHERE id = ?").execute(arguments: [offset, taskID])
        }
    }

    /// The upload is complete at `url`; its bytes are no longer needed.
    public func completeUpload(taskID: Int64, url: String, size: Int64) throws {
        try writer.writeCached { db in
            try db.cachedStatement(
                sql: "UPDATE outboxTask SET state = 'done', url = ?, acknowledgedOffset = ?, lastError = NULL WHERE id = ?").execute(arguments: [url, size, taskID])
            try db.cachedStatement(sql: "DELETE FROM outboxBlob WHERE taskID = ?").execute(arguments: [taskID])
        }
    }

    /// The send was acknowledged: the task is done and the message is in the cache, together.
    public func completeSend(taskID: Int64, message: Message) throws {
        try writer.writeCached(statements) { db in
            try statements.statement(.completeSendTask, db).run(.integer(message.id), .integer(taskID))
            try MessageStore.applyLive(db, message, statements)
        }
    }

    /// Counts an attempt that will be retried.
    public func recordAttempt(taskID: Int64, error: ClientError) throws {
        try writer.writeCached { db in
            try db.cachedStatement(sql: "UPDATE outboxTask SET attempts = attempts + 1, lastError = ? WHERE id = ?").execute(arguments: [error.description, taskID])
        }
    }

    /// The task will not be retried on its own.
    public func fail(taskID: Int64, error: ClientError) throws {
        try writer.writeCached { db in
            try db.cachedStatement(sql: "UPDATE outboxTask SET state = 'failed', attempts = attempts + 1, lastError = ? WHERE id = ?").execute(arguments: [error.description, taskID])
        }
    }

    /// Puts a failed task (and the failed tasks it depends on) back in the queue: the user's
    /// "resend". The client id stays the same.
    public func retry(taskID: Int64) throws {
        try writer.writeCached { db in
            var next: Int64? = taskID
            while let id = next {
                try db.cachedStatement(sql: "UPDATE outboxTask SET state = 'pending', lastError = NULL WHERE id = ? AND state = 'failed'").execute(arguments: [id])
                next = try Int64.fetchOne(db.cachedStatement(sql: "SELECT dependsOn FROM outboxTask WHERE id = ?"), arguments: [id])
            }
        }
    }

    // MARK: - Rows

    static func task(_ db: Database, id: Int64) throws -> OutboxTask? {
        try db.cachedStatement(sql: taskSQL).firstRow(.integer(id), read: task)
    }

    /// Every task the query `sql` (a SELECT of ``columns``) returns, in its order.
    static func tasks(_ db: Database, sql: String) throws -> [OutboxTask] {
        try tasks(CacheStatement(statement: db.cachedStatement(sql: sql), isReset: false))
    }

    /// Every row of `statement` (``columns``) as a task, in order.
    private static func tasks(_ statement: CacheStatement) throws -> [OutboxTask] {
        var tasks: [OutboxTask] = []
        try statement.forEachRow([]) { row in tasks.append(try task(row)) }
        return tasks
    }

    /// The columns ``task(_:)`` reads, in the order it reads them: by position, because the
    /// outbox is read at every launch and at every send, and a lookup by name costs more than
    /// the value.
    static let columns = """
        id, kind, state, dependsOn, chatID, clientID, text, attachment, uploadID, totalSize, acknowledgedOffset, url, \
        messageID, attempts, lastError, storedAt
        """

    // The queries of ``columns``, made once: an interpolated literal is a new String at every
    // call, which GRDB's statement cache then hashes (the outbox is read at every send).
    private static let taskSQL = "SELECT \(columns) FROM outboxTask WHERE id = ?"
    static let pendingSQL = "SELECT \(columns) FROM outboxTask WHERE state = 'pending' ORDER BY id"
    private static let unfinishedSQL = "SELECT \(columns) FROM outboxTask WHERE state != 'done' ORDER BY id"
    private static let allSQL = "SELECT \(columns) FROM outboxTask ORDER BY id"

    /// A task from a row of ``columns`` (the values GRDB's `Row` decoding gave).
    ///
    /// - Throws: ``ClientError`` `.database` naming the task when its attachment is not valid
    ///   JSON.
    static func task(_ row: StepRow) throws -> OutboxTask {
        // id, kind, state, acknowledgedOffset and attempts are NOT NULL.
        let id = row.integer(0) ?? 0
        let attachment = row.text(7)
        return OutboxTask(
            id: id,
            kind: row.text(1).flatMap(OutboxTask.Kind.init(rawValue:)) ?? .send,
            state: row.text(2).flatMap(OutboxTask.State.init(rawValue:)) ?? .failed,
            dependsOn: row.integer(3),
            chatID: row.integer(4),
            clientID: row.integer(5).map { UInt64(bitPattern: $0) },
            text: row.text(6),
            attachment: try attachment.map { try CacheRows.decodeStored(Attachment.self, from: $0, at: "outbox task \(id) attachment") },
            uploadID: row.text(8),
            totalSize: row.integer(9),
            acknowledgedOffset: row.integer(10) ?? 0,
            url: row.text(11),
            messageID: row.integer(12),
            attempts: Int(row.integer(13) ?? 0),
            lastError: row.text(14),
            storedAt: row.integer(15).map { .nanoseconds($0) }
        )
    }
}
