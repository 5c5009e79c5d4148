// Codable for the Model types: the reference implementation of both payload layouts. Without
// `WireFormat.v2` in the coder's userInfo (JSON, caches, wire format v1) values are maps keyed by
// name; with it they are v2's positional arrays (docs/PROTOCOL.md). The fast path
// (FastPath/) must write exactly these v2 bytes.

extension Attachment.Kind {
    /// The case's number in wire format v2.
    var wireCode: Int {
        switch self {
        case .photo: 0
        case .video: 1
        case .voice: 2
        case .file: 3
        case .sticker: 4
        }
    }

    init?(wireCode: Int) {
        switch wireCode {
        case 0: self = .photo
        case 1: self = .video
        case 2: self = .voice
        case 3: self = .file
        case 4: self = .sticker
        default: return nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if decoder.wireFormat == .v2 {
            let code = try container.decode(Int.self)
            guard let value = Self(wireCode: code) else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(code) is not a case of Attachment.Kind") }
            self = value
        } else {
            let name = try container.decode(String.self)
            guard let value = Self(rawValue: name) else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(name)\" is not a case of Attachment.Kind") }
            self = value
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if encoder.wireFormat == .v2 { try container.encode(wireCode) } else { try container.encode(rawValue) }
    }
}

extension Chat.Kind {
    /// The case's number in wire format v2.
    var wireCode: Int {
        switch self {
        case .direct: 0
        case .group: 1
        }
    }

    init?(wireCode: Int) {
        switch wireCode {
        case 0: self = .direct
        case 1: self = .group
        default: return nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if decoder.wireFormat == .v2 {
            let code = try container.decode(Int.self)
            guard let value = Self(wireCode: code) else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(code) is not a case of Chat.Kind") }
            self = value
        } else {
            let name = try container.decode(String.self)
            guard let value = Self(rawValue: name) else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(name)\" is not a case of Chat.Kind") }
            self = value
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if encoder.wireFormat == .v2 { try container.encode(wireCode) } else { try container.encode(rawValue) }
    }
}

extension Settings {
    enum CodingKeys: String, CodingKey {
        case language, notificationsEnabled, previewInNotifications, autoDownloadMediaOnCellular, theme, updatedAt
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            language = try container.decode(String.self, forKey: .language)
            notificationsEnabled = try container.decode(Bool.self, forKey: .notificationsEnabled)
            previewInNotifications = try container.decode(Bool.self, forKey: .previewInNotifications)
            autoDownloadMediaOnCellular = try container.decode(Bool.self, forKey: .autoDownloadMediaOnCellular)
            theme = try container.decode(String.self, forKey: .theme)
            updatedAt = try container.decode(Int64.self, forKey: .updatedAt)
            return
        }
        var container = try decoder.unkeyedContainer()
        language = try container.decode(String.self)
        notificationsEnabled = try container.decode(Bool.self)
        previewInNotifications = try container.decode(Bool.self)
        autoDownloadMediaOnCellular = try container.decode(Bool.self)
        theme = try container.decode(String.self)
        updatedAt = try container.decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(language, forKey: .language)
            try container.encode(notificationsEnabled, forKey: .notificationsEnabled)
            try container.encode(previewInNotifications, forKey: .previewInNotifications)
            try container.encode(autoDownloadMediaOnCellular, forKey: .autoDownloadMediaOnCellular)
            try container.encode(theme, forKey: .theme)
            try container.encode(updatedAt, forKey: .updatedAt)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(language)
        try container.encode(notificationsEnabled)
        try container.encode(previewInNotifications)
        try container.encode(autoDownloadMediaOnCellular)
        try container.encode(theme)
        try container.encode(updatedAt)
    }
}

extension Contact {
    enum CodingKeys: String, CodingKey {
        case id, name, phone, avatar, status, updatedAt
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int64.self, forKey: .id)
            name = try container.decode(String.self, forKey: .name)
            phone = try container.decode(String.self, forKey: .phone)
            avatar = try container.decodeIfPresent(String.self, forKey: .avatar)
            status = try container.decodeIfPresent(String.self, forKey: .status)
            updatedAt = try container.decode(Int64.self, forKey: .updatedAt)
            return
        }
        var container = try decoder.unkeyedContainer()
        id = try container.decode(Int64.self)
        name = try container.decode(String.self)
        phone = try container.decode(String.self)
        updatedAt = try container.decode(Int64.self)
        avatar = try container.decodeTrailing(String.self)
        status = try container.decodeTrailing(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(phone, forKey: .phone)
            try container.encodeIfPresent(avatar, forKey: .avatar)
            try container.encodeIfPresent(status, forKey: .status)
            try container.encode(updatedAt, forKey: .updatedAt)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(id)
        try container.encode(name)
        try container.encode(phone)
        try container.encode(updatedAt)
        let present = status != nil ? 2 : (avatar != nil ? 1 : 0)
        if present > 0 { if let value = avatar { try container.encode(value) } else { try container.encodeNil() } }
        if present > 1 { if let value = status { try container.encode(value) } else { try container.encodeNil() } }
    }
}

extension Attachment {
    enum CodingKeys: String, CodingKey {
        case id, kind, size, width, height, duration, url
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            kind = try container.decode(Attachment.Kind.self, forKey: .kind)
            size = try container.decode(Int64.self, forKey: .size)
            width = try container.decodeIfPresent(Int.self, forKey: .width)
            height = try container.decodeIfPresent(Int.self, forKey: .height)
            duration = try container.decodeIfPresent(Int.self, forKey: .duration)
            url = try container.decode(String.self, forKey: .url)
            return
        }
        var container = try decoder.unkeyedContainer()
        id = try container.decode(String.self)
        kind = try container.decode(Attachment.Kind.self)
        size = try container.decode(Int64.self)
        url = try container.decode(String.self)
        width = try container.decodeTrailing(Int.self)
        height = try container.decodeTrailing(Int.self)
        duration = try container.decodeTrailing(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(kind, forKey: .kind)
            try container.encode(size, forKey: .size)
            try container.encodeIfPresent(width, forKey: .width)
            try container.encodeIfPresent(height, forKey: .height)
            try container.encodeIfPresent(duration, forKey: .duration)
            try container.encode(url, forKey: .url)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(id)
        try container.encode(kind)
        try container.encode(size)
        try container.encode(url)
        let present = duration != nil ? 3 : (height != nil ? 2 : (width != nil ? 1 : 0))
        if present > 0 { if let value = width { try container.encode(value) } else { try container.encodeNil() } }
        if present > 1 { if let value = height { try container.encode(value) } else { try container.encodeNil() } }
        if present > 2 { if let value = duration { try container.encode(value) } else { try container.encodeNil() } }
    }
}

extension Message {
    enum CodingKeys: String, CodingKey {
        case id, chatID = "chat", senderID = "from", clientID = "cid", text, sentAt = "at", editedAt = "ed", attachments = "att"
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int64.self, forKey: .id)
            chatID = try container.decode(Int64.self, forKey: .chatID)
            senderID = try container.decode(Int64.self, forKey: .senderID)
            clientID = try container.decodeIfPresent(UInt64.self, forKey: .clientID)
            text = try container.decode(String.self, forKey: .text)
            sentAt = try container.decode(Int64.self, forKey: .sentAt)
            editedAt = try container.decodeIfPresent(Int64.self, forKey: .editedAt)
            attachments = try container.decodeIfPresent([Attachment].self, forKey: .attachments) ?? []
            return
        }
        var container = try decoder.unkeyedContainer()
        id = try container.decode(Int64.self)
        chatID = try container.decode(Int64.self)
        senderID = try container.decode(Int64.self)
        text = try container.decode(String.self)
        sentAt = try container.decode(Int64.self)
        clientID = try container.decodeTrailing(UInt64.self)
        editedAt = try container.decodeTrailing(Int64.self)
        attachments = try container.decodeTrailing([Attachment].self) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(chatID, forKey: .chatID)
            try container.encode(senderID, forKey: .senderID)
            try container.encodeIfPresent(clientID, forKey: .clientID)
            try container.encode(text, forKey: .text)
            try container.encode(sentAt, forKey: .sentAt)
            try container.encodeIfPresent(editedAt, forKey: .editedAt)
            if !attachments.isEmpty { try container.encode(attachments, forKey: .attachments) }
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(id)
        try container.encode(chatID)
        try container.encode(senderID)
        try container.encode(text)
        try container.encode(sentAt)
        let present = !attachments.isEmpty ? 3 : (editedAt != nil ? 2 : (clientID != nil ? 1 : 0))
        if present > 0 { if let value = clientID { try container.encode(value) } else { try container.encodeNil() } }
        if present > 1 { if let value = editedAt { try container.encode(value) } else { try container.encodeNil() } }
        if present > 2 { try container.encode(attachments) }
    }
}

extension Chat {
    enum CodingKeys: String, CodingKey {
        case id, kind, title, memberIDs, unreadCount, lastMessage, updatedAt
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int64.self, forKey: .id)
            kind = try container.decode(Chat.Kind.self, forKey: .kind)
            title = try container.decode(String.self, forKey: .title)
            memberIDs = try container.decode([Int64].self, forKey: .memberIDs)
            unreadCount = try container.decode(Int.self, forKey: .unreadCount)
            lastMessage = try container.decodeIfPresent(Message.self, forKey: .lastMessage)
            updatedAt = try container.decode(Int64.self, forKey: .updatedAt)
            return
        }
        var container = try decoder.unkeyedContainer()
        id = try container.decode(Int64.self)
        kind = try container.decode(Chat.Kind.self)
        title = try container.decode(String.self)
        memberIDs = try container.decode([Int64].self)
        unreadCount = try container.decode(Int.self)
        updatedAt = try container.decode(Int64.self)
        lastMessage = try container.decodeTrailing(Message.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(kind, forKey: .kind)
            try container.encode(title, forKey: .title)
            try container.encode(memberIDs, forKey: .memberIDs)
            try container.encode(unreadCount, forKey: .unreadCount)
            try container.encodeIfPresent(lastMessage, forKey: .lastMessage)
            try container.encode(updatedAt, forKey: .updatedAt)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(id)
        try container.encode(kind)
        try container.encode(title)
        try container.encode(memberIDs)
        try container.encode(unreadCount)
        try container.encode(updatedAt)
        let present = lastMessage != nil ? 1 : 0
        if present > 0 { if let value = lastMessage { try container.encode(value) } else { try container.encodeNil() } }
    }
}
