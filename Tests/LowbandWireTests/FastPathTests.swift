import LowbandFixtures
import LowbandMessagePack
import LowbandWire
import Testing

/// The hand-written fast path writes exactly the Codable encoder's bytes and reads whatever the
/// Codable decoder reads.
@Suite struct FastPathTests {
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

    @Test func reorderedAndUnknownKeysDecode() throws {
        var fixtures = MessengerFixtures(seed: 9)
        let login = fixtures.loginReply(chats: 10, contacts: 10)
        let tree = try MessagePackValue(decoding: MessagePackEncoder().encode(login))
        let shuffled = try tree.reversedWithUnknownKeys().encoded()
        #expect(try LoginReply(messagePackBytes: shuffled) == login)
        #expect(try MessagePackDecoder().decode(LoginReply.self, from: shuffled) == login)

        let history = fixtures.historyPage(count: 20)
        let historyBytes = try MessagePackValue(decoding: MessagePackEncoder().encode(history)).reversedWithUnknownKeys().encoded()
        #expect(try HistoryReply(messagePackBytes: historyBytes) == history)
    }

    @Test func nilValuesAndMissingOptionalKeysDecodeAsNil() throws {
        let contact: MessagePackValue = .map([
            ("updatedAt", .int(5)), ("avatar", .nil), ("status", .nil), ("phone", "+1"), ("name", "Ann"), ("id", .int(2)),
        ])
        let expected = Contact(id: 2, name: "Ann", phone: "+1", updatedAt: 5)
        try checkDecodes(contact, as: expected)
        let message: MessagePackValue = .map([("id", 1), ("chat", 2), ("from", 3), ("text", "hi"), ("at", 4), ("cid", .nil), ("ed", .nil), ("att", .nil)])
        try checkDecodes(message, as: Message(id: 1, chatID: 2, senderID: 3, text: "hi", sentAt: 4))
        let chat: MessagePackValue = .map([("id", 1), ("kind", "direct"), ("title", ""), ("memberIDs", .array([])), ("unreadCount", 0), ("updatedAt", 0)])
        try checkDecodes(chat, as: Chat(id: 1, kind: .direct, title: "", memberIDs: [], unreadCount: 0, lastMessage: nil, updatedAt: 0))
        let login: MessagePackValue = .map([("userID", 1), ("serverTime", 2), ("settings", .nil), ("contacts", .array([])), ("chats", .array([]))])
        try checkDecodes(login, as: LoginReply(userID: 1, serverTime: 2, settings: nil, contacts: [], chats: []))
    }

    @Test func theFirstOfDuplicateKeysWinsAsInTheCodableDecoder() throws {
        let message: MessagePackValue = .map([("id", 1), ("id", 9), ("chat", 2), ("from", 3), ("text", "first"), ("text", .int(0)), ("at", 4), ("cid", .nil), ("cid", 77)])
        try checkDecodes(message, as: Message(id: 1, chatID: 2, senderID: 3, text: "first", sentAt: 4))
    }

    @Test func invalidInputThrowsWhatTheCodableDecoderRejects() throws {
        let missing: MessagePackValue = .map([("id", 1), ("chat", 2), ("from", 3), ("at", 4)])
        #expect(throws: MessagePackError.self) { try Message(messagePackBytes: missing.encoded()) }
        #expect(throws: (any Error).self) { try MessagePackDecoder().decode(Message.self, from: missing.encoded()) }
        let badKind: MessagePackValue = .map([("id", "a"), ("kind", "hologram"), ("size", 1), ("url", "u")])
        #expect(throws: MessagePackError.self) { try Attachment(messagePackBytes: badKind.encoded()) }
        let arrayKey: MessagePackValue = .map([(.array([]), 1)])
        let error = try #require(throws: MessagePackError.self) { try Contact(messagePackBytes: arrayKey.encoded()) }
        #expect(error.code == .unsupportedKey)
        let overflow: MessagePackValue = .map([("id", "a"), ("kind", "photo"), ("size", .uint(.max)), ("url", "u")])
        #expect(throws: MessagePackError.self) { try Attachment(messagePackBytes: overflow.encoded()) }
        let trailing = try EdgeCases.bareMessage.messagePackBytes() + [0xc0]
        #expect(throws: MessagePackError.self) { try Message(messagePackBytes: trailing) }
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
        let codable = try MessagePackEncoder().encode(value)
        let fast = try value.messagePackBytes()
        #expect(fast == codable, "fast-path bytes differ from the Codable bytes", sourceLocation: sourceLocation)
        #expect(try T(messagePackBytes: codable) == value, sourceLocation: sourceLocation)
        #expect(try MessagePackDecoder().decode(T.self, from: fast) == value, sourceLocation: sourceLocation)
    }

    private func checkDecodes<T: MessagePackFastCodable & Codable & Equatable>(_ tree: MessagePackValue, as expected: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = try tree.encoded()
        #expect(try MessagePackDecoder().decode(T.self, from: bytes) == expected, "the Codable decoder agrees", sourceLocation: sourceLocation)
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
    /// The same tree with every map's entries reversed and two unknown keys (a str key with a
    /// nested value and an integer key) put first.
    fileprivate func reversedWithUnknownKeys() -> MessagePackValue {
        switch self {
        case let .array(elements):
            return .array(elements.map { $0.reversedWithUnknownKeys() })
        case let .map(entries):
            let unknown: [(key: MessagePackValue, value: MessagePackValue)] = [
                ("futureField", .map([("nested", .array([1, "two", .nil]))])),
                (.int(7), .binary([1, 2, 3])),
            ]
            return .map(unknown + entries.reversed().map { ($0.key, $0.value.reversedWithUnknownKeys()) })
        default:
            return self
        }
    }
}
