import Foundation
import GRDB
import LowbandClient
import LowbandTestSupport
import LowbandWire
import Testing

/// A cache file written by the first shipped version (schema "v1", lists as JSONEncoder wrote
/// them) opens without recovery and reads as that version read it.
@Suite struct CacheUpgradeTests {
    /// Schema "v1" as it shipped, frozen here: the file an installed client already holds.
    static let shippedV1 = """
        CREATE TABLE message (
            chatID INTEGER NOT NULL, id INTEGER NOT NULL, senderID INTEGER NOT NULL, clientID INTEGER, text TEXT NOT NULL,
            sentAt INTEGER NOT NULL, editedAt INTEGER, attachments TEXT NOT NULL DEFAULT '[]', PRIMARY KEY (chatID, id)
        ) WITHOUT ROWID;
        CREATE TABLE chat (
            id INTEGER PRIMARY KEY, kind TEXT NOT NULL, title TEXT NOT NULL, memberIDs TEXT NOT NULL,
            unreadCount INTEGER NOT NULL, lastMessageID INTEGER, updatedAt INTEGER NOT NULL
        );
        CREATE TABLE contact (id INTEGER PRIMARY KEY, name TEXT NOT NULL, phone TEXT NOT NULL, avatar TEXT, status TEXT, updatedAt INTEGER NOT NULL);
        CREATE TABLE settings (
            id INTEGER PRIMARY KEY CHECK (id = 1), language TEXT NOT NULL, notificationsEnabled INTEGER NOT NULL,
            previewInNotifications INTEGER NOT NULL, autoDownloadMediaOnCellular INTEGER NOT NULL, theme TEXT NOT NULL, updatedAt INTEGER NOT NULL
        );
        CREATE TABLE syncState (
            id INTEGER PRIMARY KEY CHECK (id = 1), userID INTEGER, lastSync INTEGER NOT NULL DEFAULT 0, clientIDCount INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO syncState (id) VALUES (1);
        CREATE TABLE historyChunk (
            chatID INTEGER NOT NULL, oldestID INTEGER NOT NULL, newestID INTEGER NOT NULL, PRIMARY KEY (chatID, oldestID), CHECK (oldestID <= newestID)
        ) WITHOUT ROWID;
        CREATE TABLE outboxTask (
            id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, state TEXT NOT NULL, dependsOn INTEGER REFERENCES outboxTask(id),
            chatID INTEGER, clientID INTEGER, text TEXT, attachment TEXT, uploadID TEXT, totalSize INTEGER,
            acknowledgedOffset INTEGER NOT NULL DEFAULT 0, url TEXT, messageID INTEGER, attempts INTEGER NOT NULL DEFAULT 0, lastError TEXT
        );
        CREATE INDEX outboxTaskByState ON outboxTask(state, id);
        CREATE UNIQUE INDEX outboxTaskByClientID ON outboxTask(clientID) WHERE clientID IS NOT NULL;
        CREATE TABLE outboxBlob (taskID INTEGER PRIMARY KEY REFERENCES outboxTask(id) ON DELETE CASCADE, data BLOB NOT NULL);
        """

    /// Rows as the first version wrote them: JSONEncoder's sorted-key text for lists.
    static let shippedRows = """
        UPDATE syncState SET userID = 1, lastSync = 500, clientIDCount = 1;
        INSERT INTO chat VALUES (1, 'direct', 'Ann', '[1,2]', 0, 11, 300);
        INSERT INTO chat VALUES (2, 'group', 'Team', '[1,2,3,-4]', 5, 21, 400);
        INSERT INTO chat VALUES (3, 'group', 'Quiet', '[]', 0, NULL, 300);
        INSERT INTO message VALUES (1, 10, 2, NULL, 'hi', 250, NULL, '[]');
        INSERT INTO message VALUES (1, 11, 1, 9223372036854775807, 'hello', 300, 310, '[]');
        INSERT INTO message VALUES (2, 21, 3, NULL, 'photo', 400, NULL,
            '[{"height":480,"id":"a1","kind":"photo","size":4096,"url":"https:\\/\\/cdn\\/a1","width":640},{"duration":3500,"id":"a2","kind":"voice","size":900,"url":""}]');
        INSERT INTO historyChunk VALUES (1, 10, 11);
        INSERT INTO outboxTask (kind, state, chatID, attachment, uploadID, totalSize)
            VALUES ('upload', 'pending', 2, '{"height":2,"id":"u1","kind":"photo","size":3,"url":"","width":1}', 'u1', 3);
        INSERT INTO outboxBlob VALUES (1, x'010203');
        INSERT INTO outboxTask (kind, state, dependsOn, chatID, clientID, text) VALUES ('send', 'pending', 1, 2, 77, 'caption');
        """

    @Test func aFileFromTheFirstVersionOpensAndReadsTheSame() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        do {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in try db.execute(sql: Self.shippedV1) }
            let queue = try DatabaseQueue(path: path)
            try migrator.migrate(queue)
            try queue.write { db in try db.execute(sql: Self.shippedRows) }
        }

        let database = try CacheDatabase(path: path)
        #expect(database.recovery == nil)
        let sync = SyncStore(writer: database.writer)
        #expect(try sync.lastSync() == 500)
        let photo = LowbandWire.Attachment(id: "a1", kind: .photo, size: 4_096, width: 640, height: 480, url: "https://cdn/a1")
        let voice = LowbandWire.Attachment(id: "a2", kind: .voice, size: 900, duration: 3_500, url: "")
        let expected = [
            Chat(id: 2, kind: .group, title: "Team", memberIDs: [1, 2, 3, -4], unreadCount: 5,
                 lastMessage: Message(id: 21, chatID: 2, senderID: 3, text: "photo", sentAt: 400, attachments: [photo, voice]), updatedAt: 400),
            Chat(id: 1, kind: .direct, title: "Ann", memberIDs: [1, 2], unreadCount: 0,
                 lastMessage: Message(id: 11, chatID: 1, senderID: 1, clientID: UInt64(Int64.max), text: "hello", sentAt: 300, editedAt: 310), updatedAt: 300),
            Chat(id: 3, kind: .group, title: "Quiet", memberIDs: [], unreadCount: 0, lastMessage: nil, updatedAt: 300),
        ]
        #expect(try sync.chats() == expected)
        let outbox = OutboxStore(writer: database.writer, clientIDs: ClientIDGenerator(generator: .init(seed: 1)))
        let pending = try outbox.pendingTasks()
        #expect(pending.map(\.kind) == [.upload, .send])
        #expect(pending[0].attachment == LowbandWire.Attachment(id: "u1", kind: .photo, size: 3, width: 1, height: 2, url: ""))
        #expect(pending[1].dependsOn == 1 && pending[1].clientID == 77 && pending[1].text == "caption")

        // The upgraded file keeps working: a live message moves the chat's last message, and
        // the next launch reads it.
        try MessageStore(writer: database.writer).applyLive(Message(id: 12, chatID: 1, senderID: 2, text: "again", sentAt: 320))
        let reopened = try CacheDatabase(path: path)
        #expect(reopened.recovery == nil)
        #expect(try SyncStore(writer: reopened.writer).chats().first { $0.id == 1 }?.lastMessage?.id == 12)
    }
}
