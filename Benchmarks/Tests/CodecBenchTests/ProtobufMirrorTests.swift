import CodecBench
import LowbandFixtures
import LowbandTestSupport
import LowbandWire
import SwiftProtobuf
import Testing

/// The protobuf codec's bytes are plain protobuf of catalogue.proto, readable by the generated
/// types alone, and the model conversion keeps absent optionals absent.
@Suite struct ProtobufMirrorTests {
    @Test func loginReplyBytesDecodeWithTheGeneratedTypes() throws {
        var fixtures = MessengerFixtures(seed: 1)
        let login = fixtures.loginReply(chats: 50)
        let bytes = try ProtobufCodec().encode(login)
        let message = try ProtoLoginReply(serializedBytes: bytes)
        #expect(message.userID == login.userID)
        #expect(message.chats.count == 50)
        #expect(message.contacts.count == 200)
        #expect(message.chats.map(\.title) == login.chats.map(\.title))
        #expect(message.chats.map(\.memberIds) == login.chats.map(\.memberIDs))
        #expect(message.settings.language == login.settings?.language)
        for (proto, contact) in zip(message.contacts, login.contacts) {
            #expect(proto.hasAvatar == (contact.avatar != nil))
            #expect(proto.hasStatus == (contact.status != nil))
        }
        #expect(try LoginReply(protobufMessage: message) == login)
    }

    @Test func historyPushAndContactListDecodeWithTheGeneratedTypes() throws {
        var fixtures = MessengerFixtures(seed: 1)
        let page = fixtures.historyPage(count: 50)
        let history = try ProtoHistoryReply(serializedBytes: ProtobufCodec().encode(page))
        #expect(history.messages.map(\.text) == page.messages.map(\.text))
        #expect(history.messages.map(\.hasClientID) == page.messages.map { $0.clientID != nil })
        #expect(history.messages.map(\.attachments.count) == page.messages.map(\.attachments.count))

        let push = fixtures.newMessagePush()
        let pushMessage = try ProtoNewMessagePush(serializedBytes: ProtobufCodec().encode(push))
        #expect(pushMessage.message.id == push.message.id)

        let contacts = fixtures.contacts(500)
        let list = try ProtoContactList(serializedBytes: ProtobufCodec().encode(contacts))
        #expect(list.contacts.map(\.name) == contacts.map(\.name))
    }

    @Test func everyAttachmentKindAndOptionalSurvives() throws {
        // `Attachment` alone would also name Swift Testing's type.
        let kinds: [LowbandWire.Attachment.Kind] = [.photo, .video, .voice, .file, .sticker]
        var attachments: [LowbandWire.Attachment] = []
        for (index, kind) in kinds.enumerated() {
            let width: Int? = index == 0 ? nil : index
            let height: Int? = index == 1 ? 0 : nil
            let duration: Int? = index == 2 ? 9 : nil
            attachments.append(LowbandWire.Attachment(id: "a\(index)", kind: kind, size: Int64(index), width: width, height: height, duration: duration, url: "u"))
        }
        let full = Message(id: 1, chatID: 2, senderID: 3, clientID: .max, text: "", sentAt: -1, editedAt: 0, attachments: attachments)
        let bare = Message(id: 1, chatID: 2, senderID: 3, text: "x", sentAt: 5)
        let chats = [
            Chat(id: 1, kind: .group, title: "g", memberIDs: [], unreadCount: 0, lastMessage: full, updatedAt: 1),
            Chat(id: 2, kind: .direct, title: "d", memberIDs: [1, 2], unreadCount: 3, lastMessage: nil, updatedAt: 2),
        ]
        let login = LoginReply(userID: 1, serverTime: 2, settings: nil, contacts: [], chats: chats)
        let decoded = try ProtobufCodec().decode(LoginReply.self, from: ProtobufCodec().encode(login))
        #expect(decoded == login)
        let history = HistoryReply(chatID: 1, messages: [bare, full], reachedEnd: true)
        #expect(try ProtobufCodec().decode(HistoryReply.self, from: ProtobufCodec().encode(history)) == history)
    }

    @Test func unknownEnumNumbersAndMissingMessagesAreErrors() throws {
        var chat = ProtoChat()
        chat.id = 7
        chat.kind = .UNRECOGNIZED(9)
        var login = ProtoLoginReply()
        login.chats = [chat]
        let error = #expect(throws: CodecBenchError.self) {
            try ProtobufCodec().decode(LoginReply.self, from: login.serializedBytes())
        }
        #expect(error?.code == .unrepresentable)
        #expect(error?.message.contains("Chat 7 has kind 9") == true)

        let missing = #expect(throws: CodecBenchError.self) {
            try ProtobufCodec().decode(NewMessagePush.self, from: [])
        }
        #expect(missing?.message.contains("no message") == true)
    }
}
