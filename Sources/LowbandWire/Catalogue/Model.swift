/// A user's settings, as sent at login.
public struct Settings: Codable, Hashable, Sendable {
    /// The interface language, e.g. `en`.
    public var language: String
    /// Whether the user gets notifications.
    public var notificationsEnabled: Bool
    /// Whether notifications show the message text.
    public var previewInNotifications: Bool
    /// Whether media downloads on their own over mobile data.
    public var autoDownloadMediaOnCellular: Bool
    /// The interface theme's name.
    public var theme: String
    /// When the settings last changed, server time.
    public var updatedAt: ServerTime

    /// Settings with every field given.
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
    /// The contact's user id.
    public var id: Int64
    /// The name shown for the contact.
    public var name: String
    /// The contact's phone number, as written.
    public var phone: String
    /// Avatar image URL, if the contact has one.
    public var avatar: String?
    /// Free-text status line.
    public var status: String?
    /// When the contact last changed, server time.
    public var updatedAt: ServerTime

    /// A contact; avatar and status default to none.
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
    /// What kind of file it is: `photo`, `video`, `voice`, `file` or `sticker`.
    public enum Kind: String, Codable, Hashable, Sendable {
        case photo, video, voice, file, sticker
    }

    /// The attachment's id, chosen by the uploading client.
    public var id: String
    /// What kind of file it is.
    public var kind: Kind
    /// The file's size in bytes.
    public var size: Int64
    /// Width in pixels, for photos, videos and stickers.
    public var width: Int?
    /// Height in pixels, for photos, videos and stickers.
    public var height: Int?
    /// Playback length of voice and video, in milliseconds.
    public var duration: Int?
    /// Where the uploaded file can be fetched.
    public var url: String

    /// An attachment; the dimensions and duration default to unknown.
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
    /// The chat the message is in.
    public var chatID: Int64
    /// The user who wrote it.
    public var senderID: Int64
    /// The id the sending client generated, which makes a retried send idempotent.
    public var clientID: UInt64?
    /// The message text; may be empty when it has attachments.
    public var text: String
    /// When the server stored it, server time.
    public var sentAt: ServerTime
    /// When it was last edited, server time; nil if never.
    public var editedAt: ServerTime?
    /// The files attached, in order.
    public var attachments: [Attachment]

    /// A message; the client id, edit time and attachments default to none.
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
    /// Whether the chat is between two users (`direct`) or more (`group`).
    public enum Kind: String, Codable, Hashable, Sendable {
        case direct, group
    }

    /// The chat's id.
    public var id: Int64
    /// Direct or group.
    public var kind: Kind
    /// The name shown in the chat list.
    public var title: String
    /// The members' user ids.
    public var memberIDs: [Int64]
    /// Messages the user has not read yet.
    public var unreadCount: Int
    /// The newest message, shown in the chat list; nil for an empty chat.
    public var lastMessage: Message?
    /// When the chat last changed, server time.
    public var updatedAt: ServerTime

    /// A chat with every field given.
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
