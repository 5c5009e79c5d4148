import GRDB
import LowbandFixtures
import LowbandServer
import LowbandWire

/// What a data directory was seeded from: the `server` table's row.
struct StoredSeed: Hashable, Sendable {
    var seed: UInt64
    var shape: MessengerWorld.Shape
    var epoch: ServerTime

    init(seed: UInt64, shape: MessengerWorld.Shape, epoch: ServerTime) {
        self.seed = seed
        self.shape = shape
        self.epoch = epoch
    }

    /// The `lowband server` options that give this seed.
    var options: String {
        "--seed \(seed) --users \(shape.users) --chats-per-user \(shape.chatsPerUser) --messages-per-chat \(shape.messagesPerChat)"
    }
}

/// Writes a fresh snapshot into an empty database and reads a stored one back, checking that
/// what it reads is something a server wrote (ids in place, members and senders known, upload
/// offsets within their sizes), so a damaged file is an error naming the table and row, not a
/// crash.
enum ServerDataLoader {
    static func storedSeed(_ db: Database) throws -> StoredSeed? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM server WHERE id = 1") else { return nil }
        let shape = MessengerWorld.Shape(
            users: max(2, row["users"] as Int), chatsPerUser: max(0, row["chats_per_user"] as Int),
            messagesPerChat: max(0, row["messages_per_chat"] as Int), extraContactsPerUser: max(0, row["extra_contacts_per_user"] as Int)
        )
        return StoredSeed(seed: UInt64(bitPattern: row["seed"] as Int64), shape: shape, epoch: row["epoch"])
    }

    /// Stores `snapshot` as the data seeded from `seed`, in the caller's transaction.
    static func seed(_ snapshot: ServerSnapshot, from seed: StoredSeed, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO server (id, seed, users, chats_per_user, messages_per_chat, extra_contacts_per_user, epoch, clock)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                Int64(bitPattern: seed.seed), seed.shape.users, seed.shape.chatsPerUser, seed.shape.messagesPerChat,
                seed.shape.extraContactsPerUser, seed.epoch, snapshot.clock,
            ]
        )
        for user in snapshot.users { try SQLiteServerStore.save(user, in: db) }
        let insertChat = try db.makeStatement(sql: "INSERT INTO chats (id, kind, title, updated_at) VALUES (?, ?, ?, ?)")
        let insertMember = try db.makeStatement(sql: "INSERT INTO chat_members (chat_id, user_id, read_up_to, read_updated_at) VALUES (?, ?, ?, ?)")
        for chat in snapshot.chats {
            try insertChat.execute(arguments: [chat.id, chat.kind.rawValue, chat.title, chat.updatedAt])
            for (index, member) in chat.memberIDs.enumerated() {
                try insertMember.execute(arguments: [chat.id, member, chat.readUpTo[index], chat.readUpdatedAt[index]])
            }
            for message in chat.messages { try SQLiteServerStore.insert(message, in: db) }
        }
        for record in snapshot.uploads { try SQLiteServerStore.save(record, in: db) }
    }

    /// Reads the whole data back. `limits` bound what is read as the wire's would.
    static func load(_ db: Database, path: String, limits: ServerLimits) throws(ServerStoreError) -> ServerSnapshot {
        do {
            return try loadUnchecked(db, path: path, limits: limits)
        } catch let error as ServerStoreError {
            throw error
        } catch {
            throw ServerStoreError(.unreadable, "\(path): \(error)")
        }
    }

    private static func loadUnchecked(_ db: Database, path: String, limits: ServerLimits) throws -> ServerSnapshot {
        func bad(_ table: String, _ what: String) -> ServerStoreError {
            ServerStoreError(.unreadable, "\(path): table \(table): \(what); this is not data a lowband server wrote (restore it from a copy or start on an empty --data directory)")
        }
        guard let clock = try ServerTime.fetchOne(db, sql: "SELECT clock FROM server WHERE id = 1") else {
            throw bad("server", "no row")
        }
        var users: [StoredUser] = []
        for row in try Row.fetchAll(db, sql: "SELECT * FROM users ORDER BY id") {
            let id: Int64 = row["id"]
            guard id == Int64(users.count + 1) else { throw bad("users", "ids must be 1...n; found \(id) at position \(users.count + 1)") }
            users.append(StoredUser(
                id: id, token: row["token"], name: row["name"], phone: row["phone"], avatar: row["avatar"], status: row["status"],
                profileUpdatedAt: row["profile_updated_at"], settings: try StoredJSON.value(Settings.self, from: row["settings"]),
                contactIDs: try StoredJSON.value([Int64].self, from: row["contact_ids"])
            ))
        }
        guard users.count >= 2 else { throw bad("users", "\(users.count) users; a server has at least 2") }
        let userRange = 1 ... Int64(users.count)
        for user in users where !user.contactIDs.allSatisfy(userRange.contains) {
            throw bad("users", "user \(user.id) has a contact that is not a user")
        }
        var chats: [StoredChat] = []
        for row in try Row.fetchAll(db, sql: "SELECT * FROM chats ORDER BY id") {
            let id: Int64 = row["id"]
            guard id == Int64(chats.count + 1) else { throw bad("chats", "ids must be 1...n; found \(id) at position \(chats.count + 1)") }
            guard let kind = Chat.Kind(rawValue: row["kind"]) else { throw bad("chats", "chat \(id) has kind '\(row["kind"] as String)'") }
            chats.append(StoredChat(id: id, kind: kind, title: row["title"], memberIDs: [], messages: [], updatedAt: row["updated_at"], readUpTo: [], readUpdatedAt: []))
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM chat_members ORDER BY chat_id, user_id") {
            let chatID: Int64 = row["chat_id"]
            let userID: Int64 = row["user_id"]
            guard (1 ... Int64(chats.count)).contains(chatID), userRange.contains(userID) else {
                throw bad("chat_members", "member \(userID) of chat \(chatID): no such chat or user")
            }
            let index = Int(chatID - 1)
            chats[index].memberIDs.append(userID)
            chats[index].readUpTo.append(row["read_up_to"])
            chats[index].readUpdatedAt.append(row["read_updated_at"])
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM messages ORDER BY chat_id, id") {
            let id: Int64 = row["id"]
            let chatID: Int64 = row["chat_id"]
            let senderID: Int64 = row["sender_id"]
            guard id >= 1, (1 ... Int64(chats.count)).contains(chatID), userRange.contains(senderID) else {
                throw bad("messages", "message \(id) of chat \(chatID) from \(senderID): no such chat or sender")
            }
            let attachments = try StoredJSON.value([Attachment].self, from: row["attachments"])
            guard attachments.count <= limits.attachmentsPerMessage else {
                throw bad("messages", "message \(id) has \(attachments.count) attachments, over the limit of \(limits.attachmentsPerMessage)")
            }
            chats[Int(chatID - 1)].messages.append(Message(
                id: id, chatID: chatID, senderID: senderID, clientID: (row["client_id"] as Int64?).map { UInt64(bitPattern: $0) },
                text: row["text"], sentAt: row["sent_at"], editedAt: row["edited_at"], attachments: attachments
            ))
        }
        var uploads: [StoredUploadRecord] = []
        var uploadBytes: Int64 = 0
        for row in try Row.fetchAll(db, sql: "SELECT * FROM uploads ORDER BY user_id, upload_id") {
            let record = StoredUploadRecord(
                userID: row["user_id"], uploadID: row["upload_id"], number: row["number"], totalSize: row["total_size"],
                acknowledgedOffset: row["acknowledged_offset"], checksum: UInt64(bitPattern: row["checksum"]), url: row["url"]
            )
            guard userRange.contains(record.userID), record.number >= 1,
                  (1 ... limits.uploadSize).contains(record.totalSize), (0 ... record.totalSize).contains(record.acknowledgedOffset),
                  (record.url != nil) == (record.acknowledgedOffset == record.totalSize),
                  !record.uploadID.isEmpty, record.uploadID.utf8.count <= limits.uploadIDBytes
            else {
                throw bad("uploads", "upload '\(record.uploadID)' of user \(record.userID): offset \(record.acknowledgedOffset) of \(record.totalSize), limit \(limits.uploadSize)")
            }
            uploadBytes += record.acknowledgedOffset
            uploads.append(record)
        }
        guard uploadBytes <= Int64(limits.storedUploadBytes) else {
            throw bad("uploads", "\(uploadBytes) bytes of uploads, over the server's limit of \(limits.storedUploadBytes)")
        }
        return ServerSnapshot(users: users, chats: chats, uploads: uploads, clock: clock)
    }
}
