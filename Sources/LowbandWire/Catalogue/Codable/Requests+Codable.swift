// Codable for the Requests types: the reference implementation of both payload layouts. Without
// `WireFormat.v2` in the coder's userInfo (JSON, caches, wire format v1) values are maps keyed by
// name; with it they are v2's positional arrays (docs/PROTOCOL.md). The fast path
// (FastPath/) must write exactly these v2 bytes.

extension HistoryRequest.Direction {
    /// The case's number in wire format v2.
    var wireCode: Int {
        switch self {
        case .older: 0
        case .newer: 1
        }
    }

    init?(wireCode: Int) {
        switch wireCode {
        case 0: self = .older
        case 1: self = .newer
        default: return nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if decoder.wireFormat == .v2 {
            let code = try container.decode(Int.self)
            guard let value = Self(wireCode: code) else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(code) is not a case of HistoryRequest.Direction") }
            self = value
        } else {
            let name = try container.decode(String.self)
            guard let value = Self(rawValue: name) else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(name)\" is not a case of HistoryRequest.Direction") }
            self = value
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if encoder.wireFormat == .v2 { try container.encode(wireCode) } else { try container.encode(rawValue) }
    }
}

extension Ping {
    enum CodingKeys: String, CodingKey {
        case clientTime
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            clientTime = try container.decode(Int64.self, forKey: .clientTime)
            return
        }
        var container = try decoder.unkeyedContainer()
        clientTime = try container.decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(clientTime, forKey: .clientTime)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(clientTime)
    }
}

extension Pong {
    enum CodingKeys: String, CodingKey {
        case serverTime
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            serverTime = try container.decode(Int64.self, forKey: .serverTime)
            return
        }
        var container = try decoder.unkeyedContainer()
        serverTime = try container.decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(serverTime, forKey: .serverTime)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(serverTime)
    }
}

extension LoginRequest {
    enum CodingKeys: String, CodingKey {
        case token, lastSync
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            token = try container.decode(String.self, forKey: .token)
            lastSync = try container.decode(Int64.self, forKey: .lastSync)
            return
        }
        var container = try decoder.unkeyedContainer()
        token = try container.decode(String.self)
        lastSync = try container.decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(token, forKey: .token)
            try container.encode(lastSync, forKey: .lastSync)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(token)
        try container.encode(lastSync)
    }
}

extension LoginReply {
    enum CodingKeys: String, CodingKey {
        case userID, serverTime, settings, contacts, chats
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            userID = try container.decode(Int64.self, forKey: .userID)
            serverTime = try container.decode(Int64.self, forKey: .serverTime)
            settings = try container.decodeIfPresent(Settings.self, forKey: .settings)
            contacts = try container.decode([Contact].self, forKey: .contacts)
            chats = try container.decode([Chat].self, forKey: .chats)
            return
        }
        var container = try decoder.unkeyedContainer()
        userID = try container.decode(Int64.self)
        serverTime = try container.decode(Int64.self)
        contacts = try container.decode([Contact].self)
        chats = try container.decode([Chat].self)
        settings = try container.decodeTrailing(Settings.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(userID, forKey: .userID)
            try container.encode(serverTime, forKey: .serverTime)
            try container.encodeIfPresent(settings, forKey: .settings)
            try container.encode(contacts, forKey: .contacts)
            try container.encode(chats, forKey: .chats)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(userID)
        try container.encode(serverTime)
        try container.encode(contacts)
        try container.encode(chats)
        let present = settings != nil ? 1 : 0
        if present > 0 { if let value = settings { try container.encode(value) } else { try container.encodeNil() } }
    }
}

extension HistoryRequest {
    enum CodingKeys: String, CodingKey {
        case chatID, anchor, direction, count
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            chatID = try container.decode(Int64.self, forKey: .chatID)
            anchor = try container.decodeIfPresent(Int64.self, forKey: .anchor)
            direction = try container.decode(HistoryRequest.Direction.self, forKey: .direction)
            count = try container.decode(Int.self, forKey: .count)
            return
        }
        var container = try decoder.unkeyedContainer()
        chatID = try container.decode(Int64.self)
        direction = try container.decode(HistoryRequest.Direction.self)
        count = try container.decode(Int.self)
        anchor = try container.decodeTrailing(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(chatID, forKey: .chatID)
            try container.encodeIfPresent(anchor, forKey: .anchor)
            try container.encode(direction, forKey: .direction)
            try container.encode(count, forKey: .count)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(chatID)
        try container.encode(direction)
        try container.encode(count)
        let present = anchor != nil ? 1 : 0
        if present > 0 { if let value = anchor { try container.encode(value) } else { try container.encodeNil() } }
    }
}

extension HistoryReply {
    enum CodingKeys: String, CodingKey {
        case chatID, messages, reachedEnd
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            chatID = try container.decode(Int64.self, forKey: .chatID)
            messages = try container.decode([Message].self, forKey: .messages)
            reachedEnd = try container.decode(Bool.self, forKey: .reachedEnd)
            return
        }
        var container = try decoder.unkeyedContainer()
        chatID = try container.decode(Int64.self)
        messages = try container.decode([Message].self)
        reachedEnd = try container.decode(Bool.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(chatID, forKey: .chatID)
            try container.encode(messages, forKey: .messages)
            try container.encode(reachedEnd, forKey: .reachedEnd)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(chatID)
        try container.encode(messages)
        try container.encode(reachedEnd)
    }
}

extension SendMessageRequest {
    enum CodingKeys: String, CodingKey {
        case chatID, clientID, text, attachments
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            chatID = try container.decode(Int64.self, forKey: .chatID)
            clientID = try container.decode(UInt64.self, forKey: .clientID)
            text = try container.decode(String.self, forKey: .text)
            attachments = try container.decode([Attachment].self, forKey: .attachments)
            return
        }
        var container = try decoder.unkeyedContainer()
        chatID = try container.decode(Int64.self)
        clientID = try container.decode(UInt64.self)
        text = try container.decode(String.self)
        attachments = try container.decodeTrailing([Attachment].self) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(chatID, forKey: .chatID)
            try container.encode(clientID, forKey: .clientID)
            try container.encode(text, forKey: .text)
            try container.encode(attachments, forKey: .attachments)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(chatID)
        try container.encode(clientID)
        try container.encode(text)
        let present = !attachments.isEmpty ? 1 : 0
        if present > 0 { try container.encode(attachments) }
    }
}

extension SendMessageReply {
    enum CodingKeys: String, CodingKey {
        case message
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            message = try container.decode(Message.self, forKey: .message)
            return
        }
        var container = try decoder.unkeyedContainer()
        message = try container.decode(Message.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(message, forKey: .message)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(message)
    }
}

extension MarkReadRequest {
    enum CodingKeys: String, CodingKey {
        case chatID, messageID
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            chatID = try container.decode(Int64.self, forKey: .chatID)
            messageID = try container.decode(Int64.self, forKey: .messageID)
            return
        }
        var container = try decoder.unkeyedContainer()
        chatID = try container.decode(Int64.self)
        messageID = try container.decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(chatID, forKey: .chatID)
            try container.encode(messageID, forKey: .messageID)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(chatID)
        try container.encode(messageID)
    }
}

extension Ack {
    public init(from decoder: any Decoder) throws {
        if decoder.wireFormat == .v2 { _ = try decoder.unkeyedContainer() } else { _ = try decoder.container(keyedBy: EmptyKeys.self) }
        self.init()
    }

    public func encode(to encoder: any Encoder) throws {
        if encoder.wireFormat == .v2 { _ = encoder.unkeyedContainer() } else { _ = encoder.container(keyedBy: EmptyKeys.self) }
    }
}

extension ErrorReply {
    enum CodingKeys: String, CodingKey {
        case code, text
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            code = try container.decode(ErrorReply.Code.self, forKey: .code)
            text = try container.decode(String.self, forKey: .text)
            return
        }
        var container = try decoder.unkeyedContainer()
        code = try container.decode(ErrorReply.Code.self)
        text = try container.decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(code, forKey: .code)
            try container.encode(text, forKey: .text)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(code)
        try container.encode(text)
    }
}
