public import LowbandWire

extension ServerCore {
    /// Chats the server holds, by id (1 …).
    public var chatCount: Int { chats.count }

    /// The members of chat `chatID`, ascending; nil for an unknown chat.
    public func memberIDs(of chatID: Int64) -> [Int64]? {
        chatID >= 1 && chatID <= Int64(chats.count) ? chats[Int(chatID - 1)].memberIDs : nil
    }

    /// How many messages of chat `chatID` that others sent `userID` has not read, as the server
    /// counts them (what a login reply says); nil when the chat is unknown or `userID` is not a
    /// member.
    public func unreadCount(of userID: Int64, in chatID: Int64) -> Int? {
        guard chatID >= 1, chatID <= Int64(chats.count) else { return nil }
        let chat = chats[Int(chatID - 1)]
        return chat.memberIndex(userID).map { chat.unreadCount(member: $0) }
    }

    /// The message `userID` stored under its `clientID`, if any: the idempotency record.
    public func message(from userID: Int64, clientID: UInt64) -> Message? {
        guard let reference = sentMessages[ClientMessageKey(userID: userID, clientID: clientID)] else { return nil }
        return chats[Int(reference.chatID - 1)].messages[reference.index]
    }
}
