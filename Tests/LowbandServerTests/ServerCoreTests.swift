import Foundation
import LowbandDeterminism
import LowbandFixtures
import LowbandServer
import LowbandTestSupport
import LowbandWire
import Testing

/// The server's logic without I/O: frames in, frames out, time moved by hand.
@Suite struct ServerCoreTests {
    // MARK: Login

    @Test func fullLoginHasEverythingAndADeltaLoginOnlyWhatChanged() throws {
        var server = CoreHarness(seed: 7, shape: MessengerWorld.Shape(users: 40, chatsPerUser: 15, messagesPerChat: 30))
        let user: Int64 = 1
        let session = server.open()
        let (full, fullBytes, fullPayload) = try server.login(session, as: user)
        let profile = try #require(server.world.user(user))
        #expect(full.settings == profile.settings)
        #expect(full.contacts.map(\.id) == profile.contactIDs)
        #expect(Set(full.chats.map(\.id)) == Set(server.world.chats(of: user).map(\.id)))
        #expect(full.chats.allSatisfy { $0.lastMessage != nil && $0.memberIDs.contains(user) })
        #expect(full.chats.map(\.updatedAt) == full.chats.map(\.updatedAt).sorted(by: >), "newest first, like a chat list")
        #expect(full.serverTime == MessengerFixtures.epoch)

        // A few changes: two messages in one chat, a contact's new status.
        server.now = .seconds(60)
        let chat = try #require(full.chats.first { $0.kind == .group })
        let writer = try #require(chat.memberIDs.first { $0 != user })
        _ = try server.core.post("Привет! 新年快乐 🎉", in: chat.id, from: writer, at: server.now)
        _ = try server.core.post("second", in: chat.id, from: writer, at: server.now)
        let contact = try #require(profile.contactIDs.last)
        _ = try server.core.updateStatus(of: contact, to: "В дороге", at: server.now)

        server.now = .seconds(120)
        let (delta, deltaBytes, deltaPayload) = try server.login(session, as: user, lastSync: full.serverTime)
        #expect(delta.settings == nil)
        #expect(delta.contacts.map(\.id) == [contact])
        #expect(delta.contacts.first?.status == "В дороге")
        #expect(delta.chats.map(\.id) == [chat.id])
        #expect(delta.chats.first?.lastMessage?.text == "second")
        #expect(delta.chats.first?.unreadCount == chat.unreadCount + 2)
        #expect(delta.serverTime == MessengerFixtures.epoch + 120_000)

        // Nothing changed since: an almost empty reply.
        let (empty, emptyBytes, _) = try server.login(session, as: user, lastSync: delta.serverTime)
        #expect(empty.chats.isEmpty && empty.contacts.isEmpty && empty.settings == nil)

        // Byte counts for seed 7: MessagePack payloads exactly, the wire (header + LZ4 where it pays)
        // roughly. Wire format v2 (positional arrays) took them from 11,756 and 322 in v1.
        #expect(fullPayload == 7_789, "full login payload")
        #expect(deltaPayload == 167, "delta login payload")
        #expect(fullBytes > 4_000, "full login: \(fullBytes) bytes")
        #expect(deltaBytes < 600, "delta login: \(deltaBytes) bytes")
        #expect(fullBytes > 10 * deltaBytes, "full \(fullBytes) vs delta \(deltaBytes) bytes")
        #expect(emptyBytes < 60, "nothing changed: \(emptyBytes) bytes")
    }

    @Test func theSameSeedGivesTheSameBytes() throws {
        func transcript(seed: UInt64) throws -> [[UInt8]] {
            var server = CoreHarness(seed: seed)
            let session = server.open()
            var frames = try server.send(LoginRequest(token: server.world.users[2].token, lastSync: 0), on: session).map(\.frame.payload)
            let chat = try #require(server.world.chats(of: 3).first)
            frames += try server.send(HistoryRequest(chatID: chat.id, anchor: nil, direction: .older, count: 30), on: session).map(\.frame.payload)
            return frames
        }
        #expect(try transcript(seed: 11) == transcript(seed: 11))
        #expect(try transcript(seed: 11) != transcript(seed: 12))
    }

    @Test func aChangeInTheMillisecondOfTheSyncPointIsNotMissed() throws {
        var server = CoreHarness()
        let (chat, reader, writer, _) = try server.world.pairWithOutsider()
        let session = server.open()
        let (full, _, _) = try server.login(session, as: reader)
        // Same scheduler instant as the login reply.
        let (message, _) = try server.core.post("same millisecond", in: chat.id, from: writer, at: server.now)
        #expect(message.sentAt > full.serverTime)
        let (delta, _, _) = try server.login(session, as: reader, lastSync: full.serverTime)
        #expect(delta.chats.map(\.id) == [chat.id])
        let (again, _, _) = try server.login(session, as: reader, lastSync: delta.serverTime)
        #expect(again.chats.isEmpty, "and it is not sent twice")
    }

    @Test func settingsChangedElsewhereComeWithTheNextDeltaLogin() throws {
        var server = CoreHarness()
        let session = server.open()
        let (full, _, _) = try server.login(session, as: 4)
        server.now = .milliseconds(5)
        try server.core.updateSettings(of: 4, at: server.now) { $0.theme = "dark-amoled" }
        let (delta, _, _) = try server.login(session, as: 4, lastSync: full.serverTime)
        #expect(delta.settings?.theme == "dark-amoled")
        #expect(delta.chats.isEmpty && delta.contacts.isEmpty)
    }

    @Test func unknownTokensAndBadSyncPointsAreRefused() throws {
        var server = CoreHarness()
        let session = server.open()
        #expect(try server.refuse(LoginRequest(token: "lb1-0000000000000000", lastSync: 0), on: session).code == .unauthorized)
        #expect(try server.refuse(LoginRequest(token: String(repeating: "x", count: 10_000), lastSync: 0), on: session).code == .unauthorized)
        #expect(try server.refuse(LoginRequest(token: server.world.users[0].token, lastSync: -5), on: session).code == .badRequest)
        #expect(server.core.userID(of: session) == nil)
    }

    // MARK: History

    @Test func historyPagesOlderUntilTheStartAndNewerUntilTheEnd() throws {
        var server = CoreHarness(shape: MessengerWorld.Shape(users: 6, chatsPerUser: 3, messagesPerChat: 47))
        let chat = try #require(server.world.chats.first)
        let all = chat.messages
        let session = server.open()
        try server.login(session, as: chat.memberIDs[0])

        var older: [Message] = []
        var anchor: Int64?
        var pages = 0
        while true {
            let (page, _, _) = try server.call(HistoryRequest(chatID: chat.id, anchor: anchor, direction: .older, count: 20), on: session)
            #expect(page.chatID == chat.id)
            #expect(page.messages.map(\.id) == page.messages.map(\.id).sorted(), "oldest first")
            older = page.messages + older
            pages += 1
            anchor = page.messages.first?.id
            if page.reachedEnd { break }
            #expect(page.messages.count == 20)
        }
        #expect(pages == 3)
        #expect(older == all)

        var newer: [Message] = []
        anchor = all[0].id
        while true {
            let (page, _, _) = try server.call(HistoryRequest(chatID: chat.id, anchor: anchor, direction: .newer, count: 20), on: session)
            newer += page.messages
            anchor = page.messages.last?.id ?? anchor
            if page.reachedEnd { break }
        }
        #expect(newer == Array(all.dropFirst()), "the anchor itself is not in the page")

        // Both ends: nothing older than the first, nothing newer than the last.
        let (start, _, _) = try server.call(HistoryRequest(chatID: chat.id, anchor: all[0].id, direction: .older, count: 5), on: session)
        #expect(start.messages.isEmpty && start.reachedEnd)
        let (end, _, _) = try server.call(HistoryRequest(chatID: chat.id, anchor: all.last!.id, direction: .newer, count: 5), on: session)
        #expect(end.messages.isEmpty && end.reachedEnd)
        let (newest, _, _) = try server.call(HistoryRequest(chatID: chat.id, anchor: nil, direction: .newer, count: 5), on: session)
        #expect(newest.messages.isEmpty && newest.reachedEnd)
        // An exact fit at the start reaches the end.
        let (exact, _, _) = try server.call(HistoryRequest(chatID: chat.id, anchor: all[5].id, direction: .older, count: 5), on: session)
        #expect(exact.messages == Array(all[0 ..< 5]) && exact.reachedEnd)
    }

    @Test func historyCountsOutOfRangeAreRefused() throws {
        var server = CoreHarness()
        let chat = try #require(server.world.chats.first)
        let session = server.open()
        try server.login(session, as: chat.memberIDs[0])
        for count in [0, -1, 201, Int.max] {
            let error = try server.refuse(HistoryRequest(chatID: chat.id, anchor: nil, direction: .older, count: count), on: session)
            #expect(error.code == .badRequest)
            #expect(error.text.contains("1...200"))
        }
        let (page, _, _) = try server.call(HistoryRequest(chatID: chat.id, anchor: nil, direction: .older, count: 200), on: session)
        #expect(page.messages.count == chat.messages.count)
    }

    @Test func aPageTooLargeForOneFrameIsShortenedAwayFromTheAnchor() throws {
        var limits = ServerLimits()
        limits.textBytes = 8192
        var server = CoreHarness(shape: MessengerWorld.Shape(users: 2, chatsPerUser: 1, messagesPerChat: 0), limits: limits)
        let chat = try #require(server.world.chats.first)
        let big = String(repeating: "ж", count: 4000)  // 8000 UTF-8 bytes: 200 of them are over 1 MiB
        for index in 0 ..< 300 {
            _ = try server.core.post("\(index) " + big.dropFirst(4), in: chat.id, from: chat.memberIDs[0], at: server.now)
        }
        let session = server.open()
        try server.login(session, as: chat.memberIDs[1])
        let all = try #require(server.core.messages(in: chat.id))
        let (page, frame, _) = try server.call(HistoryRequest(chatID: chat.id, anchor: nil, direction: .older, count: 200), on: session)
        #expect(frame.payload.count <= 1 << 20)
        #expect(page.messages.count < 200 && !page.reachedEnd)
        #expect(page.messages == Array(all.suffix(page.messages.count)), "the newest, next to the anchor, are kept")
    }

    // MARK: Sending

    @Test func aRetriedSendCreatesOneMessageAndGetsTheSameReply() throws {
        var server = CoreHarness()
        let (chat, sender, receiver, _) = try server.world.pairWithOutsider()
        let mine = server.open()
        let theirs = server.open()
        try server.login(mine, as: sender)
        try server.login(theirs, as: receiver)
        let before = try #require(server.core.messages(in: chat.id)).count
        let request = SendMessageRequest(chatID: chat.id, clientID: 0xDEAD_BEEF, text: "こんにちは 👋")
        let (first, firstFrame, firstPushes) = try server.call(request, on: mine)
        server.now = .seconds(3)
        let (retry, retryFrame, retryPushes) = try server.call(request, on: mine)
        #expect(retry == first)
        #expect(retryFrame.payload == firstFrame.payload, "byte for byte")
        #expect(firstPushes.map(\.session) == [theirs])
        #expect(retryPushes.isEmpty, "a retry pushes nothing")
        #expect(server.core.messages(in: chat.id)?.count == before + 1)
        #expect(first.message.clientID == 0xDEAD_BEEF && first.message.senderID == sender)
        #expect(first.message.id > server.world.chats.flatMap(\.messages).map(\.id).max()!)

        // From another session of the same user (a reconnect): still the same message.
        let again = server.open()
        try server.login(again, as: sender)
        let (fromElsewhere, _, _) = try server.call(request, on: again)
        #expect(fromElsewhere == first)
        // The same client id from another user is another message.
        let (other, _, _) = try server.call(SendMessageRequest(chatID: chat.id, clientID: 0xDEAD_BEEF, text: "mine"), on: theirs)
        #expect(other.message.id != first.message.id)
    }

    @Test func messagesAreCheckedBeforeTheyAreStored() throws {
        var server = CoreHarness()
        let (chat, sender, _, _) = try server.world.pairWithOutsider()
        let session = server.open()
        try server.login(session, as: sender)
        #expect(try server.refuse(SendMessageRequest(chatID: chat.id, clientID: 1, text: ""), on: session).code == .badRequest)
        #expect(try server.refuse(SendMessageRequest(chatID: chat.id, clientID: 2, text: String(repeating: "a", count: 4097)), on: session).code == .payloadTooLarge)
        let attachment = Attachment(id: "a", kind: .photo, size: 10, url: "https://cdn.example/a.jpg")
        #expect(try server.refuse(SendMessageRequest(chatID: chat.id, clientID: 3, text: "x", attachments: Array(repeating: attachment, count: 11)), on: session).code == .payloadTooLarge)
        #expect(try server.refuse(SendMessageRequest(chatID: 999_999, clientID: 4, text: "x"), on: session).code == .notFound)
        let (sent, _, _) = try server.call(SendMessageRequest(chatID: chat.id, clientID: 5, text: "", attachments: [attachment]), on: session)
        #expect(sent.message.attachments == [attachment])
    }

    // MARK: Authorisation

    @Test func requestsBeforeLoginAreUnauthorized() throws {
        var server = CoreHarness()
        let chat = try #require(server.world.chats.first)
        let session = server.open()
        let requests: [Frame] = [
            try Frame.request(Ping(clientTime: 1), sequence: 1),
            try Frame.request(HistoryRequest(chatID: chat.id, anchor: nil, direction: .older, count: 10), sequence: 2),
            try Frame.request(SendMessageRequest(chatID: chat.id, clientID: 1, text: "hi"), sequence: 3),
            try Frame.request(MarkReadRequest(chatID: chat.id, messageID: chat.messages[0].id), sequence: 4),
            try Frame.request(UploadStatusRequest(uploadID: "u"), sequence: 5),
            try Frame.request(UploadChunkRequest(uploadID: "u", offset: 0, totalSize: 3, data: Data([1, 2, 3])), sequence: 6),
        ]
        for request in requests {
            let error = try server.errorReply(to: request, on: session)
            #expect(error.code == .unauthorized, "\(request.command)")
        }
        #expect(server.core.messages(in: chat.id)?.count == chat.messages.count)
    }

    @Test func aSessionReadsAndWritesOnlyItsUsersChats() throws {
        var server = CoreHarness()
        let (chat, member, _, outsider) = try server.world.pairWithOutsider()
        let session = server.open()
        try server.login(session, as: outsider)
        let history = try server.refuse(HistoryRequest(chatID: chat.id, anchor: nil, direction: .older, count: 10), on: session)
        #expect(history.code == .forbidden)
        #expect(try server.refuse(SendMessageRequest(chatID: chat.id, clientID: 9, text: "let me in"), on: session).code == .forbidden)
        #expect(try server.refuse(MarkReadRequest(chatID: chat.id, messageID: chat.messages.last!.id), on: session).code == .forbidden)
        #expect(server.core.messages(in: chat.id)?.count == chat.messages.count)
        #expect(server.core.readPosition(of: member, in: chat.id) == chat.readUpTo[0])
        // And a chat of its own works.
        let own = try #require(server.world.chats(of: outsider).first)
        let (page, _, _) = try server.call(HistoryRequest(chatID: own.id, anchor: nil, direction: .older, count: 10), on: session)
        #expect(page.messages == Array(own.messages.suffix(10)))
        // Logging in as someone else moves the session to that user.
        try server.login(session, as: member)
        _ = try server.call(HistoryRequest(chatID: chat.id, anchor: nil, direction: .older, count: 10), on: session)
        #expect(server.core.sessions(of: outsider).isEmpty)
    }

    // MARK: Pushes

    @Test func aNewMessageIsPushedToTheOtherMembersAndTheSendersOtherSessionsOnly() throws {
        var server = CoreHarness()
        let (chat, sender, receiver, outsider) = try server.world.pairWithOutsider()
        let senderPhone = server.open()
        let senderLaptop = server.open()
        let receiverPhone = server.open()
        let outsiderPhone = server.open()
        let notLoggedIn = server.open()
        try server.login(senderPhone, as: sender)
        try server.login(senderLaptop, as: sender)
        try server.login(receiverPhone, as: receiver)
        try server.login(outsiderPhone, as: outsider)
        let others = chat.memberIDs.filter { $0 != sender && $0 != receiver }

        let (reply, _, pushes) = try server.call(SendMessageRequest(chatID: chat.id, clientID: 77, text: "Кто заберёт детей? 🚌"), on: senderPhone)
        #expect(pushes.map(\.session) == [senderLaptop, receiverPhone].sorted() || others.isEmpty == false)
        #expect(Set(pushes.map(\.session)) == [senderLaptop, receiverPhone])
        for push in pushes {
            let message = try decodePush(NewMessagePush.self, push.frame).message
            #expect(message == reply.message, "the push carries the full message")
        }
        #expect(!pushes.contains { $0.session == outsiderPhone || $0.session == notLoggedIn || $0.session == senderPhone })

        // Push sequence numbers count per session.
        let (_, _, more) = try server.call(SendMessageRequest(chatID: chat.id, clientID: 78, text: "ok"), on: senderPhone)
        #expect(more.first { $0.session == receiverPhone }?.frame.sequence == 2)

        // A closed session gets nothing.
        server.core.closeSession(receiverPhone)
        let (_, _, afterClose) = try server.call(SendMessageRequest(chatID: chat.id, clientID: 79, text: "?"), on: senderPhone)
        #expect(afterClose.map(\.session) == [senderLaptop])
    }

    @Test func aPostFromAnotherUserReachesEveryMemberSession() throws {
        var server = CoreHarness()
        let (chat, reader, writer, outsider) = try server.world.pairWithOutsider()
        let readerSession = server.open()
        let writerSession = server.open()
        let outsiderSession = server.open()
        try server.login(readerSession, as: reader)
        try server.login(writerSession, as: writer)
        try server.login(outsiderSession, as: outsider)
        let (message, outbound) = try server.core.post("from the web client", in: chat.id, from: writer, at: server.now)
        #expect(Set(outbound.map(\.session)) == [readerSession, writerSession])
        #expect(try outbound.allSatisfy { try decodePush(NewMessagePush.self, $0.frame).message == message })
        #expect(throws: ErrorReply.self) { try server.core.post("no", in: chat.id, from: outsider, at: server.now) }
    }

    @Test func markingReadAcksAndSendsAReceiptToTheOtherSessions() throws {
        var server = CoreHarness()
        let (chat, reader, writer, outsider) = try server.world.pairWithOutsider()
        let readerPhone = server.open()
        let readerLaptop = server.open()
        let writerPhone = server.open()
        let outsiderPhone = server.open()
        try server.login(readerPhone, as: reader)
        try server.login(readerLaptop, as: reader)
        try server.login(writerPhone, as: writer)
        try server.login(outsiderPhone, as: outsider)
        server.now = .seconds(2)
        let (message, _) = try server.core.post("read me", in: chat.id, from: writer, at: server.now)
        let (_, _, receipts) = try server.call(MarkReadRequest(chatID: chat.id, messageID: message.id), on: readerPhone)
        #expect(Set(receipts.map(\.session)) == [readerLaptop, writerPhone])
        let receipt = try decodePush(ReadReceiptPush.self, try #require(receipts.first).frame)
        #expect(receipt.chatID == chat.id && receipt.readerID == reader && receipt.messageID == message.id)
        #expect(receipt.readAt > message.sentAt)
        #expect(server.core.readPosition(of: reader, in: chat.id) == message.id)
        // Reading an older message again moves nothing and tells no one.
        let (_, _, none) = try server.call(MarkReadRequest(chatID: chat.id, messageID: chat.messages[0].id), on: readerPhone)
        #expect(none.isEmpty)
        #expect(server.core.readPosition(of: reader, in: chat.id) == message.id)
        #expect(try server.refuse(MarkReadRequest(chatID: chat.id, messageID: 987_654_321), on: readerPhone).code == .notFound)
        // The unread count in the reader's next login is 0.
        let (login, _, _) = try server.login(readerPhone, as: reader)
        #expect(login.chats.first { $0.id == chat.id }?.unreadCount == 0)
    }

    @Test func aStatusChangeIsPushedToTheUsersWhoHaveTheContact() throws {
        var server = CoreHarness(shape: MessengerWorld.Shape(users: 60, chatsPerUser: 2, messagesPerChat: 5))
        let changed: Int64 = 3
        let watchers = server.world.users.filter { $0.contactIDs.contains(changed) }.map(\.id)
        let stranger = try #require(server.world.users.first { !$0.contactIDs.contains(changed) && $0.id != changed }).id
        var sessions: [Int64: SessionID] = [:]
        for user in watchers + [stranger, changed] {
            let session = server.open()
            try server.login(session, as: user)
            sessions[user] = session
        }
        let outbound = try server.core.updateStatus(of: changed, to: "🏖 on vacation", at: .seconds(1))
        #expect(outbound.map(\.session) == watchers.map { sessions[$0]! })
        let push = try decodePush(ContactChangedPush.self, try #require(outbound.first).frame)
        #expect(push.contact.id == changed && push.contact.status == "🏖 on vacation")
    }

    // MARK: Uploads

    @Test func anUploadResumesFromTheAcknowledgedOffset() throws {
        var server = CoreHarness()
        let session = server.open()
        try server.login(session, as: 2)
        var generator = SeededGenerator(seed: 5)
        let file = (0 ..< 250_000).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        func piece(_ range: Range<Int>) -> UploadChunkRequest {
            UploadChunkRequest(uploadID: "photo-1", offset: Int64(range.lowerBound), totalSize: Int64(file.count), data: Data(file[range]))
        }
        var (reply, _, _) = try server.call(piece(0 ..< 100_000), on: session)
        #expect(reply.acknowledgedOffset == 100_000 && !reply.complete && reply.url == nil)
        // A piece past the acknowledged offset (one went missing) is not stored.
        (reply, _, _) = try server.call(piece(150_000 ..< 250_000), on: session)
        #expect(reply.acknowledgedOffset == 100_000)
        // A piece sent twice (the reply was lost) is not stored twice.
        (reply, _, _) = try server.call(piece(0 ..< 100_000), on: session)
        #expect(reply.acknowledgedOffset == 100_000)

        // The connection drops; a new session of the same user asks where to resume.
        server.core.closeSession(session)
        let resumed = server.open()
        try server.login(resumed, as: 2)
        let (status, _, _) = try server.call(UploadStatusRequest(uploadID: "photo-1"), on: resumed)
        #expect(status.acknowledgedOffset == 100_000)
        (reply, _, _) = try server.call(piece(Int(status.acknowledgedOffset) ..< 250_000), on: resumed)
        #expect(reply.acknowledgedOffset == 250_000 && reply.complete)
        let url = try #require(reply.url)
        #expect(server.core.upload("photo-1", of: 2)?.data == file)
        // Asking again after completion answers the same.
        let (done, _, _) = try server.call(UploadStatusRequest(uploadID: "photo-1"), on: resumed)
        #expect(done.complete && done.url == url && done.acknowledgedOffset == 250_000)
        // Another user's upload with the same id is another upload.
        let other = server.open()
        try server.login(other, as: 3)
        let (unknown, _, _) = try server.call(UploadStatusRequest(uploadID: "photo-1"), on: other)
        #expect(unknown.acknowledgedOffset == 0 && !unknown.complete)
        let (late, _, _) = try server.call(UploadChunkRequest(uploadID: "new", offset: 500, totalSize: 1000, data: Data([1])), on: other)
        #expect(late.acknowledgedOffset == 0, "nothing held yet: start from 0")
        #expect(server.core.upload("new", of: 3) == nil)
    }

    @Test func uploadSizesAndConcurrencyAreCapped() throws {
        var limits = ServerLimits()
        limits.uploadSize = 1_000
        limits.uploadPieceSize = 100
        limits.concurrentUploadsPerUser = 2
        var server = CoreHarness(limits: limits)
        let session = server.open()
        try server.login(session, as: 1)
        func chunk(_ id: String, total: Int64, bytes: Int, offset: Int64 = 0) -> UploadChunkRequest {
            UploadChunkRequest(uploadID: id, offset: offset, totalSize: total, data: Data(repeating: 7, count: bytes))
        }
        #expect(try server.refuse(chunk("big", total: 1_001, bytes: 10), on: session).code == .payloadTooLarge)
        #expect(try server.refuse(chunk("wide", total: 500, bytes: 101), on: session).code == .payloadTooLarge)
        #expect(try server.refuse(chunk("", total: 10, bytes: 1), on: session).code == .badRequest)
        #expect(try server.refuse(chunk(String(repeating: "u", count: 129), total: 10, bytes: 1), on: session).code == .badRequest)
        #expect(try server.refuse(chunk("zero", total: 0, bytes: 0), on: session).code == .badRequest)
        _ = try server.call(chunk("a", total: 300, bytes: 100), on: session)
        _ = try server.call(chunk("b", total: 300, bytes: 100), on: session)
        #expect(try server.refuse(chunk("c", total: 300, bytes: 100), on: session).code == .tooManyRequests)
        #expect(try server.refuse(chunk("a", total: 200, bytes: 100, offset: 100), on: session).code == .badRequest, "another size is another file")
        #expect(try server.refuse(chunk("a", total: 300, bytes: 100, offset: 100).with(total: 150), on: session).code == .badRequest)
        // Finishing one frees a slot.
        _ = try server.call(chunk("a", total: 300, bytes: 100, offset: 100), on: session)
        let (finished, _, _) = try server.call(chunk("a", total: 300, bytes: 100, offset: 200), on: session)
        #expect(finished.complete)
        _ = try server.call(chunk("c", total: 300, bytes: 100), on: session)
    }

    // MARK: Bad requests

    @Test func badRequestsAreAnsweredAndTheSessionKeepsWorking() throws {
        var server = CoreHarness()
        let session = server.open()
        let bystander = server.open()
        try server.login(session, as: 1)
        try server.login(bystander, as: 2)
        let chat = try #require(server.world.chats(of: 1).first)

        let garbage = Frame(command: .history, sequence: 40, payload: [0xC1, 0xFF, 0x00])
        let undecodable = try server.errorReply(to: garbage, on: session)
        #expect(undecodable.code == .badRequest && undecodable.text.contains("history"))

        let wrongShape = try Frame.request(Ping(clientTime: 3), sequence: 41).with(command: .sendMessage)
        #expect(try server.errorReply(to: wrongShape, on: session).code == .badRequest)

        var response = try Frame.request(Ping(clientTime: 3), sequence: 42)
        response.flags = .response
        #expect(try server.errorReply(to: response, on: session).code == .badRequest)

        let unknown = Frame(command: Command(rawValue: 0x00FE), sequence: 43, payload: [0x80])
        #expect(try server.errorReply(to: unknown, on: session).code == .unsupportedCommand)

        let push = try Frame.push(NewMessagePush(message: chat.messages[0]), sequence: 44)
        #expect(server.handle(push, on: session).isEmpty, "a push from a client cannot be answered: dropped")
        #expect(server.core.statistics.ignoredFrames == 1)

        #expect(try server.refuse(HistoryRequest(chatID: -3, anchor: nil, direction: .older, count: 1), on: session).code == .notFound)

        // Still serving this session and the others.
        server.now = .milliseconds(1_234)
        let (pong, _, _) = try server.call(Ping(clientTime: 0), on: session)
        #expect(pong.serverTime == MessengerFixtures.epoch + 1_234)
        _ = try server.call(SendMessageRequest(chatID: chat.id, clientID: 1, text: "still here"), on: session)
        _ = try server.call(Ping(clientTime: 0), on: bystander)
        #expect(server.core.statistics.errorReplies == 5)
    }

    @Test func unknownSessionsGetNothing() throws {
        var server = CoreHarness()
        let ghost = SessionID(rawValue: 999)
        #expect(try server.send(Ping(clientTime: 0), on: ghost).isEmpty)
    }
}

extension Frame {
    func with(command: Command) -> Frame {
        var copy = self
        copy.command = command
        return copy
    }
}

extension UploadChunkRequest {
    func with(total: Int64) -> UploadChunkRequest {
        var copy = self
        copy.totalSize = total
        return copy
    }
}
