import LowbandFixtures
import LowbandTestSupport
import LowbandWire
import Testing

/// The seeded data the server starts from.
@Suite struct MessengerWorldTests {
    @Test func theSameSeedGivesTheSameWorldAndTokens() {
        let shape = MessengerWorld.Shape(users: 12, chatsPerUser: 4, messagesPerChat: 20)
        let first = MessengerWorld(seed: 21, shape: shape)
        #expect(first == MessengerWorld(seed: 21, shape: shape))
        let other = MessengerWorld(seed: 22, shape: shape)
        #expect(first.users.map(\.token) != other.users.map(\.token))
        #expect(Set(first.users.map(\.token)).count == 12, "one token per user")
        #expect(first.users.map(\.id) == Array(1 ... 12) && first.chats.map(\.id) == Array(1 ... Int64(first.chats.count)))
    }

    @Test func chatsMessagesAndContactsLookLikeAMessenger() {
        let world = MessengerWorld(seed: 7)
        #expect(world.users.allSatisfy { world.chats(of: $0.id).count >= 8 })
        #expect(world.chats.contains { $0.kind == .direct } && world.chats.contains { $0.kind == .group })
        #expect(world.chats.allSatisfy { $0.memberIDs == $0.memberIDs.sorted() && Set($0.memberIDs).count == $0.memberIDs.count })
        #expect(world.chats.filter { $0.kind == .direct }.allSatisfy { $0.memberIDs.count == 2 && $0.title == nil })
        #expect(world.chats.allSatisfy { $0.messages.count == 40 && $0.messages.map(\.id) == $0.messages.map(\.id).sorted() })
        #expect(world.chats.allSatisfy { chat in chat.messages.allSatisfy { chat.memberIDs.contains($0.senderID) && $0.chatID == chat.id } })
        let messages = world.chats.flatMap(\.messages)
        #expect(messages.allSatisfy { $0.sentAt < MessengerFixtures.epoch && $0.clientID == nil })
        let withAttachments = messages.count { !$0.attachments.isEmpty }
        #expect(withAttachments > messages.count / 20 && withAttachments < messages.count / 5)
        let texts = messages.map(\.text).joined()
        #expect(texts.unicodeScalars.contains { (0x0400 ... 0x04FF).contains($0.value) }, "Cyrillic")
        #expect(texts.unicodeScalars.contains { (0x4E00 ... 0x9FFF).contains($0.value) }, "CJK")
        #expect(texts.unicodeScalars.contains { $0.properties.isEmojiPresentation }, "emoji")
        let lengths = messages.map(\.text.utf8.count).sorted()
        #expect(lengths[lengths.count / 2] < 60 && lengths.last! > 300, "mostly short, a long tail")
        // Everyone one shares a chat with is a contact.
        for user in world.users {
            let partners = Set(world.chats(of: user.id).flatMap(\.memberIDs)).subtracting([user.id])
            #expect(partners.isSubset(of: Set(user.contactIDs)))
        }
        #expect(world.directChat(between: world.chats.first { $0.kind == .direct }!.memberIDs[1], and: world.chats.first { $0.kind == .direct }!.memberIDs[0]) != nil)
    }
}
