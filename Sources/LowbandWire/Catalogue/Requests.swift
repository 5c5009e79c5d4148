/// Liveness probe; the server answers with ``Pong``.
public struct Ping: WireRequest {
    public typealias Reply = Pong
    public static let command = Command.ping
    public var clientTime: ServerTime
    public init(clientTime: ServerTime) { self.clientTime = clientTime }
}

public struct Pong: WireMessage {
    public static let command = Command.ping
    public var serverTime: ServerTime
    public init(serverTime: ServerTime) { self.serverTime = serverTime }
}

/// Log in with a token and ask for everything changed since `lastSync` (0: a first login).
public struct LoginRequest: WireRequest {
    public typealias Reply = LoginReply
    public static let command = Command.login
    public var token: String
    /// The `serverTime` of the previous login reply; the server sends only what changed since.
    public var lastSync: ServerTime
    public init(token: String, lastSync: ServerTime) {
        self.token = token
        self.lastSync = lastSync
    }
}

/// Settings, contacts and chats (with their last message) changed since the request's
/// `lastSync`, and the server time to pass as `lastSync` next time.
public struct LoginReply: WireMessage {
    public static let command = Command.login
    public var userID: Int64
    public var serverTime: ServerTime
    /// Nil when unchanged since `lastSync`.
    public var settings: Settings?
    public var contacts: [Contact]
    public var chats: [Chat]

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

    public enum Direction: String, Codable, Hashable, Sendable {
        /// Messages before the anchor (scrolling up).
        case older
        /// Messages after the anchor.
        case newer
    }

    public var chatID: Int64
    /// The message to page from, excluded from the page; nil for the newest messages.
    public var anchor: Int64?
    public var direction: Direction
    public var count: Int

    public init(chatID: Int64, anchor: Int64?, direction: Direction, count: Int) {
        self.chatID = chatID
        self.anchor = anchor
        self.direction = direction
        self.count = count
    }
}

public struct HistoryReply: WireMessage {
    public static let command = Command.history
    public var chatID: Int64
    /// Oldest first.
    public var messages: [Message]
    /// True when no more messages exist in the requested direction.
    public var reachedEnd: Bool

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
    public var chatID: Int64
    public var clientID: UInt64
    public var text: String
    public var attachments: [Attachment]

    public init(chatID: Int64, clientID: UInt64, text: String, attachments: [Attachment] = []) {
        self.chatID = chatID
        self.clientID = clientID
        self.text = text
        self.attachments = attachments
    }
}

public struct SendMessageReply: WireMessage {
    public static let command = Command.sendMessage
    /// The stored message, with its server id and time.
    public var message: Message
    public init(message: Message) { self.message = message }
}

/// Mark a chat read up to a message; answered with ``Ack``.
public struct MarkReadRequest: WireRequest {
    public typealias Reply = Ack
    public static let command = Command.markRead
    public var chatID: Int64
    public var messageID: Int64
    public init(chatID: Int64, messageID: Int64) {
        self.chatID = chatID
        self.messageID = messageID
    }
}

/// An empty success reply.
public struct Ack: WireMessage {
    public static let command = Command.markRead
    public init() {}
}
