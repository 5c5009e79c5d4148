/// A new message, with its full content so the client can show it without a round trip.
public struct NewMessagePush: WirePush {
    public static let command = Command.pushNewMessage
    /// The new message.
    public var message: Message
    /// A push of `message`.
    public init(message: Message) { self.message = message }
}

/// A contact of the user changed (name, avatar, status...).
public struct ContactChangedPush: WirePush {
    public static let command = Command.pushContactChanged
    /// The contact as it is now.
    public var contact: Contact
    /// A push of `contact`.
    public init(contact: Contact) { self.contact = contact }
}

/// Someone read a chat up to a message.
public struct ReadReceiptPush: WirePush {
    public static let command = Command.pushReadReceipt
    /// The chat read.
    public var chatID: Int64
    /// The member who read it (the user's own id: read on another device).
    public var readerID: Int64
    /// The newest message they have read.
    public var messageID: Int64
    /// When they read it, server time.
    public var readAt: ServerTime

    /// A receipt with every field given.
    public init(chatID: Int64, readerID: Int64, messageID: Int64, readAt: ServerTime) {
        self.chatID = chatID
        self.readerID = readerID
        self.messageID = messageID
        self.readAt = readAt
    }
}
