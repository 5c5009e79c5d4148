public import LowbandWire

// Conversions between the catalogue's model types and the generated messages of catalogue.proto.
// Optional model fields map to proto3 `optional` fields (has/clear), so nil and "absent" agree.

extension Settings: ProtobufMirrored {
    public var protobufMessage: ProtoSettings {
        var message = ProtoSettings()
        message.language = language
        message.notificationsEnabled = notificationsEnabled
        message.previewInNotifications = previewInNotifications
        message.autoDownloadMediaOnCellular = autoDownloadMediaOnCellular
        message.theme = theme
        message.updatedAt = updatedAt
        return message
    }

    public init(protobufMessage message: ProtoSettings) {
        self.init(
            language: message.language,
            notificationsEnabled: message.notificationsEnabled,
            previewInNotifications: message.previewInNotifications,
            autoDownloadMediaOnCellular: message.autoDownloadMediaOnCellular,
            theme: message.theme,
            updatedAt: message.updatedAt
        )
    }
}

extension Contact: ProtobufMirrored {
    public var protobufMessage: ProtoContact {
        var message = ProtoContact()
        message.id = id
        message.name = name
        message.phone = phone
        if let avatar { message.avatar = avatar }
        if let status { message.status = status }
        message.updatedAt = updatedAt
        return message
    }

    public init(protobufMessage message: ProtoContact) {
        self.init(
            id: message.id,
            name: message.name,
            phone: message.phone,
            avatar: message.hasAvatar ? message.avatar : nil,
            status: message.hasStatus ? message.status : nil,
            updatedAt: message.updatedAt
        )
    }
}

/// `[Contact]` travels as a ``ProtoContactList``: protobuf has no top-level repeated field.
extension Array: ProtobufMirrored where Element == Contact {
    public var protobufMessage: ProtoContactList {
        var message = ProtoContactList()
        message.contacts = map(\.protobufMessage)
        return message
    }

    public init(protobufMessage message: ProtoContactList) {
        self = message.contacts.map(Contact.init(protobufMessage:))
    }
}

extension Attachment: ProtobufMirrored {
    public var protobufMessage: ProtoAttachment {
        var message = ProtoAttachment()
        message.id = id
        message.kind = switch kind {
        case .photo: .photo
        case .video: .video
        case .voice: .voice
        case .file: .file
        case .sticker: .sticker
        }
        message.size = size
        if let width { message.width = Int64(width) }
        if let height { message.height = Int64(height) }
        if let duration { message.duration = Int64(duration) }
        message.url = url
        return message
    }

    public init(protobufMessage message: ProtoAttachment) throws(CodecBenchError) {
        let kind: Kind = switch message.kind {
        case .photo: .photo
        case .video: .video
        case .voice: .voice
        case .file: .file
        case .sticker: .sticker
        case .UNRECOGNIZED(let number):
            throw CodecBenchError(.unrepresentable, "Attachment \"\(message.id)\" has kind \(number), which Attachment.Kind has no case for")
        }
        self.init(
            id: message.id,
            kind: kind,
            size: message.size,
            width: message.hasWidth ? Int(message.width) : nil,
            height: message.hasHeight ? Int(message.height) : nil,
            duration: message.hasDuration ? Int(message.duration) : nil,
            url: message.url
        )
    }
}

extension Message: ProtobufMirrored {
    public var protobufMessage: ProtoMessage {
        var message = ProtoMessage()
        message.id = id
        message.chatID = chatID
        message.senderID = senderID
        if let clientID { message.clientID = clientID }
        message.text = text
        message.sentAt = sentAt
        if let editedAt { message.editedAt = editedAt }
        message.attachments = attachments.map(\.protobufMessage)
        return message
    }

    public init(protobufMessage message: ProtoMessage) throws(CodecBenchError) {
        self.init(
            id: message.id,
            chatID: message.chatID,
            senderID: message.senderID,
            clientID: message.hasClientID ? message.clientID : nil,
            text: message.text,
            sentAt: message.sentAt,
            editedAt: message.hasEditedAt ? message.editedAt : nil,
            attachments: try message.attachments.map { attachment throws(CodecBenchError) in try Attachment(protobufMessage: attachment) }
        )
    }
}

extension Chat: ProtobufMirrored {
    public var protobufMessage: ProtoChat {
        var message = ProtoChat()
        message.id = id
        message.kind = switch kind {
        case .direct: .direct
        case .group: .group
        }
        message.title = title
        message.memberIds = memberIDs
        message.unreadCount = Int64(unreadCount)
        if let lastMessage { message.lastMessage = lastMessage.protobufMessage }
        message.updatedAt = updatedAt
        return message
    }

    public init(protobufMessage message: ProtoChat) throws(CodecBenchError) {
        let kind: Kind = switch message.kind {
        case .direct: .direct
        case .group: .group
        case .UNRECOGNIZED(let number):
            throw CodecBenchError(.unrepresentable, "Chat \(message.id) has kind \(number), which Chat.Kind has no case for")
        }
        self.init(
            id: message.id,
            kind: kind,
            title: message.title,
            memberIDs: message.memberIds,
            unreadCount: Int(message.unreadCount),
            lastMessage: message.hasLastMessage ? try Message(protobufMessage: message.lastMessage) : nil,
            updatedAt: message.updatedAt
        )
    }
}

extension LoginReply: ProtobufMirrored {
    public var protobufMessage: ProtoLoginReply {
        var message = ProtoLoginReply()
        message.userID = userID
        message.serverTime = serverTime
        if let settings { message.settings = settings.protobufMessage }
        message.contacts = contacts.map(\.protobufMessage)
        message.chats = chats.map(\.protobufMessage)
        return message
    }

    public init(protobufMessage message: ProtoLoginReply) throws(CodecBenchError) {
        self.init(
            userID: message.userID,
            serverTime: message.serverTime,
            settings: message.hasSettings ? Settings(protobufMessage: message.settings) : nil,
            contacts: message.contacts.map(Contact.init(protobufMessage:)),
            chats: try message.chats.map { chat throws(CodecBenchError) in try Chat(protobufMessage: chat) }
        )
    }
}

extension HistoryReply: ProtobufMirrored {
    public var protobufMessage: ProtoHistoryReply {
        var message = ProtoHistoryReply()
        message.chatID = chatID
        message.messages = messages.map(\.protobufMessage)
        message.reachedEnd = reachedEnd
        return message
    }

    public init(protobufMessage message: ProtoHistoryReply) throws(CodecBenchError) {
        self.init(
            chatID: message.chatID,
            messages: try message.messages.map { item throws(CodecBenchError) in try Message(protobufMessage: item) },
            reachedEnd: message.reachedEnd
        )
    }
}

extension NewMessagePush: ProtobufMirrored {
    public var protobufMessage: ProtoNewMessagePush {
        var message = ProtoNewMessagePush()
        message.message = self.message.protobufMessage
        return message
    }

    public init(protobufMessage message: ProtoNewMessagePush) throws(CodecBenchError) {
        guard message.hasMessage else {
            throw CodecBenchError(.unrepresentable, "NewMessagePush has no message (field 1); a push always carries one")
        }
        self.init(message: try Message(protobufMessage: message.message))
    }
}
