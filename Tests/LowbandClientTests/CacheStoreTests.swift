import GRDB
import LowbandClient
import LowbandDeterminism
import LowbandTestSupport
import LowbandWire
import Testing

/// The stores on a real SQLite file.
@Suite struct CacheStoreTests {
    let directory: TemporaryDirectory
    let database: CacheDatabase

    init() throws {
        directory = try TemporaryDirectory()
        database = try CacheDatabase(path: directory.file("cache.sqlite"))
    }

    private func message(_ id: Int64, chat: Int64 = 1) -> Message {
        Message(id: id, chatID: chat, senderID: 2, text: "m\(id)", sentAt: id)
    }

    private func chat(_ id: Int64, last: Message?) -> Chat {
        Chat(id: id, kind: .direct, title: "c\(id)", memberIDs: [1, 2], unreadCount: 0, lastMessage: last, updatedAt: 10)
    }

    /// The stored text of an empty attachment list is the one JSONEncoder wrote before it was
    /// skipped for it, so caches written by either read the same.
    @Test func aMessageWithoutAttachmentsStoresAnEmptyJSONList() throws {
        try SyncStore(writer: database.writer).apply(login: LoginReply(userID: 1, serverTime: 5, settings: nil, contacts: [], chats: [chat(1, last: nil)]))
        try MessageStore(writer: database.writer).applyLive(message(7))
        let stored = try database.writer.read { db in try String.fetchOne(db, sql: "SELECT attachments FROM message WHERE id = 7") }
        #expect(stored == "[]")
        #expect(try MessageStore(writer: database.writer).allMessages(chatID: 1).first?.attachments == [])
    }

    /// Live messages write only the chunks they change (an UPDATE when the newest chunk grows):
    /// growing, a new single, one merged at its oldest end and one forgotten all end in the
    /// table as the chunks say.
    @Test func liveMessagesKeepTheStoredChunksExact() throws {
        let store = MessageStore(writer: database.writer)
        try SyncStore(writer: database.writer).apply(login: LoginReply(userID: 1, serverTime: 5, settings: nil, contacts: [], chats: [chat(1, last: message(100))]))
        func stored() throws -> [ClosedRange<Int64>] {
            try database.writer.read { db in
                try Row.fetchAll(db, sql: "SELECT oldestID, newestID FROM historyChunk WHERE chatID = 1 ORDER BY oldestID").map { ($0[0] as Int64) ... ($0[1] as Int64) }
            }
        }
        try store.applyLive(message(120))  // the newest chunk grows
        #expect(try stored() == [100 ... 120])
        try store.applyLive(message(50))  // an older message alone
        #expect(try stored() == [50 ... 50, 100 ... 120])
        try store.applyLive(message(49))  // next to it: the chunk now starts lower
        #expect(try stored() == [49 ... 50, 100 ... 120])
        try store.applyLive(message(110))  // inside a chunk that claimed to be complete
        #expect(try stored() == [49 ... 50, 110 ... 110])
        #expect(try store.chunks(chatID: 1).chunks.map { $0.oldestID ... $0.newestID } == [49 ... 50, 110 ... 110])
    }

    @Test func pagesGrowAndMergeChunksInTheDatabase() throws {
        let store = MessageStore(writer: database.writer)
        try SyncStore(writer: database.writer).apply(login: LoginReply(userID: 1, serverTime: 5, settings: nil, contacts: [], chats: [chat(1, last: message(100))]))
        #expect(try store.chunks(chatID: 1).chunks.map { $0.oldestID ... $0.newestID } == [100 ... 100])
        // An older page far below (read from a link, say) is a chunk of its own.
        try store.apply(page: HistoryReply(chatID: 1, messages: [message(10), message(20)], reachedEnd: false), for: HistoryRequest(chatID: 1, anchor: 30, direction: .older, count: 2))
        #expect(try store.chunks(chatID: 1).chunks.count == 2)
        // The page between joins them.
        let outcome = try store.apply(page: HistoryReply(chatID: 1, messages: [message(25), message(50), message(90)], reachedEnd: false), for: HistoryRequest(chatID: 1, anchor: 100, direction: .older, count: 3))
        #expect(outcome.absorbedChunks == 2)
        #expect(try store.chunks(chatID: 1).chunks.map { $0.oldestID ... $0.newestID } == [10 ... 100])
        #expect(try store.allMessages(chatID: 1).map(\.id) == [10, 20, 25, 50, 90, 100])
        let plan = try store.plan(chatID: 1, olderThan: 90, count: 3)
        #expect(plan.source == .cache)
        #expect(try store.messages(chatID: 1, in: plan.cacheRange!, newest: 3).map(\.id) == [20, 25, 50])
    }

    @Test func aLiveMessageContinuesTheNewestChunkAndAStrayOneSplitsIt() throws {
        let store = MessageStore(writer: database.writer)
        try SyncStore(writer: database.writer).apply(login: LoginReply(userID: 1, serverTime: 5, settings: nil, contacts: [], chats: [chat(1, last: message(100))]))
        try store.apply(page: HistoryReply(chatID: 1, messages: [message(60), message(80)], reachedEnd: false), for: HistoryRequest(chatID: 1, anchor: 100, direction: .older, count: 2))
        try store.applyLive(message(120))
        #expect(try store.chunks(chatID: 1).chunks.map { $0.oldestID ... $0.newestID } == [60 ... 120])
        #expect(try store.newestMessageID(chatID: 1) == 120)
        // A message inside the range the cache believed complete: the belief goes, the message stays.
        try store.applyLive(message(70))
        #expect(try store.chunks(chatID: 1).chunks.map { $0.oldestID ... $0.newestID } == [70 ... 70])
        #expect(try store.allMessages(chatID: 1).map(\.id) == [60, 70, 80, 100, 120])
        #expect(try store.newestMessageID(chatID: 1) == 120)
    }

    @Test func aDeltaLoginKeepsWhatItDoesNotMention() throws {
        let sync = SyncStore(writer: database.writer)
        let settings = Settings(language: "en", notificationsEnabled: true, previewInNotifications: true, autoDownloadMediaOnCellular: false, theme: "dark", updatedAt: 1)
        let contacts = [Contact(id: 2, name: "Ann", phone: "1", updatedAt: 1), Contact(id: 3, name: "Bo", phone: "2", updatedAt: 1)]
        try sync.apply(login: LoginReply(userID: 1, serverTime: 50, settings: settings, contacts: contacts, chats: [chat(1, last: message(10)), chat(2, last: message(11, chat: 2))]))
        #expect(try sync.lastSync() == 50)
        let outcome = try sync.apply(login: LoginReply(userID: 1, serverTime: 60, settings: nil, contacts: [Contact(id: 3, name: "Bo", phone: "2", status: "away", updatedAt: 55)], chats: []))
        #expect(!outcome.wasFullSync)
        #expect(try sync.lastSync() == 60)
        #expect(try sync.settings() == settings)
        #expect(try sync.contacts().map(\.status) == [nil, "away"])
        #expect(try sync.chats().map(\.id).sorted() == [1, 2])
        #expect(try sync.chats().first { $0.id == 2 }?.lastMessage == message(11, chat: 2))
    }

    @Test func clientIDsAreStoredBeforeSendingAndNeverRepeatAcrossRestarts() throws {
        let ids = ClientIDGenerator(generator: SeededGenerator(seed: 4))
        var seen: [UInt64] = []
        for _ in 0 ..< 2 {
            let reopened = try CacheDatabase(path: directory.file("cache.sqlite"))
            let store = OutboxStore(writer: reopened.writer, clientIDs: ids)
            for index in 0 ..< 3 {
                seen.append(try #require(store.enqueueMessage(chatID: 1, text: "t\(index)").first?.clientID))
            }
        }
        #expect(Set(seen).count == 6)
        #expect(seen == (0 ..< 6).map { ids.clientID(number: $0) }, "the n-th id is fixed by the seed")
        #expect(seen.allSatisfy { $0 > 0 && $0 <= UInt64(Int64.max) })
        let tasks = try OutboxStore(writer: database.writer, clientIDs: ids).pendingTasks()
        #expect(tasks.map(\.clientID) == seen)
    }

    /// The store keeps the counter of client ids in memory after its first send; a send the
    /// cache refused must leave it as the file has it, so no id is skipped or given twice.
    @Test func aRefusedSendTakesNoClientID() throws {
        let ids = ClientIDGenerator(generator: SeededGenerator(seed: 5))
        let store = OutboxStore(writer: database.writer, clientIDs: ids)
        try database.writer.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON outboxTask WHEN NEW.text = 'refused' BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        let first = try #require(store.enqueueMessage(chatID: 1, text: "a").first?.clientID)
        #expect(throws: (any Error).self) { try store.enqueueMessage(chatID: 1, text: "refused") }
        let second = try #require(store.enqueueMessage(chatID: 1, text: "b").first?.clientID)
        let afterRestart = try #require(OutboxStore(writer: database.writer, clientIDs: ids).enqueueMessage(chatID: 1, text: "c").first?.clientID)
        #expect([first, second, afterRestart] == (0 ..< 3).map { ids.clientID(number: $0) })
    }

    /// enqueueMessage builds the send task it returns without reading it back: it must equal
    /// the stored row, with and without an upload and a time stamp.
    @Test func theTasksAnEnqueueReturnsAreTheStoredOnes() throws {
        let store = OutboxStore(writer: database.writer, clientIDs: ClientIDGenerator(generator: SeededGenerator(seed: 9)))
        let plain = try store.enqueueMessage(chatID: 3, text: "plain, with a NUL \u{0} and é")
        let stamped = try store.enqueueMessage(
            chatID: 4, text: "", attachment: OutgoingAttachment(kind: .photo, data: [1, 2, 3], width: 4, height: 5), storedAt: .milliseconds(1500))
        #expect(stamped.count == 2)
        for task in plain + stamped {
            #expect(try store.task(id: task.id) == task)
        }
        #expect(stamped[0].dependsOn == stamped[1].id)
    }

    @Test func anUploadIsStoredWithItsBytesAndReadInPieces() throws {
        let store = OutboxStore(writer: database.writer, clientIDs: ClientIDGenerator(generator: SeededGenerator(seed: 1)))
        let bytes = (0 ..< 1_000).map { UInt8(truncatingIfNeeded: $0) }
        let tasks = try store.enqueueMessage(chatID: 1, text: "photo", attachment: OutgoingAttachment(kind: .photo, data: bytes))
        #expect(tasks.map(\.kind) == [.send, .upload])
        #expect(tasks[0].dependsOn == tasks[1].id)
        #expect(Array(try store.uploadBytes(taskID: tasks[1].id, offset: 990, length: 64)) == Array(bytes[990...]))
        try store.recordUploadProgress(taskID: tasks[1].id, acknowledgedOffset: 400)
        #expect(try store.task(id: tasks[1].id)?.acknowledgedOffset == 400)
        try store.completeUpload(taskID: tasks[1].id, url: "https://cdn/x", size: 1_000)
        #expect(try store.uploadBytes(taskID: tasks[1].id, offset: 0, length: 10).isEmpty, "the bytes go once uploaded")
        #expect(try store.pendingTasks().map(\.id) == [tasks[0].id])
    }
}
