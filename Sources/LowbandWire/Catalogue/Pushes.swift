/// A new message, with its full content so the client can show it without a round trip.
public struct NewMessagePush: WirePush {
    public static let command = Command.pushNewMessage
    public var message: Message
    public init(message: Message) { self.message = message }
}

public struct ContactChangedPush: WirePush {
    public static let command = Command.pushContactChanged
    public var contact: Contact
    public init(contact: Contact) { self.contact = contact }
}

/// Someone read a chat up to a message.
public struct ReadReceiptPush: WirePush {
    public static let command = Command.pushReadReceipt
    public var chatID: Int64
    public var readerID: Int64
    public var messageID: Int64
    public var readAt: ServerTime

    public init(chatID: Int64, readerID: Int64, messageID: Int64, readAt: ServerTime) {
        self.chatID = chatID
        self.readerID = readerID
        self.messageID = messageID
        self.readAt = readAt
    }
}
