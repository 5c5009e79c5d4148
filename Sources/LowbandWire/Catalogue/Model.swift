/// A user's settings, as sent at login.
public struct Settings: Codable, Hashable, Sendable {
    public var language: String
    public var notificationsEnabled: Bool
    public var previewInNotifications: Bool
    public var autoDownloadMediaOnCellular: Bool
    public var theme: String
    public var updatedAt: ServerTime

    public init(language: String, notificationsEnabled: Bool, previewInNotifications: Bool, autoDownloadMediaOnCellular: Bool, theme: String, updatedAt: ServerTime) {
        self.language = language
        self.notificationsEnabled = notificationsEnabled
        self.previewInNotifications = previewInNotifications
        self.autoDownloadMediaOnCellular = autoDownloadMediaOnCellular
        self.theme = theme
        self.updatedAt = updatedAt
    }
}

/// A person in the user's address book.
public struct Contact: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var phone: String
    /// Avatar image URL, if the contact has one.
    public var avatar: String?
    /// Free-text status line.
    public var status: String?
    public var updatedAt: ServerTime

    public init(id: Int64, name: String, phone: String, avatar: String? = nil, status: String? = nil, updatedAt: ServerTime) {
        self.id = id
        self.name = name
        self.phone = phone
        self.avatar = avatar
        self.status = status
        self.updatedAt = updatedAt
    }
}

/// A file attached to a message; its bytes travel separately (CDN upload).
public struct Attachment: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable {
        case photo, video, voice, file, sticker
    }

    public var id: String
    public var kind: Kind
    public var size: Int64
    public var width: Int?
    public var height: Int?
    /// Playback length of voice and video, in milliseconds.
    public var duration: Int?
    public var url: String

    public init(id: String, kind: Kind, size: Int64, width: Int? = nil, height: Int? = nil, duration: Int? = nil, url: String) {
        self.id = id
        self.kind = kind
        self.size = size
        self.width = width
        self.height = height
        self.duration = duration
        self.url = url
    }
}

/// A chat message. Keys are short on the wire: messages dominate traffic.
public struct Message: Codable, Hashable, Sendable {
    /// Server-assigned id, increasing within a chat.
    public var id: Int64
    public var chatID: Int64
    public var senderID: Int64
    /// The id the sending client generated, which makes a retried send idempotent.
    public var clientID: UInt64?
    public var text: String
    public var sentAt: ServerTime
    public var editedAt: ServerTime?
    public var attachments: [Attachment]

    public init(id: Int64, chatID: Int64, senderID: Int64, clientID: UInt64? = nil, text: String, sentAt: ServerTime, editedAt: ServerTime? = nil, attachments: [Attachment] = []) {
        self.id = id
        self.chatID = chatID
        self.senderID = senderID
        self.clientID = clientID
        self.text = text
        self.sentAt = sentAt
        self.editedAt = editedAt
        self.attachments = attachments
    }
}

/// A chat in the chat list, with its newest message.
public struct Chat: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable {
        case direct, group
    }

    public var id: Int64
    public var kind: Kind
    public var title: String
    public var memberIDs: [Int64]
    public var unreadCount: Int
    public var lastMessage: Message?
    public var updatedAt: ServerTime

    public init(id: Int64, kind: Kind, title: String, memberIDs: [Int64], unreadCount: Int, lastMessage: Message?, updatedAt: ServerTime) {
        self.id = id
        self.kind = kind
        self.title = title
        self.memberIDs = memberIDs
        self.unreadCount = unreadCount
        self.lastMessage = lastMessage
        self.updatedAt = updatedAt
    }
}
