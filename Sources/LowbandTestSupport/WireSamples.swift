package import LowbandWire
import LowbandFixtures

/// A conversation's worth of frames, the same for every run: requests, replies (one large
/// enough to be compressed), pushes and an error reply.
package enum WireSamples {
    /// Frames of a short session: login, history, send, mark read, pushes, an error, a ping.
    package static func session(seed: UInt64 = 7) throws -> [Frame] {
        var fixtures = MessengerFixtures(seed: seed)
        let login = fixtures.loginReply(chats: 20, contacts: 30)
        let page = fixtures.historyPage(chatID: 3, count: 10)
        let push = fixtures.newMessagePush(chatID: 3, senderID: 5)
        return [
            try .request(LoginRequest(token: "tok-Юникод-🔑", lastSync: 0), sequence: 1),
            try .response(login, sequence: 1),
            try .request(HistoryRequest(chatID: 3, anchor: 1_050, direction: .older, count: 10), sequence: 2),
            try .request(SendMessageRequest(chatID: 3, clientID: 0xDEAD_BEEF, text: "на вокзале 🚌"), sequence: 3),
            try .push(push, sequence: 1),
            try .response(page, sequence: 2),
            try .response(SendMessageReply(message: push.message), sequence: 3),
            try .request(MarkReadRequest(chatID: 3, messageID: 1_050), sequence: 4),
            try .error(ErrorReply(code: .forbidden, text: "not a member of chat 9"), command: .markRead, sequence: 4),
            try .push(ReadReceiptPush(chatID: 3, readerID: 5, messageID: 1_050, readAt: MessengerFixtures.epoch), sequence: 2),
            try .push(ContactChangedPush(contact: login.contacts[0]), sequence: 3),
            try .request(Ping(clientTime: MessengerFixtures.epoch), sequence: 5),
            try .response(Pong(serverTime: MessengerFixtures.epoch + 1), sequence: 5),
        ]
    }
}
