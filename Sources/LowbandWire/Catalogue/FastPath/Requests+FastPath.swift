public import LowbandMessagePack

// Hand-written MessagePack for the Requests types in wire format v2 (docs/PROTOCOL.md): the same
// bytes as the Codable conformances write with `WireFormat.v2`, without the Codable machinery.

extension HistoryRequest.Direction: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        writer.write(wireCode)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let start = reader.offset
        let code = try reader.readInteger(Int.self)
        guard let value = Self(wireCode: code) else { throw MessagePackError(.typeMismatch, "\(code) is not a case of HistoryRequest.Direction", offset: start) }
        self = value
    }
}

extension Ping: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 1)
        writer.write(clientTime)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 1, of: "Ping")
        let clientTime = try reader.readInt64()
        try reader.skipFields(fields, known: 1)
        self.init(clientTime: clientTime)
    }
}

extension Pong: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 1)
        writer.write(serverTime)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 1, of: "Pong")
        let serverTime = try reader.readInt64()
        try reader.skipFields(fields, known: 1)
        self.init(serverTime: serverTime)
    }
}

extension LoginRequest: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 2)
        try writer.write(token)
        writer.write(lastSync)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 2, of: "LoginRequest")
        let token = try reader.readString()
        let lastSync = try reader.readInt64()
        try reader.skipFields(fields, known: 2)
        self.init(token: token, lastSync: lastSync)
    }
}

extension LoginReply: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        let present = settings != nil ? 1 : 0
        try writer.writeArrayHeader(count: 4 + present)
        writer.write(userID)
        writer.write(serverTime)
        try contacts.writeMessagePack(to: &writer)
        try chats.writeMessagePack(to: &writer)
        if present > 0 { if let value = settings { try value.writeMessagePack(to: &writer) } else { writer.writeNil() } }
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 4, of: "LoginReply")
        let userID = try reader.readInt64()
        let serverTime = try reader.readInt64()
        let contacts = try [Contact](messagePack: &reader)
        let chats = try [Chat](messagePack: &reader)
        let settings: Settings? = fields > 4 ? try reader.readOptional { reader throws(MessagePackError) in try Settings(messagePack: &reader) } : nil
        try reader.skipFields(fields, known: 5)
        self.init(userID: userID, serverTime: serverTime, settings: settings, contacts: contacts, chats: chats)
    }
}

extension HistoryRequest: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        let present = anchor != nil ? 1 : 0
        try writer.writeArrayHeader(count: 3 + present)
        writer.write(chatID)
        try direction.writeMessagePack(to: &writer)
        writer.write(count)
        if present > 0 { if let value = anchor { writer.write(value) } else { writer.writeNil() } }
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 3, of: "HistoryRequest")
        let chatID = try reader.readInt64()
        let direction = try HistoryRequest.Direction(messagePack: &reader)
        let count = try reader.readInteger(Int.self)
        let anchor: Int64? = fields > 3 ? try reader.readOptional { reader throws(MessagePackError) in try reader.readInt64() } : nil
        try reader.skipFields(fields, known: 4)
        self.init(chatID: chatID, anchor: anchor, direction: direction, count: count)
    }
}

extension HistoryReply: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 3)
        writer.write(chatID)
        try messages.writeMessagePack(to: &writer)
        writer.write(reachedEnd)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 3, of: "HistoryReply")
        let chatID = try reader.readInt64()
        let messages = try [Message](messagePack: &reader)
        let reachedEnd = try reader.readBool()
        try reader.skipFields(fields, known: 3)
        self.init(chatID: chatID, messages: messages, reachedEnd: reachedEnd)
    }
}

extension SendMessageRequest: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        let present = !attachments.isEmpty ? 1 : 0
        try writer.writeArrayHeader(count: 3 + present)
        writer.write(chatID)
        writer.write(clientID)
        try writer.write(text)
        if present > 0 { try attachments.writeMessagePack(to: &writer) }
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 3, of: "SendMessageRequest")
        let chatID = try reader.readInt64()
        let clientID = try reader.readUInt64()
        let text = try reader.readString()
        let attachments: [Attachment] = fields > 3 ? (try reader.readOptional { reader throws(MessagePackError) in try [Attachment](messagePack: &reader) } ?? []) : []
        try reader.skipFields(fields, known: 4)
        self.init(chatID: chatID, clientID: clientID, text: text, attachments: attachments)
    }
}

extension SendMessageReply: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 1)
        try message.writeMessagePack(to: &writer)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 1, of: "SendMessageReply")
        let message = try Message(messagePack: &reader)
        try reader.skipFields(fields, known: 1)
        self.init(message: message)
    }
}

extension MarkReadRequest: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 2)
        writer.write(chatID)
        writer.write(messageID)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 2, of: "MarkReadRequest")
        let chatID = try reader.readInt64()
        let messageID = try reader.readInt64()
        try reader.skipFields(fields, known: 2)
        self.init(chatID: chatID, messageID: messageID)
    }
}

extension Ack: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 0)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 0, of: "Ack")
        try reader.skipFields(fields, known: 0)
        self.init()
    }
}

extension ErrorReply: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 2)
        writer.write(code.rawValue)
        try writer.write(text)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 2, of: "ErrorReply")
        let code = ErrorReply.Code(rawValue: try reader.readInteger(Int.self))
        let text = try reader.readString()
        try reader.skipFields(fields, known: 2)
        self.init(code: code, text: text)
    }
}
