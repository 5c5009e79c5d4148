public import LowbandWire

extension ServerCore {
    /// Logs `session` in and returns what changed for the user since `lastSync`: settings (nil
    /// when unchanged), contacts and chats (each with its last message and the user's unread
    /// count), the sync point to pass as `lastSync` next time, and the wire dictionary the
    /// connection compresses with from now on (``chooseDictionary(offered:session:)``).
    mutating func login(_ request: LoginRequest, session: SessionID, at now: Duration) throws(ErrorReply) -> LoginReply {
        guard request.token.utf8.count <= configuration.limits.tokenBytes, let userID = userIDsByToken[request.token] else {
            throw ErrorReply(.unauthorized, "unknown token: log in with a token the server issued")
        }
        guard request.lastSync >= 0 else {
            throw ErrorReply(.badRequest, "lastSync \(request.lastSync) is negative: pass 0 or the serverTime of a previous login reply")
        }
        let dictionary = try chooseDictionary(offered: request.compressionDictionaries, session: session)
        let serverTime = clock.syncPoint(at: now)
        try commit(.syncPoint(serverTime))
        attach(session, to: userID)
        sessions[session]?.dictionary = dictionary
        var reply = changes(for: userID, since: request.lastSync, serverTime: serverTime)
        reply.compressionDictionary = dictionary?.wireValue
        return reply
    }

    /// What a login with `lastSync` would return for `userID` (no session is logged in).
    public func changes(for userID: Int64, since lastSync: ServerTime, serverTime: ServerTime) -> LoginReply {
        guard let user = user(userID) else {
            return LoginReply(userID: userID, serverTime: serverTime, settings: nil, contacts: [], chats: [])
        }
        let profile = user.profile
        let settings = profile.settings.updatedAt > lastSync ? profile.settings : nil
        let contacts = profile.contactIDs.compactMap { id -> Contact? in
            guard let contact = self.user(id)?.profile, contact.profileUpdatedAt > lastSync else { return nil }
            return contact.contact
        }
        var chats: [Chat] = []
        for chatID in user.chatIDs {
            let chat = self.chats[Int(chatID - 1)]
            guard let member = chat.memberIndex(userID) else { continue }
            let updatedAt = chat.updatedAt(member: member)
            guard updatedAt > lastSync else { continue }
            chats.append(Chat(
                id: chat.id, kind: chat.kind, title: title(of: chat, for: userID), memberIDs: chat.memberIDs,
                unreadCount: chat.unreadCount(member: member), lastMessage: chat.messages.last, updatedAt: updatedAt
            ))
        }
        // The chat list order: most recently changed first.
        chats.sort { $0.updatedAt != $1.updatedAt ? $0.updatedAt > $1.updatedAt : $0.id < $1.id }
        return LoginReply(userID: userID, serverTime: serverTime, settings: settings, contacts: contacts, chats: chats)
    }

    /// A group's title, or for a direct chat the other member's name.
    func title(of chat: ChatState, for userID: Int64) -> String {
        if let title = chat.title { return title }
        let other = chat.memberIDs.first { $0 != userID } ?? userID
        return user(other)?.profile.name ?? "Chat \(chat.id)"
    }
}
