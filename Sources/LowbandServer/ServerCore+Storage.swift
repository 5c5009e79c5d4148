import LowbandWire

extension ServerCore {
    /// A server whose data is `snapshot` (a seeded world's, or what `store` read back), writing
    /// every change to `store` and upload bytes to `uploadStorage`.
    ///
    /// The clock continues from ``ServerSnapshot/clock``: a restarted server's times follow the last one
    /// it handed out, whatever the scheduler reads.
    package init(
        configuration: ServerConfiguration, snapshot: ServerSnapshot,
        store: any ServerStore, uploadStorage: any UploadStorage
    ) {
        self.configuration = configuration
        self.store = store
        self.uploadStorage = uploadStorage
        clock = ServerClock(epoch: snapshot.clock)
        let count = snapshot.users.count
        var chatIDs = [[Int64]](repeating: [], count: count)
        var contactOf = [[Int64]](repeating: [], count: count)
        for chat in snapshot.chats {
            for member in chat.memberIDs { chatIDs[Int(member - 1)].append(chat.id) }
        }
        for user in snapshot.users {
            for contact in user.contactIDs { contactOf[Int(contact - 1)].append(user.id) }
        }
        users = snapshot.users.map { user in
            UserState(profile: user, chatIDs: chatIDs[Int(user.id - 1)], contactOf: contactOf[Int(user.id - 1)])
        }
        for user in snapshot.users { userIDsByToken[user.token] = user.id }
        chats = snapshot.chats
        for chat in snapshot.chats {
            for (index, message) in chat.messages.enumerated() {
                guard let clientID = message.clientID else { continue }
                sentMessages[ClientMessageKey(userID: message.senderID, clientID: clientID)] = MessageReference(chatID: chat.id, index: index)
            }
        }
        lastMessageID = snapshot.chats.lazy.compactMap { $0.messages.last?.id }.max() ?? 0
        lastUploadNumber = snapshot.uploads.lazy.map(\.number).max() ?? 0
        for record in snapshot.uploads {
            uploads[UploadKey(userID: record.userID, uploadID: record.uploadID)] = UploadState(record)
            storedUploadBytes += Int(record.acknowledgedOffset)
            if let url = record.url {
                // URLs end with the count of uploads finished so far: continue after the highest.
                uploadsStarted = max(uploadsStarted + 1, url.split(separator: "/").last.flatMap { Int($0) } ?? 0)
            } else {
                users[Int(record.userID - 1)].activeUploads += 1
            }
        }
    }

    /// The server's data now, as a store would hold it.
    package var snapshot: ServerSnapshot {
        let records = uploads.map { key, upload in upload.record(key) }.sorted {
            ($0.userID, $0.uploadID) < ($1.userID, $1.uploadID)
        }
        return ServerSnapshot(users: users.map(\.profile), chats: chats, uploads: records, clock: clock.issued)
    }

    /// Hands `change` to the store; a failure becomes a 500 for the request that caused it.
    func commit(_ change: ServerChange) throws(ErrorReply) {
        do {
            try store.commit(change)
        } catch {
            throw ErrorReply(.internalError, "the server could not store the change: \(error.message); nothing was changed, try again")
        }
    }
}
