import Foundation
import GRDB
import LowbandWire

/// Conversions between catalogue values and cache rows.
///
/// Lists (attachments, member ids) are stored as JSON with sorted keys, so the same value is
/// the same text in every process (Dictionary order never reaches the file).
enum CacheRows {
    static func encodeJSON<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decodeJSON<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    static func insert(_ message: Message, into db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO message (chatID, id, senderID, clientID, text, sentAt, editedAt, attachments)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                message.chatID, message.id, message.senderID, message.clientID.map { Int64(bitPattern: $0) },
                message.text, message.sentAt, message.editedAt, try encodeJSON(message.attachments),
            ]
        )
    }

    static func message(_ row: Row) throws -> Message {
        let clientID: Int64? = row["clientID"]
        return Message(
            id: row["id"],
            chatID: row["chatID"],
            senderID: row["senderID"],
            clientID: clientID.map { UInt64(bitPattern: $0) },
            text: row["text"],
            sentAt: row["sentAt"],
            editedAt: row["editedAt"],
            attachments: try decodeJSON([Attachment].self, from: row["attachments"])
        )
    }

    static func upsert(_ chat: Chat, into db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO chat (id, kind, title, memberIDs, unreadCount, lastMessageID, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                chat.id, chat.kind.rawValue, chat.title, try encodeJSON(chat.memberIDs), chat.unreadCount,
                chat.lastMessage?.id, chat.updatedAt,
            ]
        )
    }

    static func upsert(_ contact: Contact, into db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO contact (id, name, phone, avatar, status, updatedAt) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [contact.id, contact.name, contact.phone, contact.avatar, contact.status, contact.updatedAt]
        )
    }

    static func contact(_ row: Row) -> Contact {
        Contact(id: row["id"], name: row["name"], phone: row["phone"], avatar: row["avatar"], status: row["status"], updatedAt: row["updatedAt"])
    }

    static func upsert(_ settings: Settings, into db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO settings (id, language, notificationsEnabled, previewInNotifications, autoDownloadMediaOnCellular, theme, updatedAt)
                VALUES (1, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                settings.language, settings.notificationsEnabled, settings.previewInNotifications,
                settings.autoDownloadMediaOnCellular, settings.theme, settings.updatedAt,
            ]
        )
    }

    static func settings(_ row: Row) -> Settings {
        Settings(
            language: row["language"], notificationsEnabled: row["notificationsEnabled"],
            previewInNotifications: row["previewInNotifications"],
            autoDownloadMediaOnCellular: row["autoDownloadMediaOnCellular"], theme: row["theme"],
            updatedAt: row["updatedAt"]
        )
    }
}
