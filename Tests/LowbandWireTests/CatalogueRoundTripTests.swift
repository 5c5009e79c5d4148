import Foundation
import LowbandFixtures
import LowbandMessagePack
import LowbandTestSupport
import LowbandWire
import NIOCore
import Testing

@Suite struct CatalogueRoundTripTests {
    @Test func everySessionFrameSurvivesTheWire() throws {
        let frames = try WireSamples.session()
        var stream = ByteBuffer()
        let encoder = FrameEncoder()
        for frame in frames { try encoder.write(frame, to: &stream) }
        var decoder = FrameDecoder()
        var decoded: [Frame] = []
        var headers: [FrameHeader] = []
        while let next = try decoder.nextFrame(from: &stream) {
            decoded.append(next.frame)
            headers.append(next.header)
        }
        #expect(stream.readableBytes == 0)
        #expect(decoded == frames, "the same frames: compression stays inside the wire layer")
        #expect(headers.contains { $0.flags.contains(.compressed) }, "the login reply travels compressed")
    }

    @Test func typedMessagesDecodeBackToThemselves() throws {
        var fixtures = MessengerFixtures(seed: 5)
        let login = fixtures.loginReply(chats: 50, contacts: 500)
        try roundTrip(login)
        try roundTrip(fixtures.historyPage(count: 50))
        try roundTrip(fixtures.newMessagePush())
        try roundTrip(LoginRequest(token: "t", lastSync: 42))
        try roundTrip(HistoryRequest(chatID: 1, anchor: nil, direction: .newer, count: 20))
        try roundTrip(SendMessageRequest(chatID: 1, clientID: .max, text: "👨‍👩‍👧", attachments: login.chats.compactMap { $0.lastMessage?.attachments.first }))
        try roundTrip(MarkReadRequest(chatID: 1, messageID: 2))
        try roundTrip(Ack())
        try roundTrip(Ping(clientTime: -1))
        try roundTrip(Pong(serverTime: .max))
        try roundTrip(ContactChangedPush(contact: login.contacts[3]))
        try roundTrip(ReadReceiptPush(chatID: 1, readerID: 2, messageID: 3, readAt: 4))
        try roundTrip(ErrorReply(code: .unauthorized, text: "token expired"))
        try roundTrip(UploadChunkRequest(uploadID: "att-1", offset: 65_536, totalSize: 200_000, data: Data((0 ..< 4_096).map { UInt8($0 % 251) })))
        try roundTrip(UploadChunkReply(uploadID: "att-1", acknowledgedOffset: 69_632, complete: false))
        try roundTrip(UploadStatusRequest(uploadID: "att-1"))
    }

    /// Through the fast path frames use, and through Codable in both layouts.
    private func roundTrip<M: MessagePackFastCodable & Codable & Equatable>(_ message: M) throws {
        #expect(try M(messagePackBytes: message.messagePackBytes()) == message)
        let v2 = WireFormat.v2.userInfo
        #expect(try MessagePackDecoder(userInfo: v2).decode(M.self, from: MessagePackEncoder(userInfo: v2).encode(message)) == message)
        #expect(try MessagePackDecoder().decode(M.self, from: MessagePackEncoder().encode(message)) == message)
    }

    @Test func uploadBytesTravelAsBinNotAnArrayOfIntegers() throws {
        let request = UploadChunkRequest(uploadID: "a", offset: 0, totalSize: 3, data: Data([1, 2, 3]))
        #expect(try MessagePackValue(decoding: request.messagePackBytes()) == .array(["a", 0, 3, .binary([1, 2, 3])]))
        #expect(try MessagePackValue(decoding: MessagePackEncoder().encode(request))["data"] == .binary([1, 2, 3]))
    }

    /// Version 1's layout, which JSON and the caches keep.
    @Test func messageKeysAreShortAndEmptyOptionalsAreLeftOutInV1() throws {
        let message = Message(id: 7, chatID: 1, senderID: 2, text: "hi", sentAt: 3)
        let value = try MessagePackValue(decoding: MessagePackEncoder().encode(message))
        guard case let .map(entries) = value else { Issue.record("not a map"); return }
        #expect(entries.map(\.key) == ["id", "chat", "from", "text", "at"])
    }

    @Test func payloadOfTheWrongShapeIsAMalformedPayloadError() throws {
        let frame = try Frame.request(Ping(clientTime: 1), sequence: 1)
        #expect(throws: WireError.self) { try frame.decode(LoginReply.self) }
        do {
            _ = try frame.decode(LoginReply.self)
        } catch {
            #expect(error.code == .malformedPayload)
            #expect(error.message.contains("LoginReply needs at least 4 fields"), "names the type and what is missing: \(error.message)")
        }
    }
}

/// Replies carry their request's command and sequence; pushes decode by their command.
@Suite struct FrameDispatchTests {
    @Test func aReplyAnswersWithItsRequestsCommandAndSequence() throws {
        let request = try Frame.request(UploadStatusRequest(uploadID: "att-1"), sequence: 41)
        let reply = try Frame.response(UploadChunkReply(uploadID: "att-1", acknowledgedOffset: 8, complete: false), answering: request)
        #expect(reply.command == .uploadStatus && reply.sequence == 41 && reply.flags == .response)
        #expect(try reply.decode(UploadChunkReply.self).acknowledgedOffset == 8)
    }

    @Test func pushesDecodeByTheirCommand() throws {
        var fixtures = MessengerFixtures(seed: 3)
        let message = fixtures.newMessagePush()
        let contact = fixtures.contacts(1)[0]
        let receipt = ReadReceiptPush(chatID: 1, readerID: 2, messageID: 3, readAt: 4)
        #expect(try ServerPush(Frame.push(message, sequence: 1)) == .newMessage(message))
        #expect(try ServerPush(Frame.push(ContactChangedPush(contact: contact), sequence: 2)) == .contactChanged(ContactChangedPush(contact: contact)))
        #expect(try ServerPush(Frame.push(receipt, sequence: 3)) == .readReceipt(receipt))
        #expect(try ServerPush(Frame(flags: .push, command: Command(rawValue: 0x01FF), sequence: 4, payload: [0x90])) == nil, "a newer server's push")
        let wrong = Frame(flags: .push, command: .pushReadReceipt, sequence: 5, payload: try message.messagePackBytes())
        #expect(throws: WireError.self) { try ServerPush(wrong) }
    }
}
