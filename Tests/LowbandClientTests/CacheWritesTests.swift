import Foundation
import GRDB
import LowbandClient
import LowbandTestSupport
import LowbandWire
import Testing

/// Virtual-time runs write caches with the journal in memory, no syncs and one lock held while
/// open: a commit is still in the file when it returns, so a killed app's cold start reads it.
@Suite struct CacheWritesTests {
    @Test func simulatedWritesLeaveEachCommitInTheFileAndNoLog() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try CacheDatabase(path: path, writes: .simulated)
        #expect(try database.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "memory")
        let last = Message(id: 100, chatID: 1, senderID: 2, text: "m100", sentAt: 100)
        try SyncStore(writer: database.writer).apply(login: LoginReply(
            userID: 1, serverTime: 5, settings: nil, contacts: [],
            chats: [Chat(id: 1, kind: .direct, title: "c1", memberIDs: [1, 2], unreadCount: 0, lastMessage: last, updatedAt: 10)]))
        try MessageStore(writer: database.writer).applyLive(Message(id: 120, chatID: 1, senderID: 2, text: "m120", sentAt: 120))

        // The killed app's process let go of the file: its connection is closed, and only then
        // can the cold start open it (a simulated cache holds its lock while open).
        #expect(throws: ClientError.self) { try CacheDatabase(path: path, writes: .simulated) }
        try database.close()
        let coldStart = try CacheDatabase(path: path, writes: .simulated)
        #expect(try MessageStore(writer: coldStart.writer).allMessages(chatID: 1).map(\.id) == [100, 120])
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }

    @Test func theProductWritesDurably() throws {
        let directory = try TemporaryDirectory()
        let database = try CacheDatabase(path: directory.file("cache.sqlite"))
        #expect(try database.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        #expect(ClientConfiguration(token: "t", databasePath: "p", seed: 1).cacheWrites == .durable)
    }
}
