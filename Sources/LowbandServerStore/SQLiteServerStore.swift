import Foundation
import GRDB
import LowbandServer
import LowbandWire

/// The ``LowbandServer/ServerStore`` of `lowband server --data`: each change is one SQLite
/// transaction, committed (and, with `synchronous = FULL`, synced to the WAL file) before
/// ``commit(_:)`` returns, so the core answers only what is on disk.
final class SQLiteServerStore: ServerStore {
    let writer: any DatabaseWriter
    /// Held for as long as the store lives.
    private let lock: DirectoryLock?

    init(writer: any DatabaseWriter, lock: DirectoryLock?) {
        self.writer = writer
        self.lock = lock
    }

    func commit(_ change: ServerChange) throws(ServerStoreError) {
        do {
            try writer.write { db in try Self.apply(change, in: db) }
        } catch {
            throw ServerStoreError(.io, "cannot write to \(writer.path): \(error)")
        }
    }

    static func apply(_ change: ServerChange, in db: Database) throws {
        switch change {
        case .message(let message):
            try insert(message, in: db)
            try db.cachedStatement(sql: "UPDATE chats SET updated_at = ? WHERE id = ?")
                .execute(arguments: [message.sentAt, message.chatID])
            try db.cachedStatement(sql: "UPDATE chat_members SET read_up_to = ?, read_updated_at = ? WHERE chat_id = ? AND user_id = ?")
                .execute(arguments: [message.id, message.sentAt, message.chatID, message.senderID])
            try advanceClock(to: message.sentAt, in: db)
        case .read(let chatID, let userID, let upTo, let at):
            try db.cachedStatement(sql: "UPDATE chat_members SET read_up_to = ?, read_updated_at = ? WHERE chat_id = ? AND user_id = ?")
                .execute(arguments: [upTo, at, chatID, userID])
            try advanceClock(to: at, in: db)
        case .profile(let user):
            try save(user, in: db)
            try advanceClock(to: max(user.profileUpdatedAt, user.settings.updatedAt), in: db)
        case .syncPoint(let time):
            try advanceClock(to: time, in: db)
        case .upload(let record):
            try save(record, in: db)
        case .uploadDropped(let userID, let uploadID):
            try db.cachedStatement(sql: "DELETE FROM uploads WHERE user_id = ? AND upload_id = ?")
                .execute(arguments: [userID, uploadID])
        }
    }

    static func insert(_ message: Message, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO messages (id, chat_id, sender_id, client_id, text, sent_at, edited_at, attachments)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
            message.id, message.chatID, message.senderID, message.clientID.map { Int64(bitPattern: $0) },
            message.text, message.sentAt, message.editedAt, try StoredJSON.text(message.attachments),
        ])
    }

    static func save(_ user: StoredUser, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO users (id, token, name, phone, avatar, status, profile_updated_at, settings, contact_ids)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
            user.id, user.token, user.name, user.phone, user.avatar, user.status, user.profileUpdatedAt,
            try StoredJSON.text(user.settings), try StoredJSON.text(user.contactIDs),
        ])
    }

    static func save(_ record: StoredUploadRecord, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO uploads (user_id, upload_id, number, total_size, acknowledged_offset, checksum, url)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
            record.userID, record.uploadID, record.number, record.totalSize, record.acknowledgedOffset,
            Int64(bitPattern: record.checksum), record.url,
        ])
    }

    static func advanceClock(to time: ServerTime, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE server SET clock = MAX(clock, ?) WHERE id = 1").execute(arguments: [time])
    }
}

/// JSON columns (settings, contact ids, attachments): sorted keys, so the same value is the
/// same text.
enum StoredJSON {
    static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func value<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
