import Foundation
import LowbandFixtures
import LowbandServer
import LowbandTestSupport
import LowbandWire
import Testing

/// Every command of the catalogue against a user who has no business with the data it names:
/// nothing is read, written, moved or leaked, and the refusal says so with the right code.
@Suite struct AuthorisationTests {
    /// A server with the outsider logged in, and the chat they are not in.
    private struct Setup {
        var server = CoreHarness()
        let chat: MessengerWorld.ChatHistory
        let member: Int64
        let outsider: Int64
        let memberSession: SessionID
        let outsiderSession: SessionID

        init() throws {
            let (chat, member, _, outsider) = try server.world.pairWithOutsider()
            self.chat = chat
            self.member = member
            self.outsider = outsider
            memberSession = server.open()
            outsiderSession = server.open()
            try server.login(memberSession, as: member)
            try server.login(outsiderSession, as: outsider)
        }

        /// Every chat the outsider is not a member of.
        var foreignChats: [MessengerWorld.ChatHistory] {
            server.world.chats.filter { !$0.memberIDs.contains(outsider) }
        }
    }

    /// Each command a client may send, and that the table below covers.
    @Test func theTableCoversEveryCommandOfTheCatalogue() {
        let covered: Set<Command> = [.ping, .login, .history, .sendMessage, .markRead, .uploadChunk, .uploadStatus,
                                     .pushNewMessage, .pushContactChanged, .pushReadReceipt]
        #expect(Set(Command.catalogue.keys) == covered, "a new command needs its authorisation test here")
    }

    @Test func pingAnswersTheTimeAndNothingAboutAnyone() throws {
        var setup = try Setup()
        let (pong, frame, pushes) = try setup.server.call(Ping(clientTime: 5), on: setup.outsiderSession)
        #expect(pong.serverTime == setup.server.core.serverTime(at: setup.server.now))
        #expect(pushes.isEmpty && frame.payload.count < 32, "a pong carries the time only")
    }

    @Test func aTokenYieldsItsOwnUserAndNoOneElse() throws {
        var server = CoreHarness()
        for user in server.world.users {
            let session = server.open()
            let (reply, _, _) = try server.login(session, as: user.id)
            #expect(reply.userID == user.id)
            let ownChats = Set(server.world.chats(of: user.id).map(\.id))
            #expect(Set(reply.chats.map(\.id)) == ownChats, "user \(user.id) sees exactly their chats")
            #expect(reply.chats.allSatisfy { $0.memberIDs.contains(user.id) && ($0.lastMessage.map { $0.chatID == $0.chatID } ?? true) })
            #expect(Set(reply.contacts.map(\.id)).isSubset(of: Set(user.contactIDs)), "user \(user.id) sees only their address book")
            #expect(server.core.userID(of: session) == user.id)
        }
    }

    @Test func aTokenThatIsAlmostRightIsNoTokenAtAll() throws {
        var setup = try Setup()
        let token = try #require(setup.server.core.token(of: setup.member))
        let near = [
            String(token.dropLast()), token + "0", token.uppercased(), " " + token, token + "\n",
            token.replacingOccurrences(of: "lb\(setup.member)-", with: "lb\(setup.outsider)-"), "",
        ]
        let session = setup.server.open()
        for candidate in near where candidate != token {
            let error = try setup.server.refuse(LoginRequest(token: candidate, lastSync: 0), on: session)
            #expect(error.code == .unauthorized, "\(candidate.debugDescription)")
            #expect(!error.text.contains(token), "the refusal never echoes a real token")
        }
        #expect(setup.server.core.userID(of: session) == nil)
        // A failed login on a logged-in session leaves it who it was: no one else.
        _ = try setup.server.refuse(LoginRequest(token: String(token.dropLast()), lastSync: 0), on: setup.outsiderSession)
        #expect(setup.server.core.userID(of: setup.outsiderSession) == setup.outsider)
    }

    @Test func historyOfAForeignChatIsRefusedWhateverTheAnchor() throws {
        var setup = try Setup()
        for chat in setup.foreignChats {
            for (anchor, direction) in [(nil, HistoryRequest.Direction.older), (nil, .newer), (chat.messages.last?.id, .older), (Int64(0), .newer), (Int64.max, .older)] {
                let error = try setup.server.refuse(HistoryRequest(chatID: chat.id, anchor: anchor, direction: direction, count: 200), on: setup.outsiderSession)
                #expect(error.code == .forbidden)
                #expect(chat.messages.allSatisfy { !error.text.contains($0.text) || $0.text.count < 8 }, "no message text in the refusal")
            }
        }
        let unknown = try setup.server.refuse(HistoryRequest(chatID: Int64(setup.server.core.chatCount + 1), anchor: nil, direction: .older, count: 1), on: setup.outsiderSession)
        #expect(unknown.code == .notFound)
    }

    @Test func sendingIntoAForeignChatStoresAndPushesNothing() throws {
        var setup = try Setup()
        for (index, chat) in setup.foreignChats.enumerated() {
            let error = try setup.server.refuse(SendMessageRequest(chatID: chat.id, clientID: UInt64(1000 + index), text: "let me in"), on: setup.outsiderSession)
            #expect(error.code == .forbidden)
            #expect(setup.server.core.messages(in: chat.id)?.count == chat.messages.count)
            #expect(setup.server.core.message(from: setup.outsider, clientID: UInt64(1000 + index)) == nil)
        }
    }

    /// A client id the user already used in one of their own chats does not carry a send into a
    /// chat they are not in: the retry shortcut comes after the membership check.
    @Test func aReusedClientIDDoesNotGetPastTheMembershipCheck() throws {
        var setup = try Setup()
        let own = try #require(setup.server.world.chats(of: setup.outsider).first)
        _ = try setup.server.call(SendMessageRequest(chatID: own.id, clientID: 77, text: "mine"), on: setup.outsiderSession)
        let error = try setup.server.refuse(SendMessageRequest(chatID: setup.chat.id, clientID: 77, text: "mine"), on: setup.outsiderSession)
        #expect(error.code == .forbidden)
        // The same client id into another of their own chats is not a retry of the first send.
        if let other = setup.server.world.chats(of: setup.outsider).dropFirst().first {
            let mismatch = try setup.server.refuse(SendMessageRequest(chatID: other.id, clientID: 77, text: "mine"), on: setup.outsiderSession)
            #expect(mismatch.code == .badRequest)
        }
        // A true retry still gets the first reply.
        let (retry, _, pushes) = try setup.server.call(SendMessageRequest(chatID: own.id, clientID: 77, text: "mine"), on: setup.outsiderSession)
        #expect(retry.message.chatID == own.id && pushes.isEmpty)
    }

    @Test func markingAForeignChatReadMovesNoOnesPosition() throws {
        var setup = try Setup()
        for chat in setup.foreignChats {
            let before = chat.memberIDs.map { setup.server.core.readPosition(of: $0, in: chat.id) }
            let error = try setup.server.refuse(MarkReadRequest(chatID: chat.id, messageID: chat.messages.last?.id ?? 1), on: setup.outsiderSession)
            #expect(error.code == .forbidden)
            #expect(chat.memberIDs.map { setup.server.core.readPosition(of: $0, in: chat.id) } == before)
        }
        // A message of a foreign chat named in one's own chat is not found there.
        let own = try #require(setup.server.world.chats(of: setup.outsider).first)
        let foreignMessage = try #require(setup.chat.messages.last)
        #expect(try setup.server.refuse(MarkReadRequest(chatID: own.id, messageID: foreignMessage.id), on: setup.outsiderSession).code == .notFound)
    }

    @Test func attachingIntoAForeignChatIsRefusedLikeAnyMessage() throws {
        var setup = try Setup()
        let data = Data((0 ..< 300).map { UInt8($0 % 251) })
        let (done, _, _) = try setup.server.call(UploadChunkRequest(uploadID: "a", offset: 0, totalSize: 300, data: data), on: setup.outsiderSession)
        let url = try #require(done.url)
        let attachment = Attachment(id: "a", kind: .photo, size: 300, url: url)
        let error = try setup.server.refuse(SendMessageRequest(chatID: setup.chat.id, clientID: 5, text: "", attachments: [attachment]), on: setup.outsiderSession)
        #expect(error.code == .forbidden)
        #expect(setup.server.core.messages(in: setup.chat.id)?.count == setup.chat.messages.count)
    }

    @Test func anAttachmentNamingAnotherUsersUploadIsRefused() throws {
        var setup = try Setup()
        let data = Data((0 ..< 300).map { UInt8($0 % 251) })
        let (theirs, _, _) = try setup.server.call(UploadChunkRequest(uploadID: "secret", offset: 0, totalSize: 300, data: data), on: setup.outsiderSession)
        let theirURL = try #require(theirs.url)
        // The member names the outsider's finished upload in a chat the member belongs to.
        let stolen = Attachment(id: "secret", kind: .photo, size: 300, url: theirURL)
        let error = try setup.server.refuse(SendMessageRequest(chatID: setup.chat.id, clientID: 9, text: "", attachments: [stolen]), on: setup.memberSession)
        #expect(error.code == .forbidden)
        #expect(error.text.contains("an upload of another user"), "\(error.text)")
        // A URL of the member's own that names no finished upload is refused too.
        let invented = Attachment(id: "x", kind: .photo, size: 300, url: "\(ServerCore.uploadURLPrefix)\(setup.member)/999")
        #expect(try setup.server.refuse(SendMessageRequest(chatID: setup.chat.id, clientID: 10, text: "", attachments: [invented]), on: setup.memberSession).code == .badRequest)
        #expect(setup.server.core.messages(in: setup.chat.id)?.count == setup.chat.messages.count)
        // Their own finished upload, and a URL elsewhere, go through.
        let (mine, _, _) = try setup.server.call(UploadChunkRequest(uploadID: "mine", offset: 0, totalSize: 300, data: data), on: setup.memberSession)
        let own = Attachment(id: "mine", kind: .photo, size: 300, url: try #require(mine.url))
        let elsewhere = Attachment(id: "link", kind: .photo, size: 10, url: "https://example.org/cat.jpg")
        _ = try setup.server.call(SendMessageRequest(chatID: setup.chat.id, clientID: 11, text: "", attachments: [own, elsewhere]), on: setup.memberSession)
        #expect(setup.server.core.messages(in: setup.chat.id)?.count == setup.chat.messages.count + 1)
    }

    @Test func anotherUsersUploadCannotBeResumedReadOrCompleted() throws {
        var setup = try Setup()
        let file = Data((0 ..< 1000).map { UInt8($0 % 251) })
        _ = try setup.server.call(UploadChunkRequest(uploadID: "photo", offset: 0, totalSize: 1000, data: file[0 ..< 400]), on: setup.memberSession)
        // The outsider continues "photo" at the member's offset: that is a new upload of theirs.
        let (resumed, _, _) = try setup.server.call(UploadChunkRequest(uploadID: "photo", offset: 400, totalSize: 1000, data: file[400...]), on: setup.outsiderSession)
        #expect(resumed.acknowledgedOffset == 0 && !resumed.complete && resumed.url == nil)
        let (status, _, _) = try setup.server.call(UploadStatusRequest(uploadID: "photo"), on: setup.outsiderSession)
        #expect(status.acknowledgedOffset == 0 && status.url == nil)
        #expect(setup.server.core.upload("photo", of: setup.member)?.data == Array(file[0 ..< 400]))
        #expect(setup.server.core.upload("photo", of: setup.outsider) == nil)
        // The member finishes theirs; the outsider still learns nothing of it.
        let (finished, _, _) = try setup.server.call(UploadChunkRequest(uploadID: "photo", offset: 400, totalSize: 1000, data: file[400...]), on: setup.memberSession)
        #expect(finished.complete)
        let (after, _, _) = try setup.server.call(UploadStatusRequest(uploadID: "photo"), on: setup.outsiderSession)
        #expect(after.acknowledgedOffset == 0 && after.url == nil)
    }

    @Test func pushesFromAClientAreDroppedWithoutEffect() throws {
        var setup = try Setup()
        let message = try #require(setup.chat.messages.last)
        let forged: [Frame] = [
            try Frame.push(NewMessagePush(message: message), sequence: 1),
            try Frame.push(ReadReceiptPush(chatID: setup.chat.id, readerID: setup.member, messageID: message.id, readAt: 0), sequence: 2),
            try Frame.push(ContactChangedPush(contact: try #require(setup.server.world.user(setup.member)).contact), sequence: 3),
        ]
        for frame in forged {
            #expect(setup.server.handle(frame, on: setup.outsiderSession).isEmpty, "\(frame.command)")
        }
        #expect(setup.server.core.messages(in: setup.chat.id)?.count == setup.chat.messages.count)
    }
}
