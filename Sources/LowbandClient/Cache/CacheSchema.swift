import GRDB

/// The cache's schema, one migration per shipped version.
///
/// A migration is frozen once it has shipped: a later change is a new migration registered
/// after it, never an edit, because installed databases have already run the old text.
enum CacheSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: v1)
        migrator.registerMigration("v2", migrate: v2)
        return migrator
    }

    /// Version 1: messages, chats, contacts, settings, the sync cursor, history chunks and the
    /// outbox.
    private static func v1(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE message (
                    chatID INTEGER NOT NULL,
                    id INTEGER NOT NULL,
                    senderID INTEGER NOT NULL,
                    clientID INTEGER,
                    text TEXT NOT NULL,
                    sentAt INTEGER NOT NULL,
                    editedAt INTEGER,
                    attachments TEXT NOT NULL DEFAULT '[]',
                    PRIMARY KEY (chatID, id)
                ) WITHOUT ROWID;

                CREATE TABLE chat (
                    id INTEGER PRIMARY KEY,
                    kind TEXT NOT NULL,
                    title TEXT NOT NULL,
                    memberIDs TEXT NOT NULL,
                    unreadCount INTEGER NOT NULL,
                    lastMessageID INTEGER,
                    updatedAt INTEGER NOT NULL
                );

                CREATE TABLE contact (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    phone TEXT NOT NULL,
                    avatar TEXT,
                    status TEXT,
                    updatedAt INTEGER NOT NULL
                );

                CREATE TABLE settings (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    language TEXT NOT NULL,
                    notificationsEnabled INTEGER NOT NULL,
                    previewInNotifications INTEGER NOT NULL,
                    autoDownloadMediaOnCellular INTEGER NOT NULL,
                    theme TEXT NOT NULL,
                    updatedAt INTEGER NOT NULL
                );

                -- One row: who is logged in, the last login reply's serverTime, and how many
                -- client ids have been handed out (the next id is derived from this count).
                CREATE TABLE syncState (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    userID INTEGER,
                    lastSync INTEGER NOT NULL DEFAULT 0,
                    clientIDCount INTEGER NOT NULL DEFAULT 0
                );
                INSERT INTO syncState (id) VALUES (1);

                -- Continuous, completely cached id ranges of a chat's history.
                CREATE TABLE historyChunk (
                    chatID INTEGER NOT NULL,
                    oldestID INTEGER NOT NULL,
                    newestID INTEGER NOT NULL,
                    PRIMARY KEY (chatID, oldestID),
                    CHECK (oldestID <= newestID)
                ) WITHOUT ROWID;

                CREATE TABLE outboxTask (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    state TEXT NOT NULL,
                    dependsOn INTEGER REFERENCES outboxTask(id),
                    chatID INTEGER,
                    clientID INTEGER,
                    text TEXT,
                    attachment TEXT,
                    uploadID TEXT,
                    totalSize INTEGER,
                    acknowledgedOffset INTEGER NOT NULL DEFAULT 0,
                    url TEXT,
                    messageID INTEGER,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    lastError TEXT
                );
                CREATE INDEX outboxTaskByState ON outboxTask(state, id);
                CREATE UNIQUE INDEX outboxTaskByClientID ON outboxTask(clientID) WHERE clientID IS NOT NULL;

                CREATE TABLE outboxBlob (
                    taskID INTEGER PRIMARY KEY REFERENCES outboxTask(id) ON DELETE CASCADE,
                    data BLOB NOT NULL
                );
                """
        )
    }

    /// Version 2: read positions and when each outbox task was stored.
    ///
    /// `chat.readUpTo` is the user's read position on this device (it may be ahead of the
    /// server until `readAcknowledgedUpTo` catches up: that gap is what is still to be sent);
    /// `readReceipt` holds the other members' positions from their receipts;
    /// `outboxTask.storedAt` is the engine's scheduler time, in nanoseconds, when the task was
    /// stored (NULL for tasks stored before this version).
    private static func v2(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE chat ADD COLUMN readUpTo INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE chat ADD COLUMN readAcknowledgedUpTo INTEGER NOT NULL DEFAULT 0;

                CREATE TABLE readReceipt (
                    chatID INTEGER NOT NULL,
                    readerID INTEGER NOT NULL,
                    messageID INTEGER NOT NULL,
                    readAt INTEGER NOT NULL,
                    PRIMARY KEY (chatID, readerID)
                ) WITHOUT ROWID;

                ALTER TABLE outboxTask ADD COLUMN storedAt INTEGER;
                """
        )
    }
}
