import Foundation
import GRDB
@testable import LowbandClient
import LowbandDeterminism
import LowbandWire
import Testing

/// `MessageStore.applyLive` reads its state and the chat's chunks in one statement (issue 39);
/// before, the chunks were a second query. These tests run the earlier statements, kept here as
/// they were, beside the store on two caches given the same steps, and compare every table after
/// each step: duplicates, out-of-order and edited messages, our own and others', chats with and
/// without a cached row, with and without chunks, and logins in between.
@Suite struct LiveApplyAgreementTests {
    /// `applyLive` as it was before the chunks joined the state's read (main at `a798805`).
    private static func referenceApplyLive(_ db: Database, _ message: Message) throws {
        let chatID = message.chatID
        let state = try #require(
            try db.cachedStatement(
                sql: """
                    SELECT coalesce(chat.lastMessageID, (SELECT max(id) FROM message WHERE chatID = ?1)),
                        chat.lastMessageID,
                        EXISTS (SELECT 1 FROM message WHERE chatID = ?1 AND id = ?2),
                        chat.readUpTo,
                        (SELECT userID FROM syncState WHERE id = 1),
                        chat.updatedAt
                    FROM (SELECT 1) LEFT JOIN chat ON chat.id = ?1
                    """
            ).firstRow(.integer(message.chatID), .integer(message.id)) { row in
                MessageStore.LiveState(
                    previousNewestID: row.integer(0), lastMessageID: row.integer(1), known: row.integer(2) == 1, readUpTo: row.integer(3), userID: row.integer(4),
                    chatUpdatedAt: row.integer(5))
            })
        var chunks = try MessageStore.loadChunks(db, chatID: chatID)
        let stored = chunks
        if let previous = state.previousNewestID, message.id > previous {
            chunks.insert(.live(previousNewestID: previous, messageID: message.id))
        } else if !state.known {
            chunks.forgetChunk(containing: message.id)
            chunks.insert(.single(message.id))
        }
        try CacheRows.insert(message, into: db)
        try MessageStore.saveChunks(db, chunks, over: stored, nil)
        switch ReadPositions.effect(of: message, wasKnown: state.known, readUpTo: state.readUpTo, userID: state.userID) {
        case .unread(let added):
            try db.cachedStatement(
                sql: """
                    UPDATE chat SET lastMessageID = CASE WHEN lastMessageID IS NULL OR lastMessageID < ?2 THEN ?2 ELSE lastMessageID END,
                        unreadCount = unreadCount + ?3 WHERE id = ?1
                    """).run(.integer(chatID), .integer(message.id), .integer(Int64(added)))
        case .readBySender where state.lastMessageID.map({ $0 <= message.id }) ?? true:
            try db.cachedStatement(
                sql: """
                    UPDATE chat SET lastMessageID = ?2, readAcknowledgedUpTo = max(readAcknowledgedUpTo, ?2),
                        readUpTo = max(readUpTo, ?2), unreadCount = CASE WHEN readUpTo < ?2 THEN 0 ELSE unreadCount END
                    WHERE id = ?1
                    """).run(.integer(chatID), .integer(message.id))
        case .readBySender where state.chatUpdatedAt.map({ message.sentAt <= $0 }) ?? false:
            try ReadPositions.passCounted(db, chatID: chatID, to: message.id)
        case .readBySender:
            try db.cachedStatement(
                sql: "UPDATE chat SET lastMessageID = ? WHERE id = ? AND (lastMessageID IS NULL OR lastMessageID < ?)").execute(arguments: [message.id, chatID, message.id])
            try ReadPositions.move(db, chatID: chatID, to: message.id, acknowledged: true)
        }
    }

    /// Every row of the tables a live message touches, in key order.
    private static func dump(_ writer: any DatabaseWriter) throws -> [[Row]] {
        try writer.read { db in
            try ["message ORDER BY chatID, id", "chat ORDER BY id", "historyChunk ORDER BY chatID, oldestID", "syncState ORDER BY id"].map {
                try Row.fetchAll(db, sql: "SELECT * FROM \($0)")
            }
        }
    }

    private static func login(_ chats: [Chat], at serverTime: ServerTime) -> LoginReply {
        LoginReply(userID: 1, serverTime: serverTime, settings: nil, contacts: [], chats: chats)
    }

    /// One seed's steps on the store's cache and on the reference's, compared after each step.
    /// `simulatedAt` nil: the store is on an in-memory cache with GRDB's cached statements; a
    /// path: on a simulated cache there (a savepoint of the open batch a write) with the cache's
    /// held statements, as the engine's stores are.
    private static func agree(seed: UInt64, simulatedAt path: String? = nil) throws {
        var random = SeededGenerator(seed: seed)
        let store = try path.map { try CacheDatabase(path: $0, writes: .simulated) } ?? CacheDatabase(writer: DatabaseQueue())
        let reference = try CacheDatabase(writer: DatabaseQueue())
        let messages = path == nil ? MessageStore(writer: store.writer) : MessageStore(writer: store.writer, statements: store.statements)
        func both(_ step: (any DatabaseWriter) throws -> Void) throws {
            try step(store.writer)
            try step(reference.writer)
        }
        func message(chat: Int64, id: Int64) -> Message {
            Message(id: id, chatID: chat, senderID: Int64.random(in: 1...3, using: &random), text: "m\(id)-\(Int.random(in: 0...2, using: &random))",
                sentAt: id * 10 + Int64.random(in: -15...15, using: &random), editedAt: Bool.random(using: &random) ? id * 10 + 5 : nil)
        }
        // Chat 1 known with a last message, chat 2 known and empty, chat 3 never in a login.
        let first = Message(id: 100, chatID: 1, senderID: 2, text: "m100", sentAt: 1_000)
        let chats = [
            Chat(id: 1, kind: .group, title: "g", memberIDs: [1, 2, 3], unreadCount: 2, lastMessage: first, updatedAt: 1_000),
            Chat(id: 2, kind: .direct, title: "d", memberIDs: [1, 2], unreadCount: 0, lastMessage: nil, updatedAt: 500),
        ]
        if seed % 4 != 0 {  // one seed in four stores live messages before any login
            try both { try SyncStore(writer: $0).apply(login: login(chats, at: 1_000)) }
        }
        if seed % 2 == 1 {  // a page: chunks older than the live ones
            let page = (91...100).map { Message(id: $0, chatID: 1, senderID: 2, text: "m\($0)", sentAt: $0 * 10) }
            try both {
                try MessageStore(writer: $0).apply(
                    page: HistoryReply(chatID: 1, messages: page, reachedEnd: false), for: HistoryRequest(chatID: 1, anchor: nil, direction: .older, count: 10))
            }
        }
        #expect(try dump(store.writer) == dump(reference.writer), "seed \(seed) before the live messages")
        for step in 0..<80 {
            if Int.random(in: 0..<20, using: &random) == 0 {  // a new login between deliveries
                let last = Message(id: 100 + Int64(step), chatID: 1, senderID: 3, text: "l", sentAt: 1_000 + Int64(step) * 10)
                var again = chats
                again[0].lastMessage = last
                again[0].updatedAt = last.sentAt
                again[0].unreadCount = Int.random(in: 0...3, using: &random)
                try both { try SyncStore(writer: $0).apply(login: login(again, at: last.sentAt)) }
            }
            let chat = Int64.random(in: 1...3, using: &random)
            let live = message(chat: chat, id: Int64.random(in: 80...140, using: &random))
            try messages.applyLive(live)
            try reference.writer.writeCached { db in try referenceApplyLive(db, live) }
            #expect(try dump(store.writer) == dump(reference.writer), "seed \(seed) step \(step): \(live)")
            if Bool.random(using: &random) {  // the same delivery again, sometimes edited
                var again = live
                if Bool.random(using: &random) { again.text += " (edited)"; again.editedAt = live.sentAt + 100 }
                try messages.applyLive(again)
                try reference.writer.writeCached { db in try referenceApplyLive(db, again) }
                #expect(try dump(store.writer) == dump(reference.writer), "seed \(seed) step \(step) repeated: \(again)")
            }
        }
        if let path {
            #expect(try #require(store.statements, "a file cache is a DatabaseQueue: it holds its statements").heldCount > 0)
            try store.close()
            let reopened = try CacheDatabase(path: path, writes: .simulated)
            #expect(try dump(reopened.writer) == dump(reference.writer), "seed \(seed) after the cache closed and opened again")
            try reopened.close()
        }
    }

    @Test(arguments: 1...16 as ClosedRange<UInt64>) func theStoreAndTheEarlierStatementsLeaveTheSameCache(seed: UInt64) throws {
        try Self.agree(seed: seed)
    }

    /// The same on a simulated cache file with the held statements (``HeldStatements``), which
    /// the cache then closes: `sqlite3_close` fails while a held statement is not finalized.
    @Test(arguments: 1...8 as ClosedRange<UInt64>) func theHeldStatementsOnASimulatedCacheLeaveTheSameCache(seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-apply-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.agree(seed: seed, simulatedAt: directory.appendingPathComponent("cache.sqlite").path)
    }

    /// The one statement's chunks are ``MessageStore/loadChunks(_:chatID:)``'s, for a chat with
    /// several chunks, one with none, and one not cached at all.
    @Test func theStateReadsTheSameChunksAsLoadChunks() throws {
        let database = try CacheDatabase(writer: DatabaseQueue())
        let store = MessageStore(writer: database.writer)
        // Each older than the newest: a chunk of its own, or one touching a chunk.
        for id: Int64 in [72, 71, 50, 30, 31, 10] { try store.applyLive(Message(id: id, chatID: 1, senderID: 2, text: "m", sentAt: id)) }
        let statements = HeldStatements()
        try database.writer.writeCached { db in
            for chatID: Int64 in [1, 2] {
                let (state, chunks) = try MessageStore.LiveState.fetch(db, Message(id: 40, chatID: chatID, senderID: 2, text: "m", sentAt: 40), statements)
                #expect(chunks == (try MessageStore.loadChunks(db, chatID: chatID)))
                #expect(state.previousNewestID == (chatID == 1 ? 72 : nil))
            }
            let (state, chunks) = try MessageStore.LiveState.fetch(db, Message(id: 50, chatID: 1, senderID: 2, text: "m", sentAt: 50), statements)
            #expect(chunks.chunks.map { $0.oldestID ... $0.newestID } == [10 ... 10, 30 ... 31, 50 ... 50, 71 ... 72])
            #expect(state.previousNewestID == 72)
        }
    }
}
