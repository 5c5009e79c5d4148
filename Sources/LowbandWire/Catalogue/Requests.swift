/// Liveness probe; the server answers with ``Pong``.
public struct Ping: WireRequest {
    public typealias Reply = Pong
    public static let command = Command.ping
    /// The client's clock when it sent the ping.
    public var clientTime: ServerTime
    /// A ping sent at `clientTime`.
    public init(clientTime: ServerTime) { self.clientTime = clientTime }
}

/// The answer to a ``Ping``.
public struct Pong: WireMessage {
    public static let command = Command.ping
    /// The server's clock when it answered.
    public var serverTime: ServerTime
    /// A pong sent at `serverTime`.
    public init(serverTime: ServerTime) { self.serverTime = serverTime }
}

/// Log in with a token and ask for everything changed since `lastSync` (0: a first login).
public struct LoginRequest: WireRequest {
    public typealias Reply = LoginReply
    public static let command = Command.login
    /// The credential the server checks; a refused one is answered with `unauthorized`.
    public var token: String
    /// The `serverTime` of the previous login reply; the server sends only what changed since.
    public var lastSync: ServerTime
    /// A login with `token`, asking for what changed since `lastSync`.
    public init(token: String, lastSync: ServerTime) {
        self.token = token
        self.lastSync = lastSync
    }
}

/// Settings, contacts and chats (with their last message) changed since the request's
/// `lastSync`, and the server time to pass as `lastSync` next time.
public struct LoginReply: WireMessage {
    public static let command = Command.login
    /// The logged-in user.
    public var userID: Int64
    /// The server's time; pass it as the next login's `lastSync`.
    public var serverTime: ServerTime
    /// Nil when unchanged since `lastSync`.
    public var settings: Settings?
    /// Contacts added or changed since `lastSync`.
    public var contacts: [Contact]
    /// Chats added or changed since `lastSync`, each with its last message.
    public var chats: [Chat]

    /// A reply with every field given.
    public init(userID: Int64, serverTime: ServerTime, settings: Settings?, contacts: [Contact], chats: [Chat]) {
        self.userID = userID
        self.serverTime = serverTime
        self.settings = settings
        self.contacts = contacts
        self.chats = chats
    }
}

/// A page of a chat's history next to an anchor message.
public struct HistoryRequest: WireRequest {
    public typealias Reply = HistoryReply
    public static let command = Command.history

    /// Which side of the anchor the page lies on.
    public enum Direction: String, Codable, Hashable, Sendable {
        /// Messages before the anchor (scrolling up).
        case older
        /// Messages after the anchor.
        case newer
    }

    /// The chat to page through.
    public var chatID: Int64
    /// The message to page from, excluded from the page; nil for the newest messages.
    public var anchor: Int64?
    /// Older or newer than the anchor.
    public var direction: Direction
    /// How many messages the page holds at most.
    public var count: Int

    /// A request for up to `count` messages of `chatID` on `direction`'s side of `anchor`.
    public init(chatID: Int64, anchor: Int64?, direction: Direction, count: Int) {
        self.chatID = chatID
        self.anchor = anchor
        self.direction = direction
        self.count = count
    }
}

/// A page of a chat's history, the answer to a ``HistoryRequest``.
public struct HistoryReply: WireMessage {
    public static let command = Command.history
    /// The chat the page is of.
    public var chatID: Int64
    /// Oldest first.
    public var messages: [Message]
    /// True when no more messages exist in the requested direction.
    public var reachedEnd: Bool

    /// A page with every field given.
    public init(chatID: Int64, messages: [Message], reachedEnd: Bool) {
        self.chatID = chatID
        self.messages = messages
        self.reachedEnd = reachedEnd
    }
}

/// Send a message. `clientID` makes it idempotent: a retry gets the same reply.
public struct SendMessageRequest: WireRequest {
    public typealias Reply = SendMessageReply
    public static let command = Command.sendMessage
    /// The chat to write to.
    public var chatID: Int64
    /// The sending client's idempotency key: a retry with the same key stores nothing new.
    public var clientID: UInt64
    /// The message text.
    public var text: String
    /// Files already uploaded, in order.
    public var attachments: [Attachment]

    /// A send of `text` to `chatID`; attachments default to none.
    public init(chatID: Int64, clientID: UInt64, text: String, attachments: [Attachment] = []) {
        self.chatID = chatID
        self.clientID = clientID
        self.text = text
        self.attachments = attachments
    }
}

/// The answer to a ``SendMessageRequest``.
public struct SendMessageReply: WireMessage {
    public static let command = Command.sendMessage
    /// The stored message, with its server id and time.
    public var message: Message
    /// A reply for the stored `message`.
    public init(message: Message) { self.message = message }
}

/// Mark a chat read up to a message; answered with ``Ack``.
public struct MarkReadRequest: WireRequest {
    public typealias Reply = Ack
    public static let command = Command.markRead
    /// The chat read.
    public var chatID: Int64
    /// The newest message read; the server keeps the highest it was sent.
    public var messageID: Int64
    /// A request to mark `chatID` read up to `messageID`.
    public init(chatID: Int64, messageID: Int64) {
        self.chatID = chatID
        self.messageID = messageID
    }
}

/// An empty success reply.
public struct Ack: WireMessage {
    public static let command = Command.markRead
    /// The empty reply.
    public init() {}
}
