import LowbandWire
import LowbandFixtures

/// One benchmark input: the frame payloads (MessagePack, before compression) that are
/// compressed one by one, as the frame encoder does.
///
/// The single-payload inputs hold one payload; `small-messages` holds a stream of pushes, each
/// compressed on its own because a chat sends them one at a time. Figures of a multi-payload
/// input are totals over all its payloads.
public struct CompressionInput: Sendable, Identifiable {
    /// The fixed id the report converter relies on (`login-reply-50`, `small-messages`, …).
    public let id: String
    /// The payloads, in the order they are compressed.
    public let payloads: [[UInt8]]

    public init(id: String, payloads: [[UInt8]]) {
        self.id = id
        self.payloads = payloads
    }

    /// Sum of the payload sizes.
    public var byteCount: Int { payloads.reduce(0) { $0 + $1.count } }

    /// All payloads back to back (what `lz4 -b` is given for a single-payload input).
    public var concatenated: [UInt8] { Array(payloads.joined()) }
}

extension CompressionInput {
    /// The ids of ``catalogue(seed:smallMessageCount:)``, in order.
    public static let ids = ["login-reply-50", "history-page-50", "push-1", "contacts-500", "small-messages"]

    /// The five inputs, each drawn from a fresh `MessengerFixtures(seed:)`, so one input does not
    /// depend on which others were generated before it:
    /// - `login-reply-50`: the login reply with 50 chats (and the fixtures' default 200 contacts);
    /// - `history-page-50`: a history page of 50 messages;
    /// - `push-1`: one new-message push;
    /// - `contacts-500`: a login reply carrying 500 changed contacts and no chats — the catalogue
    ///   sends contacts only inside login replies, so this is the real frame of a contact resync;
    /// - `small-messages`: `smallMessageCount` new-message pushes across 50 chats.
    ///
    /// - Throws: when the MessagePack encoder rejects a fixture (a bug in the catalogue).
    public static func catalogue(seed: UInt64 = 1, smallMessageCount: Int = 1_000) throws -> [CompressionInput] {
        var login = MessengerFixtures(seed: seed)
        var history = MessengerFixtures(seed: seed)
        var push = MessengerFixtures(seed: seed)
        var contacts = MessengerFixtures(seed: seed)
        return [
            CompressionInput(id: ids[0], payloads: [try responsePayload(login.loginReply(chats: 50))]),
            CompressionInput(id: ids[1], payloads: [try responsePayload(history.historyPage(count: 50))]),
            CompressionInput(id: ids[2], payloads: [try pushPayload(push.newMessagePush())]),
            CompressionInput(id: ids[3], payloads: [try responsePayload(contactResync(contacts.contacts(500)))]),
            CompressionInput(id: ids[4], payloads: try pushStream(seed: seed, count: smallMessageCount)),
        ]
    }

    /// `count` new-message push payloads from `MessengerFixtures(seed:)`, spread over 50 chats
    /// and 7 senders.
    public static func pushStream(seed: UInt64, count: Int) throws -> [[UInt8]] {
        var fixtures = MessengerFixtures(seed: seed)
        return try (0 ..< count).map { index in
            try pushPayload(fixtures.newMessagePush(chatID: Int64(1 + index % 50), senderID: Int64(2 + index % 7)))
        }
    }

    /// The login reply a resync of `contacts` sends: the contacts, no settings and no chats.
    static func contactResync(_ contacts: [Contact]) -> LoginReply {
        LoginReply(userID: 1, serverTime: MessengerFixtures.epoch + 86_400_000, settings: nil, contacts: contacts, chats: [])
    }

    static func responsePayload<M: WireMessage>(_ message: M) throws -> [UInt8] {
        try Frame.response(message, sequence: 1).payload
    }

    static func pushPayload<M: WirePush>(_ message: M) throws -> [UInt8] {
        try Frame.push(message, sequence: 1).payload
    }
}
