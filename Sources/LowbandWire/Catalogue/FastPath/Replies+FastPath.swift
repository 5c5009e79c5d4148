public import LowbandMessagePack

// Hand-written MessagePack for the largest and most frequent catalogue messages; the same bytes
// as MessagePackEncoder writes through their Codable conformances.

extension LoginReply: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeMapHeader(count: 4 + (settings == nil ? 0 : 1))
        try writer.write(name: "userID")
        writer.write(userID)
        try writer.write(name: "serverTime")
        writer.write(serverTime)
        try writer.write(name: "settings", ifPresent: settings) { writer, value throws(MessagePackError) in try value.writeMessagePack(to: &writer) }
        try writer.write(name: "contacts")
        try contacts.writeMessagePack(to: &writer)
        try writer.write(name: "chats")
        try chats.writeMessagePack(to: &writer)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let start = reader.offset
        var userID: Int64?
        var serverTime: ServerTime?
        var settings: Settings??
        var contacts: [Contact]?
        var chats: [Chat]?
        for _ in 0 ..< (try reader.readMapHeader()) {
            switch try reader.readMapKey() {
            case "userID": try reader.readFirst(into: &userID) { reader throws(MessagePackError) in try reader.readInt64() }
            case "serverTime": try reader.readFirst(into: &serverTime) { reader throws(MessagePackError) in try reader.readInt64() }
            case "settings": try reader.readFirst(into: &settings) { reader throws(MessagePackError) in try reader.readOptional { reader throws(MessagePackError) in try Settings(messagePack: &reader) } }
            case "contacts": try reader.readFirst(into: &contacts) { reader throws(MessagePackError) in try [Contact](messagePack: &reader) }
            case "chats": try reader.readFirst(into: &chats) { reader throws(MessagePackError) in try [Chat](messagePack: &reader) }
            default: try reader.skipValue()
            }
        }
        self.init(
            userID: try required(userID, "userID", mapOffset: start),
            serverTime: try required(serverTime, "serverTime", mapOffset: start),
            settings: settings ?? nil,
            contacts: try required(contacts, "contacts", mapOffset: start),
            chats: try required(chats, "chats", mapOffset: start)
        )
    }
}

extension HistoryReply: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeMapHeader(count: 3)
        try writer.write(name: "chatID")
        writer.write(chatID)
        try writer.write(name: "messages")
        try messages.writeMessagePack(to: &writer)
        try writer.write(name: "reachedEnd")
        writer.write(reachedEnd)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let start = reader.offset
        var chatID: Int64?
        var messages: [Message]?
        var reachedEnd: Bool?
        for _ in 0 ..< (try reader.readMapHeader()) {
            switch try reader.readMapKey() {
            case "chatID": try reader.readFirst(into: &chatID) { reader throws(MessagePackError) in try reader.readInt64() }
            case "messages": try reader.readFirst(into: &messages) { reader throws(MessagePackError) in try [Message](messagePack: &reader) }
            case "reachedEnd": try reader.readFirst(into: &reachedEnd) { reader throws(MessagePackError) in try reader.readBool() }
            default: try reader.skipValue()
            }
        }
        self.init(
            chatID: try required(chatID, "chatID", mapOffset: start),
            messages: try required(messages, "messages", mapOffset: start),
            reachedEnd: try required(reachedEnd, "reachedEnd", mapOffset: start)
        )
    }
}

extension NewMessagePush: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeMapHeader(count: 1)
        try writer.write(name: "message")
        try message.writeMessagePack(to: &writer)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let start = reader.offset
        var message: Message?
        for _ in 0 ..< (try reader.readMapHeader()) {
            switch try reader.readMapKey() {
            case "message": try reader.readFirst(into: &message) { reader throws(MessagePackError) in try Message(messagePack: &reader) }
            default: try reader.skipValue()
            }
        }
        self.init(message: try required(message, "message", mapOffset: start))
    }
}
