import LowbandFixtures
import LowbandMessagePack
import LowbandWire
import Testing

@Suite struct MessengerFixturesTests {
    @Test func sameSeedGivesTheSameBytes() throws {
        var a = MessengerFixtures(seed: 3)
        var b = MessengerFixtures(seed: 3)
        let encoder = MessagePackEncoder()
        #expect(try encoder.encode(a.loginReply()) == encoder.encode(b.loginReply()))
        #expect(try encoder.encode(a.historyPage()) == encoder.encode(b.historyPage()))
        var c = MessengerFixtures(seed: 4)
        var d = MessengerFixtures(seed: 3)
        #expect(try encoder.encode(c.loginReply()) != encoder.encode(d.loginReply()))
    }

    @Test func loginReplyHasWhatWasAskedFor() {
        var fixtures = MessengerFixtures(seed: 1)
        let reply = fixtures.loginReply(chats: 50, contacts: 500)
        #expect(reply.chats.count == 50)
        #expect(reply.contacts.count == 500)
        #expect(Set(reply.contacts.map(\.id)).count == 500, "contact ids are distinct")
        #expect(reply.chats.allSatisfy { $0.lastMessage?.chatID == $0.id })
        #expect(reply.chats.allSatisfy { $0.memberIDs.contains(reply.userID) })
        #expect(reply.chats.contains { $0.kind == .group } && reply.chats.contains { $0.kind == .direct })
    }

    @Test func textsMixScriptsAndLengthsLikeAChatApp() {
        var fixtures = MessengerFixtures(seed: 2)
        let page = fixtures.historyPage(count: 2_000)
        let texts = page.messages.map(\.text)
        let scalars = texts.flatMap(\.unicodeScalars)
        #expect(scalars.contains { (0x0400 ... 0x04FF).contains($0.value) }, "Cyrillic")
        #expect(scalars.contains { (0x4E00 ... 0x9FFF).contains($0.value) }, "CJK")
        #expect(scalars.contains { $0.properties.isEmojiPresentation }, "emoji")
        let lengths = texts.map(\.utf8.count).sorted()
        #expect(lengths[lengths.count / 2] < 80, "most messages are short")
        #expect(lengths.last! > 400, "a tail is long")
        let withAttachments = page.messages.filter { !$0.attachments.isEmpty }.count
        #expect((100 ... 300).contains(withAttachments), "about one in ten carries an attachment: \(withAttachments)")
        #expect(zip(page.messages, page.messages.dropFirst()).allSatisfy { $0.sentAt <= $1.sentAt && $0.id < $1.id })
    }
}
