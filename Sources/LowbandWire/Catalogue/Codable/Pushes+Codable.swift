// Codable for the Pushes types: the reference implementation of both payload layouts. Without
// `WireFormat.v2` in the coder's userInfo (JSON, caches, wire format v1) values are maps keyed by
// name; with it they are v2's positional arrays (docs/PROTOCOL.md). The fast path
// (FastPath/) must write exactly these v2 bytes.

extension NewMessagePush {
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

extension ContactChangedPush {
    enum CodingKeys: String, CodingKey {
        case contact
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            contact = try container.decode(Contact.self, forKey: .contact)
            return
        }
        var container = try decoder.unkeyedContainer()
        contact = try container.decode(Contact.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(contact, forKey: .contact)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(contact)
    }
}

extension ReadReceiptPush {
    enum CodingKeys: String, CodingKey {
        case chatID, readerID, messageID, readAt
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            chatID = try container.decode(Int64.self, forKey: .chatID)
            readerID = try container.decode(Int64.self, forKey: .readerID)
            messageID = try container.decode(Int64.self, forKey: .messageID)
            readAt = try container.decode(Int64.self, forKey: .readAt)
            return
        }
        var container = try decoder.unkeyedContainer()
        chatID = try container.decode(Int64.self)
        readerID = try container.decode(Int64.self)
        messageID = try container.decode(Int64.self)
        readAt = try container.decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(chatID, forKey: .chatID)
            try container.encode(readerID, forKey: .readerID)
            try container.encode(messageID, forKey: .messageID)
            try container.encode(readAt, forKey: .readAt)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(chatID)
        try container.encode(readerID)
        try container.encode(messageID)
        try container.encode(readAt)
    }
}
