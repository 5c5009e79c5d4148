import GRDB
import LowbandClient
import LowbandTestSupport
import LowbandWire
import Testing

/// Reading the cache keeps the stores' compiled statements.
///
/// GRDB's `read` switches the connection to read-only (`PRAGMA query_only`) and back around
/// each read, and SQLite expires every prepared statement when a flag pragma runs: each read
/// made every cached statement compile again on its next use.
@Suite struct CacheReadTests {
    /// The SQL the connection ran, as SQLite's statement trace reports it.
    private final class StatementLog {
        var sql: [String] = []
    }

    @Test func readsLeaveTheConnectionAsItIs() throws {
        let directory = try TemporaryDirectory()
        let database = try CacheDatabase(path: directory.file("cache.sqlite"))
        let messages = MessageStore(writer: database.writer)
        let sync = SyncStore(writer: database.writer)
        let last = Message(id: 100, chatID: 1, senderID: 2, text: "m100", sentAt: 100)
        _ = try sync.apply(login: LoginReply(
            userID: 1, serverTime: 5, settings: nil, contacts: [],
            chats: [Chat(id: 1, kind: .direct, title: "c1", memberIDs: [1, 2], unreadCount: 0, lastMessage: last, updatedAt: 10)]))
        try messages.applyLive(Message(id: 120, chatID: 1, senderID: 2, text: "m120", sentAt: 120))

        let log = StatementLog()
        database.writer.writeWithoutTransaction { db in
            db.trace { event in log.sql.append("\(event)") }
        }
        #expect(try messages.newestMessageID(chatID: 1) == 120)
        #expect(try messages.allMessages(chatID: 1).map(\.id) == [100, 120])
        #expect(try sync.chats().map(\.id) == [1])
        #expect(log.sql.contains { $0.contains("FROM message") })
        #expect(!log.sql.contains { $0.contains("query_only") }, "\(log.sql)")
    }
}
