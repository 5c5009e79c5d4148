public import LowbandWire

extension ServerCore {
    /// Stores a message from a session (idempotent on the user's `clientID`) and pushes it.
    mutating func send(_ request: SendMessageRequest, userID: Int64, session: SessionID, at now: Duration) throws(ErrorReply) -> (Message, [Outbound]) {
        let key = ClientMessageKey(userID: userID, clientID: request.clientID)
        // Membership first: a client id used in one chat must not carry a send into another.
        let (index, _) = try memberChat(request.chatID, userID: userID)
        if let sent = sentMessages[key] {
            guard sent.chatID == request.chatID else {
                throw ErrorReply(.badRequest, "client id \(request.clientID) already names a message in chat \(sent.chatID): a retry names the same chat; a new message needs a new client id")
            }
            // A retry: the same reply, no new message, no new pushes.
            return (chats[Int(sent.chatID - 1)].messages[sent.index], [])
        }
        try validate(text: request.text, attachments: request.attachments)
        let message = try append(text: request.text, attachments: request.attachments, clientID: request.clientID, from: userID, toChat: index, at: now)
        sentMessages[key] = MessageReference(chatID: message.chatID, index: chats[index].messages.count - 1)
        let pushes = pushes(NewMessagePush(message: message), to: chats[index].memberIDs, excluding: session)
        return (message, pushes)
    }

    /// Adds a message to a chat as if `userID` had sent it from a device with no session here,
    /// and returns it with the pushes to send: every logged-in session of every member gets it,
    /// the sender's own sessions included. For tests and scenarios ("another user writes").
    ///
    /// - Throws: `LowbandWire/ErrorReply` 404 for an unknown chat, 403 when `userID` is not a
    ///   member, 400/413 for text or attachments the wire would refuse.
    public mutating func post(
        _ text: String, attachments: [Attachment] = [], clientID: UInt64? = nil, in chatID: Int64, from userID: Int64, at now: Duration
    ) throws(ErrorReply) -> (message: Message, outbound: [Outbound]) {
        if let clientID, let sent = sentMessages[ClientMessageKey(userID: userID, clientID: clientID)] {
            return (chats[Int(sent.chatID - 1)].messages[sent.index], [])
        }
        let (index, _) = try memberChat(chatID, userID: userID)
        try validate(text: text, attachments: attachments)
        let message = try append(text: text, attachments: attachments, clientID: clientID, from: userID, toChat: index, at: now)
        if let clientID {
            sentMessages[ClientMessageKey(userID: userID, clientID: clientID)] = MessageReference(chatID: chatID, index: chats[index].messages.count - 1)
        }
        let outbound = pushes(NewMessagePush(message: message), to: chats[index].memberIDs)
        statistics.pushes += outbound.count
        return (message, outbound)
    }

    /// Moves the user's read position forward and tells the other sessions of the chat's members.
    mutating func markRead(_ request: MarkReadRequest, userID: Int64, session: SessionID, at now: Duration) throws(ErrorReply) -> [Outbound] {
        let (index, member) = try memberChat(request.chatID, userID: userID)
        guard chats[index].messageIndex(request.messageID) != nil else {
            throw ErrorReply(.notFound, "chat \(request.chatID) has no message \(request.messageID)")
        }
        guard request.messageID > chats[index].readUpTo[member] else { return [] }
        let stamp = clock.stamp(at: now)
        try commit(.read(chatID: request.chatID, userID: userID, upTo: request.messageID, at: stamp))
        chats[index].readUpTo[member] = request.messageID
        chats[index].readUpdatedAt[member] = stamp
        let receipt = ReadReceiptPush(chatID: request.chatID, readerID: userID, messageID: request.messageID, readAt: stamp)
        return pushes(receipt, to: chats[index].memberIDs, excluding: session)
    }

    /// Every message of a chat, oldest first; nil for an unknown chat.
    public func messages(in chatID: Int64) -> [Message]? {
        chatID >= 1 && chatID <= Int64(chats.count) ? chats[Int(chatID - 1)].messages : nil
    }

    /// The newest message `userID` has read in a chat (0: none); nil if not a member.
    public func readPosition(of userID: Int64, in chatID: Int64) -> Int64? {
        guard let (index, member) = try? memberChat(chatID, userID: userID) else { return nil }
        return chats[index].readUpTo[member]
    }

    private func validate(text: String, attachments: [Attachment]) throws(ErrorReply) {
        let limits = configuration.limits
        guard !text.isEmpty || !attachments.isEmpty else {
            throw ErrorReply(.badRequest, "a message needs text or an attachment")
        }
        guard text.utf8.count <= limits.textBytes else {
            throw ErrorReply(.payloadTooLarge, "message text is \(text.utf8.count) bytes; the limit is \(limits.textBytes)")
        }
        guard attachments.count <= limits.attachmentsPerMessage else {
            throw ErrorReply(.payloadTooLarge, "a message carries at most \(limits.attachmentsPerMessage) attachments, not \(attachments.count)")
        }
        for attachment in attachments {
            guard !attachment.id.isEmpty, attachment.id.utf8.count <= limits.attachmentFieldBytes, attachment.url.utf8.count <= limits.attachmentFieldBytes else {
                throw ErrorReply(.badRequest, "attachment ids and URLs must be 1...\(limits.attachmentFieldBytes) bytes")
            }
            guard attachment.size >= 0, attachment.size <= limits.uploadSize else {
                throw ErrorReply(.badRequest, "attachment \(attachment.id) has size \(attachment.size); it must be 0...\(limits.uploadSize)")
            }
        }
    }

    /// Stores the message (in the store first: nothing changes when that fails) and returns it.
    private mutating func append(text: String, attachments: [Attachment], clientID: UInt64?, from userID: Int64, toChat index: Int, at now: Duration) throws(ErrorReply) -> Message {
        let stamp = clock.stamp(at: now)
        let message = Message(id: lastMessageID + 1, chatID: chats[index].id, senderID: userID, clientID: clientID, text: text, sentAt: stamp, attachments: attachments)
        try commit(.message(message))
        lastMessageID = message.id
        chats[index].messages.append(message)
        chats[index].updatedAt = stamp
        if let member = chats[index].memberIndex(userID) {
            // The sender has read what they sent.
            chats[index].readUpTo[member] = message.id
            chats[index].readUpdatedAt[member] = stamp
        }
        statistics.messagesCreated += 1
        return message
    }
}
