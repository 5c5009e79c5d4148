import LowbandFixtures
import LowbandServer
import LowbandTestSupport
import LowbandWire
import Testing

/// A message comes in two ways — a session's `sendMessage` request and ``ServerCore/post`` for
/// "another user writes" — and both take one path: the same checks, the same answer to a retried
/// client id, one stored message and its pushes.
@Suite struct MessagePathTests {
    /// A user in at least two chats, a session logged in as them, and an outsider of the first.
    private struct Setup {
        var server = CoreHarness()
        let user: Int64
        let first: MessengerWorld.ChatHistory
        let second: MessengerWorld.ChatHistory
        let session: SessionID

        init() throws {
            let world = server.world
            let user = try #require(world.users.first { world.chats(of: $0.id).count >= 2 }).id
            let chats = world.chats(of: user)
            self.user = user
            first = chats[0]
            second = chats[1]
            session = server.open()
            try server.login(session, as: user)
        }

        func count(_ chat: MessengerWorld.ChatHistory) -> Int? {
            server.core.messages(in: chat.id)?.count
        }

        mutating func post(_ text: String, attachments: [LowbandWire.Attachment] = [], clientID: UInt64?, in chatID: Int64, from userID: Int64? = nil) throws(ErrorReply) -> (message: Message, outbound: [Outbound]) {
            try server.core.post(text, attachments: attachments, clientID: clientID, in: chatID, from: userID ?? user, at: server.now)
        }
    }

    @Test func aClientIDPostedTwiceIsOneMessageAndTheSameAnswer() throws {
        var setup = try Setup()
        let before = setup.count(setup.first)
        let (message, outbound) = try setup.post("once", clientID: 41, in: setup.first.id)
        #expect(outbound.map(\.session) == [setup.session], "a post reaches the poster's own sessions too")
        setup.server.now = .seconds(5)
        let (again, againOutbound) = try setup.post("once", clientID: 41, in: setup.first.id)
        #expect(again == message)
        #expect(againOutbound.isEmpty, "a retry pushes nothing")
        #expect(setup.count(setup.first) == (before ?? 0) + 1)
        #expect(setup.server.core.message(from: setup.user, clientID: 41) == message)
    }

    @Test func theEntryPointsShareOneTableOfClientIDs() throws {
        var setup = try Setup()
        let before = setup.count(setup.first)
        // Posted first, then sent by a session of the same user: the send is a retry.
        let (posted, _) = try setup.post("from the web", clientID: 7, in: setup.first.id)
        let (sentAfter, _, sentPushes) = try setup.server.call(SendMessageRequest(chatID: setup.first.id, clientID: 7, text: "from the web"), on: setup.session)
        #expect(sentAfter.message == posted)
        #expect(sentPushes.isEmpty)
        // Sent first, then posted: the post is a retry.
        let (sent, _, _) = try setup.server.call(SendMessageRequest(chatID: setup.first.id, clientID: 8, text: "from the phone"), on: setup.session)
        let (postedAfter, postedPushes) = try setup.post("from the phone", clientID: 8, in: setup.first.id)
        #expect(postedAfter == sent.message)
        #expect(postedPushes.isEmpty)
        #expect(setup.count(setup.first) == (before ?? 0) + 2)
    }

    @Test func aClientIDReusedInAnotherChatIsRefusedByBothEntryPoints() throws {
        var setup = try Setup()
        let (original, _) = try setup.post("first chat", clientID: 99, in: setup.first.id)
        let before = setup.count(setup.second)
        let postRefused = #expect(throws: ErrorReply.self) { try setup.post("second chat", clientID: 99, in: setup.second.id) }
        #expect(postRefused?.code == .badRequest, "a post with that id is refused too, not answered with the first chat's message")
        let refused = try setup.server.refuse(SendMessageRequest(chatID: setup.second.id, clientID: 99, text: "second chat"), on: setup.session)
        #expect(refused.code == .badRequest)
        #expect(refused.text.contains("chat \(setup.first.id)"), "names the chat the id belongs to: \(refused.text)")
        #expect(setup.count(setup.second) == before)
        #expect(setup.server.core.message(from: setup.user, clientID: 99) == original)
        // An unknown chat is unknown, whatever the client id.
        let unknown = #expect(throws: ErrorReply.self) { try setup.post("nowhere", clientID: 99, in: 999_999) }
        #expect(unknown?.code == .notFound)
    }

    @Test func bothEntryPointsRefuseTheSameMessagesWithTheSameCode() throws {
        var setup = try Setup()
        let outsider = try #require(setup.server.world.users.first { !setup.first.memberIDs.contains($0.id) }).id
        let photo = LowbandWire.Attachment(id: "a", kind: .photo, size: 10, url: "https://cdn.example/a.jpg")
        let cases: [(name: String, text: String, attachments: [LowbandWire.Attachment], chatID: Int64, code: ErrorReply.Code)] = [
            ("empty", "", [], setup.first.id, .badRequest),
            ("text over the limit", String(repeating: "a", count: 4097), [], setup.first.id, .payloadTooLarge),
            ("too many attachments", "x", Array(repeating: photo, count: 11), setup.first.id, .payloadTooLarge),
            ("attachment without id", "x", [LowbandWire.Attachment(id: "", kind: .photo, size: 1, url: "u")], setup.first.id, .badRequest),
            ("negative size", "x", [LowbandWire.Attachment(id: "n", kind: .photo, size: -1, url: "u")], setup.first.id, .badRequest),
            ("unknown chat", "x", [], 999_999, .notFound),
        ]
        for (index, bad) in cases.enumerated() {
            let clientID = UInt64(500 + index)
            var posted: ErrorReply.Code?
            do { _ = try setup.post(bad.text, attachments: bad.attachments, clientID: clientID, in: bad.chatID) } catch { posted = error.code }
            let sent = try setup.server.refuse(SendMessageRequest(chatID: bad.chatID, clientID: clientID, text: bad.text, attachments: bad.attachments), on: setup.session)
            #expect(posted == bad.code, "post, \(bad.name)")
            #expect(sent.code == bad.code, "send, \(bad.name): \(sent.text)")
            #expect(setup.server.core.message(from: setup.user, clientID: clientID) == nil, "\(bad.name): nothing stored")
        }
        // Not a member: 403 from both, nothing stored.
        let outsiderSession = setup.server.open()
        try setup.server.login(outsiderSession, as: outsider)
        let foreign = #expect(throws: ErrorReply.self) { try setup.post("let me in", clientID: 1, in: setup.first.id, from: outsider) }
        #expect(foreign?.code == .forbidden)
        #expect(try setup.server.refuse(SendMessageRequest(chatID: setup.first.id, clientID: 1, text: "let me in"), on: outsiderSession).code == .forbidden)
        #expect(setup.server.core.message(from: outsider, clientID: 1) == nil)
    }
}
