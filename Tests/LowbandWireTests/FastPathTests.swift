import LowbandFixtures
import LowbandMessagePack
import LowbandWire
import Testing

/// The hand-written fast path writes exactly the bytes of the Codable reference in wire format v2
/// and reads whatever that reference reads.
@Suite struct FastPathTests {
    static let codableEncoder = MessagePackEncoder(userInfo: WireFormat.v2.userInfo)
    static let codable = MessagePackDecoder(userInfo: WireFormat.v2.userInfo)

    @Test(arguments: [1, 2, 3, 7, 42] as [UInt64])
    func seededFixturesMatchTheCodableBytes(seed: UInt64) throws {
        var fixtures = MessengerFixtures(seed: seed)
        try checkAgreement(fixtures.loginReply(chats: 40, contacts: 80))
        try checkAgreement(fixtures.historyPage(count: 60))
        try checkAgreement(fixtures.newMessagePush())
        try checkAgreement(fixtures.contacts(20))
    }

    @Test func edgeCasesMatchTheCodableBytes() throws {
        try checkAgreement(EdgeCases.bareMessage)
        try checkAgreement(EdgeCases.fullMessage)
        try checkAgreement(EdgeCases.attachments)
        try checkAgreement(EdgeCases.contacts)
        try checkAgreement(EdgeCases.chats)
        try checkAgreement(EdgeCases.emptyLogin)
        try checkAgreement(EdgeCases.login)
        try checkAgreement(HistoryReply(chatID: .min, messages: [], reachedEnd: true))
        try checkAgreement(HistoryReply(chatID: 0, messages: [EdgeCases.bareMessage, EdgeCases.fullMessage], reachedEnd: false))
        try checkAgreement(NewMessagePush(message: EdgeCases.fullMessage))
    }

    @Test func longStringsAndArraysUseTheSameLengthForms() throws {
        for length in [31, 32, 255, 256, 65_535, 65_536] {
            let text = String(repeating: "é", count: length / 2) + String(repeating: "a", count: length % 2)
            try checkAgreement(Message(id: 1, chatID: 2, senderID: 3, text: text, sentAt: 4))
        }
        for count in [15, 16, 65_535, 65_536] {
            try checkAgreement(Chat(id: 1, kind: .group, title: "many", memberIDs: (0 ..< Int64(count)).map { $0 * 1_000_003 - 7 }, unreadCount: count, lastMessage: nil, updatedAt: 0))
        }
    }

    @Test func fieldsALaterVersionAddsAreSkipped() throws {
        var fixtures = MessengerFixtures(seed: 9)
        var login = fixtures.loginReply(chats: 10, contacts: 10)
        // Every field this version knows is present, so the added ones come after the last.
        login.compressionDictionary = 1
        let extended = try MessagePackValue(decoding: login.messagePackBytes()).appendingFields().encoded()
        #expect(try LoginReply(messagePackBytes: extended) == login)
        #expect(try Self.codable.decode(LoginReply.self, from: extended) == login)
        let message = EdgeCases.fullMessage
        let longer = try MessagePackValue(decoding: message.messagePackBytes()).appendingFields().encoded()
        #expect(try Message(messagePackBytes: longer) == message)
        #expect(try Self.codable.decode(Message.self, from: longer) == message)
    }

    @Test func nilValuesAndMissingTrailingFieldsDecodeAsAbsent() throws {
        let expected = Contact(id: 2, name: "Ann", phone: "+1", updatedAt: 5)
        try checkDecodes(.array([2, "Ann", "+1", 5]), as: expected)
        try checkDecodes(.array([2, "Ann", "+1", 5, .nil, .nil]), as: expected)
        try checkDecodes(.array([2, "Ann", "+1", 5, .nil, "busy"]), as: Contact(id: 2, name: "Ann", phone: "+1", status: "busy", updatedAt: 5))
        try checkDecodes(.array([1, 2, 3, "hi", 4, .nil, .nil, .nil]), as: Message(id: 1, chatID: 2, senderID: 3, text: "hi", sentAt: 4))
        try checkDecodes(.array([1, 2, 3, "hi", 4, .nil, .nil, .array([])]), as: Message(id: 1, chatID: 2, senderID: 3, text: "hi", sentAt: 4))
        try checkDecodes(.array([1, 0, "", .array([]), 0, 0]), as: Chat(id: 1, kind: .direct, title: "", memberIDs: [], unreadCount: 0, lastMessage: nil, updatedAt: 0))
        try checkDecodes(.array([1, 2, .array([]), .array([])]), as: LoginReply(userID: 1, serverTime: 2, settings: nil, contacts: [], chats: []))
        try checkDecodes(.array([]), as: Ack())
    }

    @Test func absentTrailingFieldsAreLeftOutAndEnumsAreNumbers() throws {
        // A bare message is five fields: id, chat, from, text, at.
        #expect(try Message(id: 7, chatID: 1, senderID: 2, text: "hi", sentAt: 3).messagePackBytes() == [0x95, 0x07, 0x01, 0x02, 0xA2, 0x68, 0x69, 0x03])
        // Only the edited time: the client id before it is nil, the empty attachments are left out.
        #expect(try Message(id: 7, chatID: 1, senderID: 2, text: "", sentAt: 3, editedAt: 4).messagePackBytes() == [0x97, 0x07, 0x01, 0x02, 0xA0, 0x03, 0xC0, 0x04])
        #expect(try Attachment(id: "a", kind: .sticker, size: 1, url: "").messagePackBytes() == [0x94, 0xA1, 0x61, 0x04, 0x01, 0xA0])
        #expect(try HistoryRequest(chatID: 3, anchor: nil, direction: .newer, count: 20).messagePackBytes() == [0x93, 0x03, 0x01, 0x14])
    }

    @Test func invalidInputThrowsWhatTheCodableDecoderRejects() throws {
        let tooFew: MessagePackValue = .array([1, 2, 3, "hi"])
        #expect(throws: MessagePackError.self) { try Message(messagePackBytes: tooFew.encoded()) }
        #expect(throws: (any Error).self) { try Self.codable.decode(Message.self, from: tooFew.encoded()) }
        let badKind: MessagePackValue = .array(["a", 9, 1, "u"])
        #expect(throws: MessagePackError.self) { try Attachment(messagePackBytes: badKind.encoded()) }
        #expect(throws: (any Error).self) { try Self.codable.decode(Attachment.self, from: badKind.encoded()) }
        let overflow: MessagePackValue = .array(["a", 0, .uint(.max), "u"])
        #expect(throws: MessagePackError.self) { try Attachment(messagePackBytes: overflow.encoded()) }
        #expect(throws: (any Error).self) { try Self.codable.decode(Attachment.self, from: overflow.encoded()) }
        let trailing = try EdgeCases.bareMessage.messagePackBytes() + [0xc0]
        #expect(throws: MessagePackError.self) { try Message(messagePackBytes: trailing) }
        // A v1 payload (a map keyed by name) is not a v2 value.
        let v1 = try MessagePackEncoder().encode(EdgeCases.bareMessage)
        #expect(throws: MessagePackError.self) { try Message(messagePackBytes: v1) }
        #expect(throws: (any Error).self) { try Self.codable.decode(Message.self, from: v1) }
    }

    @Test func everyTruncationThrowsAMessagePackError() throws {
        var fixtures = MessengerFixtures(seed: 4)
        let bytes = try fixtures.loginReply(chats: 3, contacts: 3).messagePackBytes()
        for length in 0 ..< bytes.count {
            #expect(throws: MessagePackError.self) { try LoginReply(messagePackBytes: Array(bytes[..<length])) }
        }
        let push = try NewMessagePush(message: EdgeCases.fullMessage).messagePackBytes()
        for length in 0 ..< push.count {
            #expect(throws: MessagePackError.self) { try NewMessagePush(messagePackBytes: Array(push[..<length])) }
        }
    }

    private func checkAgreement<T: MessagePackFastCodable & Codable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let codable = try Self.codableEncoder.encode(value)
        let fast = try value.messagePackBytes()
        #expect(fast == codable, "fast-path bytes differ from the Codable bytes", sourceLocation: sourceLocation)
        #expect(try T(messagePackBytes: codable) == value, sourceLocation: sourceLocation)
        #expect(try Self.codable.decode(T.self, from: fast) == value, sourceLocation: sourceLocation)
    }

    private func checkDecodes<T: MessagePackFastCodable & Codable & Equatable>(_ tree: MessagePackValue, as expected: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = try tree.encoded()
        #expect(try Self.codable.decode(T.self, from: bytes) == expected, "the Codable decoder agrees", sourceLocation: sourceLocation)
        #expect(try T(messagePackBytes: bytes) == expected, sourceLocation: sourceLocation)
    }
}

/// Values at the edges of what the catalogue types hold.
private enum EdgeCases {
    static let bareMessage = Message(id: 0, chatID: 0, senderID: 0, text: "", sentAt: 0)
    static let fullMessage = Message(
        id: .max, chatID: .min, senderID: -1, clientID: .max, text: "👨‍👩‍👧 привет 你好 \u{0}", sentAt: -33,
        editedAt: .min, attachments: attachments
    )
    static let attachments = [
        Attachment(id: "", kind: .photo, size: 0, url: ""),
        Attachment(id: "v", kind: .video, size: .max, width: .max, height: .min, duration: 0, url: "https://cdn.example/😀"),
        Attachment(id: "s", kind: .sticker, size: -129, width: 127, height: 128, duration: -32, url: "u"),
        Attachment(id: "f", kind: .file, size: 65_536, duration: -33, url: "u"),
        Attachment(id: "o", kind: .voice, size: 255, height: 256, url: "u"),
    ]
    static let contacts = [
        Contact(id: 1, name: "", phone: "", updatedAt: .min),
        Contact(id: -1, name: "Zoë 🦊", phone: "+7", avatar: "a", updatedAt: .max),
        Contact(id: .max, name: "x", phone: "y", status: "", updatedAt: 0),
        Contact(id: .min, name: "x", phone: "y", avatar: "", status: "busy", updatedAt: 1),
    ]
    static let chats = [
        Chat(id: 1, kind: .direct, title: "", memberIDs: [], unreadCount: 0, lastMessage: nil, updatedAt: 0),
        Chat(id: .min, kind: .group, title: "🎉", memberIDs: [.min, -1, 0, 127, 128, .max], unreadCount: .min, lastMessage: fullMessage, updatedAt: .max),
        Chat(id: .max, kind: .group, title: "t", memberIDs: [1], unreadCount: .max, lastMessage: bareMessage, updatedAt: -1),
    ]
    static let settings = Settings(language: "uk", notificationsEnabled: true, previewInNotifications: false, autoDownloadMediaOnCellular: true, theme: "", updatedAt: .min)
    static let emptyLogin = LoginReply(userID: 0, serverTime: 0, settings: nil, contacts: [], chats: [])
    static let login = LoginReply(userID: .max, serverTime: .min, settings: settings, contacts: contacts, chats: chats)
}

extension MessagePackValue {
    /// The same top-level array with two fields a later version might add: a nested map and a bin.
    fileprivate func appendingFields() -> MessagePackValue {
        guard case let .array(elements) = self else { return self }
        return .array(elements + [.map([("nested", .array([1, "two", .nil]))]), .binary([1, 2, 3])])
    }
}
