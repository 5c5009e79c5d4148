import GRDB

/// The server data's schema, one migration per shipped version.
///
/// A migration is frozen once it has shipped: a later change is a new migration registered
/// after it, never an edit, because existing data directories have already run the old text.
/// Column names are the wire's field names in snake case; client ids (UInt64 on the wire) are
/// stored as their Int64 bit pattern.
enum ServerSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: v1)
        return migrator
    }

    /// Version 1: the seed, users, chats and members, messages (which are also the idempotency
    /// records) and uploads.
    private static func v1(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE server (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    seed INTEGER NOT NULL,
                    users INTEGER NOT NULL,
                    chats_per_user INTEGER NOT NULL,
                    messages_per_chat INTEGER NOT NULL,
                    extra_contacts_per_user INTEGER NOT NULL,
                    epoch INTEGER NOT NULL,
                    clock INTEGER NOT NULL
                );

                CREATE TABLE users (
                    id INTEGER PRIMARY KEY,
                    token TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    phone TEXT NOT NULL,
                    avatar TEXT,
                    status TEXT,
                    profile_updated_at INTEGER NOT NULL,
                    settings TEXT NOT NULL,
                    contact_ids TEXT NOT NULL
                );

                CREATE TABLE chats (
                    id INTEGER PRIMARY KEY,
                    kind TEXT NOT NULL,
                    title TEXT,
                    updated_at INTEGER NOT NULL
                );

                CREATE TABLE chat_members (
                    chat_id INTEGER NOT NULL REFERENCES chats(id),
                    user_id INTEGER NOT NULL REFERENCES users(id),
                    read_up_to INTEGER NOT NULL,
                    read_updated_at INTEGER NOT NULL,
                    PRIMARY KEY (chat_id, user_id)
                ) WITHOUT ROWID;

                CREATE TABLE messages (
                    id INTEGER PRIMARY KEY,
                    chat_id INTEGER NOT NULL REFERENCES chats(id),
                    sender_id INTEGER NOT NULL REFERENCES users(id),
                    client_id INTEGER,
                    text TEXT NOT NULL,
                    sent_at INTEGER NOT NULL,
                    edited_at INTEGER,
                    attachments TEXT NOT NULL DEFAULT '[]'
                );
                CREATE INDEX messages_by_chat ON messages (chat_id, id);
                -- The idempotency records: one message per sender and client id.
                CREATE UNIQUE INDEX messages_by_client_id ON messages (sender_id, client_id) WHERE client_id IS NOT NULL;

                CREATE TABLE uploads (
                    user_id INTEGER NOT NULL REFERENCES users(id),
                    upload_id TEXT NOT NULL,
                    number INTEGER NOT NULL UNIQUE,
                    total_size INTEGER NOT NULL,
                    acknowledged_offset INTEGER NOT NULL,
                    checksum INTEGER NOT NULL,
                    url TEXT,
                    PRIMARY KEY (user_id, upload_id)
                ) WITHOUT ROWID;
                """
        )
    }
}
