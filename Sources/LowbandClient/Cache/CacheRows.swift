import Foundation
import GRDB
import GRDBSQLite
import LowbandMessagePack
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

    /// Decodes JSON that ``encodeJSON(_:)`` wrote.
    ///
    /// The text goes through LowbandMessagePack's JSON reader and MessagePack decoder, which is
    /// much cheaper than JSONDecoder for the small objects stored here: a cold start reads the
    /// attachment of every waiting outbox task, and JSONDecoder was about a quarter of the launch
    /// (perf, issue 13). Whenever that path fails, JSONDecoder decides, so what it accepts and
    /// the errors it gives are unchanged.
    static func decodeJSON<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        if let value = try? MessagePackJSON.parse(text), let bytes = try? value.encoded(),
           let decoded = try? MessagePackDecoder().decode(type, from: bytes) {
            return decoded
        }
        return try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// `decodeJSON`, failing with what was stored where when the text does not decode.
    ///
    /// - Throws: ``ClientError`` `.database` naming `place` (e.g. "chat 5 memberIDs"), the
    ///   stored text (cut at 200 characters) and the decoder's reason.
    static func decodeStored<T: Decodable>(_ type: T.Type, from text: String, at place: @autoclosure () -> String) throws(ClientError) -> T {
        do {
            return try decodeJSON(type, from: text)
        } catch {
            let shown = text.count > 200 ? String(text.prefix(200)) + "…" : text
            throw ClientError(.database, "the cache's \(place()) is not a valid \(T.self) in JSON (stored text \"\(shown)\"): \(error)")
        }
    }

    /// A stored member id list: the compact form is read directly, anything else by JSONDecoder.
    static func memberIDs(_ text: String, chatID: Int64) throws(ClientError) -> [Int64] {
        if let ids = StoredLists.integers(text) { return ids }
        return try decodeStored([Int64].self, from: text, at: "chat \(chatID) memberIDs")
    }

    /// A stored attachment list: `[]` (most messages) directly, anything else by JSONDecoder.
    static func attachments(_ text: String, chatID: Int64, messageID: Int64) throws(ClientError) -> [Attachment] {
        if StoredLists.isEmptyList(text) { return [] }
        return try decodeStored([Attachment].self, from: text, at: "message \(messageID) of chat \(chatID) attachments")
    }

    /// A message's attachment list as stored: `[]` (most messages, what JSONEncoder writes for
    /// an empty list) without an encoder, anything else by ``encodeJSON(_:)``.
    static func attachmentsText(_ attachments: [Attachment]) throws -> String {
        attachments.isEmpty ? "[]" : try encodeJSON(attachments)
    }

    /// `text` as the cache reads it back: GRDB binds and reads a String as a C string, so it
    /// ends at the first NUL.
    static func storedText(_ text: String) -> String {
        text.utf8.contains(0) ? String(decoding: text.utf8.prefix { $0 != 0 }, as: UTF8.self) : text
    }

    static let insertMessageSQL = """
        INSERT OR REPLACE INTO message (chatID, id, senderID, clientID, text, sentAt, editedAt, attachments)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """

    static let insertNewMessageSQL = """
        INSERT OR IGNORE INTO message (chatID, id, senderID, clientID, text, sentAt, editedAt, attachments)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Stores `message` as ``insert(_:into:_:)`` does, and says whether the cache already held
    /// its id: the message is inserted unless its key is taken (no row changed), and only then
    /// replaced. Every column is bound from a value that is never NULL where the table says NOT
    /// NULL, so a taken key is the one thing the insert ignores.
    static func insertIfNew(_ message: Message, into db: Database, _ statements: HeldStatements?) throws -> Bool {
        try statements.statement(.insertNewMessage, db).run(Self.values(message))
        guard sqlite3_changes(db.sqliteConnection) == 0 else { return false }
        try insert(message, into: db, statements)
        return true
    }

    /// Stores `message` (replacing the row of its id), through `statements`.
    static func insert(_ message: Message, into db: Database, _ statements: HeldStatements? = nil) throws {
        try statements.statement(.insertMessage, db).run(Self.values(message))
    }

    /// The message's columns in the order of ``insertMessageSQL``.
    private static func values(_ message: Message) throws -> [StepValue] {
        [
            .integer(message.chatID), .integer(message.id), .integer(message.senderID), StepValue(message.clientID.map { Int64(bitPattern: $0) }),
            .text(message.text), .integer(message.sentAt), StepValue(message.editedAt), .text(try attachmentsText(message.attachments)),
        ]
    }

    /// The message columns a ``StepRow`` holds for ``message(_:)``, in their order.
    static let messageColumns = "chatID, id, senderID, clientID, text, sentAt, editedAt, attachments"

    /// A message from a row of ``messageColumns``: the same value the GRDB `Row` of `SELECT *`
    /// gives.
    static func message(_ row: StepRow) throws -> Message {
        // chatID, id, senderID, text, sentAt and attachments are NOT NULL.
        let chatID = row.integer(0) ?? 0
        let id = row.integer(1) ?? 0
        return Message(
            id: id,
            chatID: chatID,
            senderID: row.integer(2) ?? 0,
            clientID: row.integer(3).map { UInt64(bitPattern: $0) },
            text: row.text(4) ?? "",
            sentAt: row.integer(5) ?? 0,
            editedAt: row.integer(6),
            attachments: try attachments(row.text(7) ?? "[]", chatID: chatID, messageID: id)
        )
    }

    static func message(_ row: Row) throws -> Message {
        let clientID: Int64? = row["clientID"]
        let id: Int64 = row["id"]
        let chatID: Int64 = row["chatID"]
        return Message(
            id: id,
            chatID: chatID,
            senderID: row["senderID"],
            clientID: clientID.map { UInt64(bitPattern: $0) },
            text: row["text"],
            sentAt: row["sentAt"],
            editedAt: row["editedAt"],
            attachments: try attachments(row["attachments"], chatID: chatID, messageID: id)
        )
    }

    /// Inserts or updates a chat from the server, keeping the device's read position.
    static func upsert(_ chat: Chat, into db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO chat (id, kind, title, memberIDs, unreadCount, lastMessageID, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    kind = excluded.kind, title = excluded.title, memberIDs = excluded.memberIDs,
                    unreadCount = excluded.unreadCount, lastMessageID = excluded.lastMessageID,
                    updatedAt = excluded.updatedAt
                """).execute(arguments: [
                chat.id, chat.kind.rawValue, chat.title, try encodeJSON(chat.memberIDs), chat.unreadCount,
                chat.lastMessage?.id, chat.updatedAt,
            ]
        )
    }

    static func upsert(_ contact: Contact, into db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO contact (id, name, phone, avatar, status, updatedAt) VALUES (?, ?, ?, ?, ?, ?)").execute(arguments: [contact.id, contact.name, contact.phone, contact.avatar, contact.status, contact.updatedAt]
        )
    }

    static func contact(_ row: Row) -> Contact {
        Contact(id: row["id"], name: row["name"], phone: row["phone"], avatar: row["avatar"], status: row["status"], updatedAt: row["updatedAt"])
    }

    static func upsert(_ settings: Settings, into db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO settings (id, language, notificationsEnabled, previewInNotifications, autoDownloadMediaOnCellular, theme, updatedAt)
                VALUES (1, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
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
