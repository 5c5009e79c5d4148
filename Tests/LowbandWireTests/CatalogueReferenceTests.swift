import Foundation
import LowbandDeterminism
import LowbandFixtures
import LowbandMessagePack
import LowbandWire
import Testing

/// Every catalogue type, for seeded values: the fast path frames use writes the bytes of the
/// Codable reference in wire format v2, and each reads the other's bytes back to the same value.
@Suite struct CatalogueReferenceTests {
    private static let encoder = MessagePackEncoder(userInfo: WireFormat.v2.userInfo)
    private static let decoder = MessagePackDecoder(userInfo: WireFormat.v2.userInfo)

    @Test(arguments: [1, 2, 3, 5, 8, 13, 21, 34] as [UInt64])
    func everyTypeAgreesWithTheCodableReference(seed: UInt64) throws {
        var values = SeededValues(seed: seed)
        let login = values.fixtures.loginReply(chats: 8, contacts: 12)
        let page = values.fixtures.historyPage(chatID: 3, count: 12)
        let push = values.fixtures.newMessagePush()
        try check(login)
        try check(page)
        try check(push)
        try check(login.contacts)
        for contact in login.contacts { try check(ContactChangedPush(contact: contact)) }
        for chat in login.chats { try check(chat) }
        for message in page.messages {
            try check(message)
            try check(SendMessageReply(message: message))
            for attachment in message.attachments { try check(attachment) }
        }
        if let settings = login.settings { try check(settings) }
        for _ in 0 ..< 20 {
            try check(Ping(clientTime: values.time()))
            try check(Pong(serverTime: values.time()))
            try check(LoginRequest(token: values.fixtures.text(), lastSync: values.chance() ? 0 : values.time()))
            try check(HistoryRequest(chatID: values.id(), anchor: values.chance() ? nil : values.id(), direction: values.chance() ? .older : .newer, count: Int(values.id() % 200)))
            try check(SendMessageRequest(chatID: values.id(), clientID: values.random.next(), text: values.fixtures.text(), attachments: values.chance() ? [] : page.messages.flatMap(\.attachments)))
            try check(MarkReadRequest(chatID: values.id(), messageID: values.id()))
            try check(Ack())
            try check(UploadChunkRequest(uploadID: "att-\(values.id())", offset: values.id(), totalSize: values.id(), data: Data((0 ..< values.id() % 300).map { _ in UInt8.random(in: 0 ... 255, using: &values.random) })))
            try check(UploadChunkReply(uploadID: "att-\(values.id())", acknowledgedOffset: values.id(), complete: values.chance(), url: values.chance() ? nil : "https://cdn.example/\(values.id())"))
            try check(UploadStatusRequest(uploadID: "att-\(values.id())"))
            try check(ReadReceiptPush(chatID: values.id(), readerID: values.id(), messageID: values.id(), readAt: values.time()))
            try check(ErrorReply(code: ErrorReply.Code(rawValue: Int(values.id() % 600)), text: values.fixtures.text()))
        }
    }

    private func check<T: MessagePackFastCodable & Codable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = try Self.encoder.encode(value)
        let fast = try value.messagePackBytes()
        #expect(fast == reference, "\(T.self): the fast path's bytes differ from the Codable reference's", sourceLocation: sourceLocation)
        #expect(try T(messagePackBytes: reference) == value, sourceLocation: sourceLocation)
        #expect(try Self.decoder.decode(T.self, from: fast) == value, sourceLocation: sourceLocation)
    }
}

/// Seeded values beside the fixtures' own.
private struct SeededValues {
    var fixtures: MessengerFixtures
    var random: SeededGenerator

    init(seed: UInt64) {
        fixtures = MessengerFixtures(seed: seed)
        random = SeededGenerator(seed: seed &* 7919)
    }

    /// Ids of every size class MessagePack has: fixint, 8, 16, 32 and 64 bits, and negatives.
    mutating func id() -> Int64 {
        let bound: Int64 = [100, 250, 60_000, 4_000_000_000, .max][Int.random(in: 0 ..< 5, using: &random)]
        return Int64.random(in: 0 ... bound, using: &random)
    }

    mutating func time() -> ServerTime {
        chance() ? MessengerFixtures.epoch + Int64.random(in: 0 ... 86_400_000, using: &random) : Int64.random(in: .min ... .max, using: &random)
    }

    mutating func chance() -> Bool { Bool.random(using: &random) }
}
