import GRDB
import LowbandWire

/// The chat list with each chat's last message, in one statement.
///
/// A chat's last message is the message its `lastMessageID` names (nil when the chat has none,
/// or that message is not cached): the join finds it through the message table's primary key
/// `(chatID, id)`, one lookup per chat. The list is newest activity first, ties by id. This is
/// the first screen of every launch, so it is one prepared statement (cached on the
/// connection) and its columns are read by position.
enum ChatListQuery {
    static let sql = """
        SELECT c.id, c.kind, c.title, c.memberIDs, c.unreadCount, c.updatedAt,
               m.id, m.senderID, m.clientID, m.text, m.sentAt, m.editedAt, m.attachments
        FROM chat c LEFT JOIN message m ON m.chatID = c.id AND m.id = c.lastMessageID
        ORDER BY c.updatedAt DESC, c.id
        """

    /// - Throws: GRDB's error when a column holds the wrong type, ``ClientError`` `.database`
    ///   naming the chat or message when a stored list is not valid JSON.
    static func fetch(_ db: Database) throws -> [Chat] {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql))
        var chats: [Chat] = []
        while let row = try rows.next() {
            chats.append(try chat(row))
        }
        return chats
    }

    private static func chat(_ row: Row) throws -> Chat {
        let id: Int64 = try row.decode(atIndex: 0)
        let kind: String = try row.decode(atIndex: 1)
        var last: Message?
        if let lastID: Int64 = try row.decode(atIndex: 6) {
            let clientID: Int64? = try row.decode(atIndex: 8)
            last = Message(
                id: lastID, chatID: id, senderID: try row.decode(atIndex: 7), clientID: clientID.map { UInt64(bitPattern: $0) },
                text: try row.decode(atIndex: 9), sentAt: try row.decode(atIndex: 10), editedAt: try row.decode(atIndex: 11),
                attachments: try CacheRows.attachments(try row.decode(atIndex: 12), chatID: id, messageID: lastID))
        }
        return Chat(
            id: id, kind: Chat.Kind(rawValue: kind) ?? .direct, title: try row.decode(atIndex: 2),
            memberIDs: try CacheRows.memberIDs(try row.decode(atIndex: 3), chatID: id),
            unreadCount: try row.decode(atIndex: 4), lastMessage: last, updatedAt: try row.decode(atIndex: 5))
    }
}
