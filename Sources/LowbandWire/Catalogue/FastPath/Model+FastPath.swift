public import LowbandMessagePack

// Hand-written MessagePack for the Model types in wire format v2 (docs/PROTOCOL.md): the same
// bytes as the Codable conformances write with `WireFormat.v2`, without the Codable machinery.

extension Attachment.Kind: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        writer.write(wireCode)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let start = reader.offset
        let code = try reader.readInteger(Int.self)
        guard let value = Self(wireCode: code) else { throw MessagePackError(.typeMismatch, "\(code) is not a case of Attachment.Kind", offset: start) }
        self = value
    }
}

extension Chat.Kind: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        writer.write(wireCode)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let start = reader.offset
        let code = try reader.readInteger(Int.self)
        guard let value = Self(wireCode: code) else { throw MessagePackError(.typeMismatch, "\(code) is not a case of Chat.Kind", offset: start) }
        self = value
    }
}

extension Settings: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 6)
        try writer.write(language)
        writer.write(notificationsEnabled)
        writer.write(previewInNotifications)
        writer.write(autoDownloadMediaOnCellular)
        try writer.write(theme)
        writer.write(updatedAt)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 6, of: "Settings")
        let language = try reader.readString()
        let notificationsEnabled = try reader.readBool()
        let previewInNotifications = try reader.readBool()
        let autoDownloadMediaOnCellular = try reader.readBool()
        let theme = try reader.readString()
        let updatedAt = try reader.readInt64()
        try reader.skipFields(fields, known: 6)
        self.init(language: language, notificationsEnabled: notificationsEnabled, previewInNotifications: previewInNotifications, autoDownloadMediaOnCellular: autoDownloadMediaOnCellular, theme: theme, updatedAt: updatedAt)
    }
}

extension Contact: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        let present = status != nil ? 2 : (avatar != nil ? 1 : 0)
        try writer.writeArrayHeader(count: 4 + present)
        writer.write(id)
        try writer.write(name)
        try writer.write(phone)
        writer.write(updatedAt)
        if present > 0 { if let value = avatar { try writer.write(value) } else { writer.writeNil() } }
        if present > 1 { if let value = status { try writer.write(value) } else { writer.writeNil() } }
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 4, of: "Contact")
        let id = try reader.readInt64()
        let name = try reader.readString()
        let phone = try reader.readString()
        let updatedAt = try reader.readInt64()
        let avatar: String? = fields > 4 ? try reader.readOptional { reader throws(MessagePackError) in try reader.readString() } : nil
        let status: String? = fields > 5 ? try reader.readOptional { reader throws(MessagePackError) in try reader.readString() } : nil
        try reader.skipFields(fields, known: 6)
        self.init(id: id, name: name, phone: phone, avatar: avatar, status: status, updatedAt: updatedAt)
    }
}

extension Attachment: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        let present = duration != nil ? 3 : (height != nil ? 2 : (width != nil ? 1 : 0))
        try writer.writeArrayHeader(count: 4 + present)
        try writer.write(id)
        try kind.writeMessagePack(to: &writer)
        writer.write(size)
        try writer.write(url)
        if present > 0 { if let value = width { writer.write(value) } else { writer.writeNil() } }
        if present > 1 { if let value = height { writer.write(value) } else { writer.writeNil() } }
        if present > 2 { if let value = duration { writer.write(value) } else { writer.writeNil() } }
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 4, of: "Attachment")
        let id = try reader.readString()
        let kind = try Attachment.Kind(messagePack: &reader)
        let size = try reader.readInt64()
        let url = try reader.readString()
        let width: Int? = fields > 4 ? try reader.readOptional { reader throws(MessagePackError) in try reader.readInteger(Int.self) } : nil
        let height: Int? = fields > 5 ? try reader.readOptional { reader throws(MessagePackError) in try reader.readInteger(Int.self) } : nil
        let duration: Int? = fields > 6 ? try reader.readOptional { reader throws(MessagePackError) in try reader.readInteger(Int.self) } : nil
        try reader.skipFields(fields, known: 7)
        self.init(id: id, kind: kind, size: size, width: width, height: height, duration: duration, url: url)
    }
}

extension Message: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        let present = !attachments.isEmpty ? 3 : (editedAt != nil ? 2 : (clientID != nil ? 1 : 0))
        try writer.writeArrayHeader(count: 5 + present)
        writer.write(id)
        writer.write(chatID)
        writer.write(senderID)
        try writer.write(text)
        writer.write(sentAt)
        if present > 0 { if let value = clientID { writer.write(value) } else { writer.writeNil() } }
        if present > 1 { if let value = editedAt { writer.write(value) } else { writer.writeNil() } }
        if present > 2 { try attachments.writeMessagePack(to: &writer) }
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 5, of: "Message")
        let id = try reader.readInt64()
        let chatID = try reader.readInt64()
        let senderID = try reader.readInt64()
        let text = try reader.readString()
        let sentAt = try reader.readInt64()
        let clientID: UInt64? = fields > 5 ? try reader.readOptional { reader throws(MessagePackError) in try reader.readUInt64() } : nil
        let editedAt: Int64? = fields > 6 ? try reader.readOptional { reader throws(MessagePackError) in try reader.readInt64() } : nil
        let attachments: [Attachment] = fields > 7 ? (try reader.readOptional { reader throws(MessagePackError) in try [Attachment](messagePack: &reader) } ?? []) : []
        try reader.skipFields(fields, known: 8)
        self.init(id: id, chatID: chatID, senderID: senderID, clientID: clientID, text: text, sentAt: sentAt, editedAt: editedAt, attachments: attachments)
    }
}

extension Chat: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        let present = lastMessage != nil ? 1 : 0
        try writer.writeArrayHeader(count: 6 + present)
        writer.write(id)
        try kind.writeMessagePack(to: &writer)
        try writer.write(title)
        try writer.writeIntegers(memberIDs)
        writer.write(unreadCount)
        writer.write(updatedAt)
        if present > 0 { if let value = lastMessage { try value.writeMessagePack(to: &writer) } else { writer.writeNil() } }
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 6, of: "Chat")
        let id = try reader.readInt64()
        let kind = try Chat.Kind(messagePack: &reader)
        let title = try reader.readString()
        let memberIDs = try reader.readIntegers()
        let unreadCount = try reader.readInteger(Int.self)
        let updatedAt = try reader.readInt64()
        let lastMessage: Message? = fields > 6 ? try reader.readOptional { reader throws(MessagePackError) in try Message(messagePack: &reader) } : nil
        try reader.skipFields(fields, known: 7)
        self.init(id: id, kind: kind, title: title, memberIDs: memberIDs, unreadCount: unreadCount, lastMessage: lastMessage, updatedAt: updatedAt)
    }
}
