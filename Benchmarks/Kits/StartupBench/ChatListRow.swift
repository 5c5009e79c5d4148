public import LowbandWire

/// One row of the first screen, the chat list: what a user sees of a chat and its last message.
///
/// Both cold-start paths reduce to these rows, so a test can check that they show the same
/// thing. Member lists and attachments are not shown on the list and not part of the row.
public struct ChatListRow: Hashable, Sendable, CustomStringConvertible {
    public var chatID: Int64
    public var kind: String
    public var title: String
    public var unreadCount: Int
    public var updatedAt: ServerTime
    public var lastMessageID: Int64?
    public var lastSenderID: Int64?
    public var lastText: String?
    public var lastSentAt: ServerTime?

    public init(
        chatID: Int64, kind: String, title: String, unreadCount: Int, updatedAt: ServerTime, lastMessageID: Int64?,
        lastSenderID: Int64?, lastText: String?, lastSentAt: ServerTime?
    ) {
        self.chatID = chatID
        self.kind = kind
        self.title = title
        self.unreadCount = unreadCount
        self.updatedAt = updatedAt
        self.lastMessageID = lastMessageID
        self.lastSenderID = lastSenderID
        self.lastText = lastText
        self.lastSentAt = lastSentAt
    }

    /// The row the chat list shows for `chat`.
    public init(_ chat: Chat) {
        self.init(
            chatID: chat.id, kind: chat.kind.rawValue, title: chat.title, unreadCount: chat.unreadCount, updatedAt: chat.updatedAt,
            lastMessageID: chat.lastMessage?.id, lastSenderID: chat.lastMessage?.senderID, lastText: chat.lastMessage?.text,
            lastSentAt: chat.lastMessage?.sentAt)
    }

    public var description: String {
        "chat \(chatID) (\(kind)) \"\(title)\" unread \(unreadCount) at \(updatedAt): last #\(lastMessageID.map(String.init) ?? "-")"
    }
}
