import Foundation
import GRDB
import LowbandClient
import LowbandTestSupport
import LowbandWire
import Testing

/// A simulated cache (virtual-time runs) writes into one open batch: each store call stays
/// atomic inside it, and a cold start after close reads every write, in order.
@Suite struct CacheBatchTests {
    private static func message(_ id: Int64) -> Message {
        Message(id: id, chatID: 1, senderID: 2, text: "m\(id)", sentAt: id)
    }

    private static func loggedIn(_ database: CacheDatabase) throws {
        try SyncStore(writer: database.writer).apply(login: LoginReply(
            userID: 1, serverTime: 5, settings: nil, contacts: [],
            chats: [Chat(id: 1, kind: .direct, title: "c1", memberIDs: [1, 2], unreadCount: 0, lastMessage: message(100), updatedAt: 10)]))
    }

    private struct Planted: Error {}

    @Test func aWriteThatFailsMidwayLeavesTheBatchAsBeforeIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try CacheDatabase(path: path, writes: .simulated)
        try Self.loggedIn(database)
        let store = MessageStore(writer: database.writer)
        try store.applyLive(Self.message(120))
        let reads = ReadStore(writer: database.writer)
        let before = try reads.state(chatID: 1)

        // The message, its chunk and the chat's counts are written, then the write fails.
        #expect(throws: Planted.self) {
            try database.writer.writeCached { db in
                try db.execute(sql: "INSERT INTO message (chatID, id, senderID, text, sentAt) VALUES (1, 130, 2, 'm130', 130)")
                try db.execute(sql: "UPDATE chat SET unreadCount = 99, lastMessageID = 130 WHERE id = 1")
                throw Planted()
            }
        }
        #expect(try store.allMessages(chatID: 1).map(\.id) == [100, 120])
        #expect(try reads.state(chatID: 1) == before)
        #expect(try store.newestMessageID(chatID: 1) == 120)

        // The batch goes on: the next write lands, and the cold start reads all, in order.
        try store.applyLive(Self.message(140))
        try database.close()
        let coldStart = try CacheDatabase(path: path, writes: .simulated)
        let reopened = MessageStore(writer: coldStart.writer)
        #expect(try reopened.allMessages(chatID: 1).map(\.id) == [100, 120, 140])
        #expect(try reopened.chunks(chatID: 1).chunks.map { $0.oldestID ... $0.newestID } == [100 ... 140])
        #expect(try ReadStore(writer: coldStart.writer).state(chatID: 1)?.unreadCount == 2)
    }

    @Test func theBatchCommitsEveryFewHundredRowsAndAtClose() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        func fileSize() throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }
        let database = try CacheDatabase(path: path, writes: .simulated)
        let migrated = try fileSize()
        try Self.loggedIn(database)
        let store = MessageStore(writer: database.writer)
        try store.applyLive(Self.message(101))
        // Still in the open batch: nothing new in the file yet.
        #expect(try fileSize() == migrated)

        // A live message changes three rows (message, chunk, chat): well past the limit.
        let ids = Array(Int64(102) ... Int64(102 + CacheBatch.rowLimit))
        for id in ids { try store.applyLive(Self.message(id)) }
        #expect(try fileSize() > migrated)
        #expect(try store.allMessages(chatID: 1).map(\.id) == [100, 101] + ids)

        try database.close()
        let coldStart = try CacheDatabase(path: path, writes: .simulated)
        #expect(try MessageStore(writer: coldStart.writer).allMessages(chatID: 1).map(\.id) == [100, 101] + ids)
    }

    @Test func aDurableCacheFailingWriteIsRolledBackToo() throws {
        let database = try CacheDatabase(writer: DatabaseQueue())
        try Self.loggedIn(database)
        #expect(throws: Planted.self) {
            try database.writer.writeCached { db in
                try db.execute(sql: "DELETE FROM message")
                throw Planted()
            }
        }
        #expect(try MessageStore(writer: database.writer).allMessages(chatID: 1).map(\.id) == [100])
        // No batch outside virtual time: GRDB's own transactions still work on the writer.
        try database.writer.write { db in try db.execute(sql: "UPDATE syncState SET lastSync = 7") }
        #expect(try SyncStore(writer: database.writer).lastSync() == 7)
    }
}
