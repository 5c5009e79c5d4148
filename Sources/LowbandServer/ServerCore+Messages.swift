public import LowbandWire

extension ServerCore {
    /// Stores a message from a session (idempotent on the user's `clientID`) and pushes it to
    /// every session of the chat's members but the one it came from.
    mutating func send(_ request: SendMessageRequest, userID: Int64, session: SessionID, at now: Duration) throws(ErrorReply) -> (Message, [Outbound]) {
        try store(
            MessageDraft(text: request.text, attachments: request.attachments, clientID: request.clientID, chatID: request.chatID, senderID: userID),
            excluding: session, at: now)
    }

    /// Adds a message to a chat as if `userID` had sent it from a device with no session here,
    /// and returns it with the pushes to send: every logged-in session of every member gets it,
    /// the sender's own sessions included. For tests and scenarios ("another user writes").
    ///
    /// It takes the path a `sendMessage` request takes: the same checks, and a `clientID` the
    /// user already used (here or from a session) answers with that message and pushes nothing.
    ///
    /// - Throws: `LowbandWire/ErrorReply` 404 for an unknown chat, 403 when `userID` is not a
    ///   member, 400/413 for text or attachments the wire would refuse, 400 for a `clientID`
    ///   the user already used in another chat.
    public mutating func post(
        _ text: String, attachments: [Attachment] = [], clientID: UInt64? = nil, in chatID: Int64, from userID: Int64, at now: Duration
    ) throws(ErrorReply) -> (message: Message, outbound: [Outbound]) {
        let (message, outbound) = try store(
            MessageDraft(text: text, attachments: attachments, clientID: clientID, chatID: chatID, senderID: userID),
            excluding: nil, at: now)
        statistics.pushes += outbound.count
        return (message, outbound)
    }

    /// The one path of a new message, whichever way it came: membership, then idempotency on
    /// the sender's client id, then validation, append and fan-out.
    ///
    /// Membership comes first, so a client id used in one chat cannot carry a message into a
    /// chat the sender is not in. A retry (the same client id in the same chat) answers with
    /// the stored message and no pushes; the same client id in another chat is refused.
    private mutating func store(_ draft: MessageDraft, excluding session: SessionID?, at now: Duration) throws(ErrorReply) -> (Message, [Outbound]) {
        let (index, _) = try memberChat(draft.chatID, userID: draft.senderID)
        let key = draft.clientID.map { ClientMessageKey(userID: draft.senderID, clientID: $0) }
        if let key, let sent = sentMessages[key] {
            guard sent.chatID == draft.chatID else {
                throw ErrorReply(.badRequest, "client id \(key.clientID) already names a message in chat \(sent.chatID): a retry names the same chat; a new message needs a new client id")
            }
            return (chats[Int(sent.chatID - 1)].messages[sent.index], [])
        }
        try validate(text: draft.text, attachments: draft.attachments)
        try checkUploads(draft.attachments, senderID: draft.senderID)
        let message = try append(text: draft.text, attachments: draft.attachments, clientID: draft.clientID, from: draft.senderID, toChat: index, at: now)
        if let key {
            sentMessages[key] = MessageReference(chatID: message.chatID, index: chats[index].messages.count - 1)
        }
        return (message, pushes(NewMessagePush(message: message), to: chats[index].memberIDs, excluding: session))
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

    /// An attachment whose URL is one this server hands out for uploads must name a finished
    /// upload of the sender's own: naming another user's upload would publish a file its owner
    /// never attached (403), and a URL of ours that names no upload of the sender is refused
    /// (400). URLs elsewhere are the client's business.
    private func checkUploads(_ attachments: [Attachment], senderID: Int64) throws(ErrorReply) {
        for attachment in attachments where attachment.url.hasPrefix(Self.uploadURLPrefix) {
            let owner = attachment.url.dropFirst(Self.uploadURLPrefix.count).prefix { $0 != "/" }
            guard owner == String(senderID) else {
                throw ErrorReply(.forbidden, "attachment \(attachment.id) names \(attachment.url), an upload of another user; attach your own uploads")
            }
            guard uploads.contains(where: { $0.key.userID == senderID && $0.value.url == attachment.url }) else {
                throw ErrorReply(.badRequest, "attachment \(attachment.id) names \(attachment.url), which is no finished upload of yours; finish the upload and attach the URL its reply gave")
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
