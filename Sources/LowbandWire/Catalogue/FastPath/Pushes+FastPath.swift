public import LowbandMessagePack

// Hand-written MessagePack for the Pushes types in wire format v2 (docs/PROTOCOL.md): the same
// bytes as the Codable conformances write with `WireFormat.v2`, without the Codable machinery.

extension NewMessagePush: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 1)
        try message.writeMessagePack(to: &writer)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 1, of: "NewMessagePush")
        let message = try Message(messagePack: &reader)
        try reader.skipFields(fields, known: 1)
        self.init(message: message)
    }
}

extension ContactChangedPush: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 1)
        try contact.writeMessagePack(to: &writer)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 1, of: "ContactChangedPush")
        let contact = try Contact(messagePack: &reader)
        try reader.skipFields(fields, known: 1)
        self.init(contact: contact)
    }
}

extension ReadReceiptPush: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 4)
        writer.write(chatID)
        writer.write(readerID)
        writer.write(messageID)
        writer.write(readAt)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 4, of: "ReadReceiptPush")
        let chatID = try reader.readInt64()
        let readerID = try reader.readInt64()
        let messageID = try reader.readInt64()
        let readAt = try reader.readInt64()
        try reader.skipFields(fields, known: 4)
        self.init(chatID: chatID, readerID: readerID, messageID: messageID, readAt: readAt)
    }
}
