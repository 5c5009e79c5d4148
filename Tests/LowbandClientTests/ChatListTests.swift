import Foundation
import GRDB
import LowbandClient
import LowbandDeterminism
import LowbandTestSupport
import LowbandWire
import Testing

/// The chat list (the first screen) read in one query: the same chats, order and last
/// messages as the per-chat reads it replaced, and clear errors for bad stored lists.
@Suite struct ChatListTests {
    let directory: TemporaryDirectory
    let database: CacheDatabase
    let sync: SyncStore
    let messages: MessageStore

    init() throws {
        directory = try TemporaryDirectory()
        database = try CacheDatabase(path: directory.file("cache.sqlite"))
        sync = SyncStore(writer: database.writer)
        messages = MessageStore(writer: database.writer)
    }

    private func chat(_ id: Int64, updatedAt: ServerTime, last: Message? = nil, kind: Chat.Kind = .direct, members: [Int64] = [1, 2]) -> Chat {
        Chat(id: id, kind: kind, title: "chat \(id)", memberIDs: members, unreadCount: Int(id % 3), lastMessage: last, updatedAt: updatedAt)
    }

    private func login(_ chats: [Chat]) throws {
        try sync.apply(login: LoginReply(userID: 1, serverTime: 100, settings: nil, contacts: [], chats: chats))
    }

    @Test func eachChatShowsItsNewestMessageAndTiesOnTimeKeepTheNewestID() throws {
        try login([chat(1, updatedAt: 50), chat(2, updatedAt: 50)])
        let page = [10, 20, 30].map { Message(id: $0, chatID: 1, senderID: 2, text: "m\($0)", sentAt: 1_000) }
        try messages.apply(page: HistoryReply(chatID: 1, messages: page, reachedEnd: true), for: HistoryRequest(chatID: 1, anchor: nil, direction: .older, count: 3))
        // Same timestamp as the page: the newest is the highest id, as the server numbers them.
        try messages.applyLive(Message(id: 31, chatID: 1, senderID: 1, clientID: 77, text: "same time", sentAt: 1_000, editedAt: 1_005))
        // An older message arriving late does not replace the newest.
        try messages.applyLive(Message(id: 25, chatID: 1, senderID: 1, text: "late", sentAt: 2_000))

        let chats = try sync.chats()
        #expect(chats.map(\.id) == [1, 2], "equal updatedAt: by id")
        #expect(chats[0].lastMessage == Message(id: 31, chatID: 1, senderID: 1, clientID: 77, text: "same time", sentAt: 1_000, editedAt: 1_005))
        #expect(chats[1].lastMessage == nil, "a chat without messages")
        #expect(chats == (try legacyChats()))
    }

    @Test func theListIsNewestActivityFirstTiesByID() throws {
        try login([chat(5, updatedAt: 10), chat(3, updatedAt: 30), chat(4, updatedAt: 30), chat(1, updatedAt: 20), chat(2, updatedAt: 30)])
        #expect(try sync.chats().map(\.id) == [2, 3, 4, 1, 5])
        #expect(try sync.chats() == legacyChats())
    }

    @Test func aLastMessageWithAttachmentsKeepsThemAll() throws {
        let attachments = [
            LowbandWire.Attachment(id: "a1", kind: .photo, size: 4_096, width: 640, height: 480, url: "https://cdn/a1"),
            LowbandWire.Attachment(id: "a2", kind: .voice, size: 900, duration: 3_500, url: "https://cdn/a2"),
        ]
        let last = Message(id: 9, chatID: 1, senderID: 2, text: "look", sentAt: 40, attachments: attachments)
        try login([chat(1, updatedAt: 40, last: last, kind: .group, members: [1, 2, 3, 9_007_199_254_740_993])])
        let chats = try sync.chats()
        #expect(chats == [chat(1, updatedAt: 40, last: last, kind: .group, members: [1, 2, 3, 9_007_199_254_740_993])])
        #expect(chats == (try legacyChats()))
    }

    @Test func aLastMessageIDNotInTheCacheShowsNoMessageAsBefore() throws {
        try login([chat(1, updatedAt: 10, last: Message(id: 5, chatID: 1, senderID: 2, text: "x", sentAt: 10)), chat(2, updatedAt: 20)])
        try database.writer.write { db in
            try db.execute(sql: "UPDATE chat SET lastMessageID = 6 WHERE id = 1")
            // A message of chat 2 stored with no lastMessageID: the list shows none, as before.
            try db.execute(sql: "INSERT INTO message (chatID, id, senderID, text, sentAt) VALUES (2, 1, 1, 'orphan', 5)")
        }
        let chats = try sync.chats()
        #expect(chats.map(\.lastMessage) == [nil, nil])
        #expect(chats == (try legacyChats()))
    }

    /// A few hundred chats with random times (many equal), messages, attachments, kinds and
    /// member lists, compared with the per-chat reads of the previous version.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aRandomCacheReadsAsThePreviousVersionReadIt(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var chats: [Chat] = []
        for id in 1 ... Int64(300) {
            let members = (0 ..< Int(random.next(upperBound: 6 as UInt64))).map { _ in Int64(bitPattern: random.next()) >> random.next(upperBound: 63 as UInt64) }
            chats.append(chat(id, updatedAt: ServerTime(random.next(upperBound: 40 as UInt64)), kind: random.next() & 1 == 0 ? .direct : .group, members: members))
        }
        try login(chats)
        var nextID: Int64 = 1
        for chat in chats where random.next(upperBound: 5 as UInt64) != 0 {
            let page = (0 ..< Int(1 + random.next(upperBound: 20 as UInt64))).map { _ -> Message in
                nextID += Int64(1 + random.next(upperBound: 3 as UInt64))
                let attachments = random.next(upperBound: 4 as UInt64) == 0
                    ? [LowbandWire.Attachment(id: "f\(nextID)", kind: .file, size: Int64(random.next(upperBound: 1 << 20 as UInt64)), url: "u\(nextID)")] : []
                return Message(
                    id: nextID, chatID: chat.id, senderID: chat.memberIDs.first ?? 1,
                    clientID: random.next() & 1 == 0 ? random.next() >> 1 : nil, text: "t\(nextID) ✓", sentAt: ServerTime(random.next(upperBound: 5 as UInt64)),
                    editedAt: random.next() & 3 == 0 ? 9 : nil, attachments: attachments)
            }
            try messages.apply(page: HistoryReply(chatID: chat.id, messages: page, reachedEnd: false), for: HistoryRequest(chatID: chat.id, anchor: nil, direction: .older, count: page.count))
        }
        let read = try sync.chats()
        #expect(read.count == 300)
        #expect(read.filter { $0.lastMessage != nil }.count > 200)
        #expect(read.contains { $0.lastMessage?.attachments.isEmpty == false })
        #expect(read == (try legacyChats()))
    }

    /// Stored member lists other than the compact form JSONEncoder writes read as JSONDecoder
    /// reads them; text it rejects is an error naming the chat and the text, not a crash.
    @Test(arguments: [
        "[]", "[7]", "[1,2,3]", "[-5,0,12]", "[9223372036854775807]", "[-9223372036854775808]", "[ 1, 2 ]", "[1,\n2]",
        "[1.0]", "[01]", "[9223372036854775808]", "[1,]", "[,]", "[-]", "[1 2]", "oops", "", "[\"3\"]", "{}", "[[1]]",
    ])
    func storedMemberListsReadAsJSONDecoderReadsThem(stored: String) throws {
        try login([chat(7, updatedAt: 1)])
        try database.writer.write { db in try db.execute(sql: "UPDATE chat SET memberIDs = ? WHERE id = 7", arguments: [stored]) }
        if let expected = try? JSONDecoder().decode([Int64].self, from: Data(stored.utf8)) {
            #expect(try sync.chats().first?.memberIDs == expected)
        } else {
            #expect {
                try sync.chats()
            } throws: { error in
                let message = "\(error)"
                return (error as? ClientError)?.code == .database && message.contains("chat 7 memberIDs") && message.contains("\"\(stored)\"")
            }
        }
    }

    @Test func aBadStoredAttachmentListNamesTheMessageAndChat() throws {
        let last = Message(id: 12, chatID: 4, senderID: 2, text: "x", sentAt: 3)
        try login([chat(4, updatedAt: 3, last: last)])
        try database.writer.write { db in try db.execute(sql: "UPDATE message SET attachments = '[{\"id\":1}]' WHERE chatID = 4") }
        #expect {
            try sync.chats()
        } throws: { error in
            (error as? ClientError)?.code == .database && "\(error)".contains("message 12 of chat 4 attachments")
        }
        #expect(throws: ClientError.self) { try messages.message(chatID: 4, id: 12) }
    }

    /// The chat list exactly as the previous version read it: the chats, then one query per
    /// chat for its last message, lists through JSONDecoder.
    private func legacyChats() throws -> [Chat] {
        try database.writer.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM chat ORDER BY updatedAt DESC, id")
            return try rows.map { row in
                let id: Int64 = row["id"]
                let lastID: Int64? = row["lastMessageID"]
                let last = try lastID.flatMap { lastID -> Message? in
                    guard let message = try Row.fetchOne(db, sql: "SELECT * FROM message WHERE chatID = ? AND id = ?", arguments: [id, lastID]) else { return nil }
                    let clientID: Int64? = message["clientID"]
                    let attachments: String = message["attachments"]
                    return Message(
                        id: message["id"], chatID: message["chatID"], senderID: message["senderID"], clientID: clientID.map { UInt64(bitPattern: $0) },
                        text: message["text"], sentAt: message["sentAt"], editedAt: message["editedAt"],
                        attachments: try JSONDecoder().decode(Array<LowbandWire.Attachment>.self, from: Data(attachments.utf8)))
                }
                let members: String = row["memberIDs"]
                return Chat(
                    id: id, kind: Chat.Kind(rawValue: row["kind"]) ?? .direct, title: row["title"],
                    memberIDs: try JSONDecoder().decode(Array<Int64>.self, from: Data(members.utf8)),
                    unreadCount: row["unreadCount"], lastMessage: last, updatedAt: row["updatedAt"])
            }
        }
    }
}
