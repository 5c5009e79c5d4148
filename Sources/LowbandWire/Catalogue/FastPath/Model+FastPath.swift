public import LowbandMessagePack

// Hand-written MessagePack for the catalogue's model types: the same bytes as
// MessagePackEncoder writes through their Codable conformances, without the Codable machinery.

extension Settings: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeMapHeader(count: 6)
        try writer.write(name: "language")
        try writer.write(language)
        try writer.write(name: "notificationsEnabled")
        writer.write(notificationsEnabled)
        try writer.write(name: "previewInNotifications")
        writer.write(previewInNotifications)
        try writer.write(name: "autoDownloadMediaOnCellular")
        writer.write(autoDownloadMediaOnCellular)
        try writer.write(name: "theme")
        try writer.write(theme)
        try writer.write(name: "updatedAt")
        writer.write(updatedAt)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let start = reader.offset
        var language: String?
        var notificationsEnabled: Bool?
        var previewInNotifications: Bool?
        var autoDownloadMediaOnCellular: Bool?
        var theme: String?
        var updatedAt: ServerTime?
        for _ in 0 ..< (try reader.readMapHeader()) {
            switch try reader.readMapKey() {
            case "language": try reader.readFirst(into: &language) { reader throws(MessagePackError) in try reader.readString() }
            case "notificationsEnabled": try reader.readFirst(into: &notificationsEnabled) { reader throws(MessagePackError) in try reader.readBool() }
            case "previewInNotifications": try reader.readFirst(into: &previewInNotifications) { reader throws(MessagePackError) in try reader.readBool() }
            case "autoDownloadMediaOnCellular": try reader.readFirst(into: &autoDownloadMediaOnCellular) { reader throws(MessagePackError) in try reader.readBool() }
            case "theme": try reader.readFirst(into: &theme) { reader throws(MessagePackError) in try reader.readString() }
            case "updatedAt": try reader.readFirst(into: &updatedAt) { reader throws(MessagePackError) in try reader.readInt64() }
            default: try reader.skipValue()
            }
        }
        self.init(
            language: try required(language, "language", mapOffset: start),
            notificationsEnabled: try required(notificationsEnabled, "notificationsEnabled", mapOffset: start),
            previewInNotifications: try required(previewInNotifications, "previewInNotifications", mapOffset: start),
            autoDownloadMediaOnCellular: try required(autoDownloadMediaOnCellular, "autoDownloadMediaOnCellular", mapOffset: start),
            theme: try required(theme, "theme", mapOffset: start),
            updatedAt: try required(updatedAt, "updatedAt", mapOffset: start)
        )
    }
}

extension Contact: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeMapHeader(count: 4 + (avatar == nil ? 0 : 1) + (status == nil ? 0 : 1))
        try writer.write(name: "id")
        writer.write(id)
        try writer.write(name: "name")
        try writer.write(name)
        try writer.write(name: "phone")
        try writer.write(phone)
        try writer.write(name: "avatar", ifPresent: avatar) { writer, value throws(MessagePackError) in try writer.write(value) }
        try writer.write(name: "status", ifPresent: status) { writer, value throws(MessagePackError) in try writer.write(value) }
        try writer.write(name: "updatedAt")
        writer.write(updatedAt)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let start = reader.offset
        var id: Int64?
        var name: String?
        var phone: String?
        var avatar: String??
        var status: String??
        var updatedAt: ServerTime?
        for _ in 0 ..< (try reader.readMapHeader()) {
            switch try reader.readMapKey() {
            case "id": try reader.readFirst(into: &id) { reader throws(MessagePackError) in try reader.readInt64() }
            case "name": try reader.readFirst(into: &name) { reader throws(MessagePackError) in try reader.readString() }
            case "phone": try reader.readFirst(into: &phone) { reader throws(MessagePackError) in try reader.readString() }
            case "avatar": try reader.readFirst(into: &avatar) { reader throws(MessagePackError) in try reader.readOptional { reader throws(MessagePackError) in try reader.readString() } }
            case "status": try reader.readFirst(into: &status) { reader throws(MessagePackError) in try reader.readOptional { reader throws(MessagePackError) in try reader.readString() } }
            case "updatedAt": try reader.readFirst(into: &updatedAt) { reader throws(MessagePackError) in try reader.readInt64() }
            default: try reader.skipValue()
            }
        }
        self.init(
            id: try required(id, "id", mapOffset: start),
            name: try required(name, "name", mapOffset: start),
            phone: try required(phone, "phone", mapOffset: start),
            avatar: avatar ?? nil,
            status: status ?? nil,
            updatedAt: try required(updatedAt, "updatedAt", mapOffset: start)
        )
    }
}

extension Attachment.Kind: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.write(rawValue)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let start = reader.offset
        let name = try reader.readName()
        switch name {
        case "photo": self = .photo
        case "video": self = .video
        case "voice": self = .voice
        case "file": self = .file
        case "sticker": self = .sticker
        default: throw MessagePackError.unknownName(name, of: "Attachment.Kind", offset: start)
        }
    }
}

extension Attachment: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeMapHeader(count: 4 + (width == nil ? 0 : 1) + (height == nil ? 0 : 1) + (duration == nil ? 0 : 1))
        try writer.write(name: "id")
        try writer.write(id)
        try writer.write(name: "kind")
        try kind.writeMessagePack(to: &writer)
        try writer.write(name: "size")
        writer.write(size)
        try writer.write(name: "width", ifPresent: width) { writer, value throws(MessagePackError) in writer.write(value) }
        try writer.write(name: "height", ifPresent: height) { writer, value throws(MessagePackError) in writer.write(value) }
        try writer.write(name: "duration", ifPresent: duration) { writer, value throws(MessagePackError) in writer.write(value) }
        try writer.write(name: "url")
        try writer.write(url)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let start = reader.offset
        var id: String?
        var kind: Kind?
        var size: Int64?
        var width: Int??
        var height: Int??
        var duration: Int??
        var url: String?
        for _ in 0 ..< (try reader.readMapHeader()) {
            switch try reader.readMapKey() {
            case "id": try reader.readFirst(into: &id) { reader throws(MessagePackError) in try reader.readString() }
            case "kind": try reader.readFirst(into: &kind) { reader throws(MessagePackError) in try Kind(messagePack: &reader) }
            case "size": try reader.readFirst(into: &size) { reader throws(MessagePackError) in try reader.readInt64() }
            case "width": try reader.readFirst(into: &width) { reader throws(MessagePackError) in try reader.readOptional { reader throws(MessagePackError) in try reader.readInteger(Int.self) } }
            case "height": try reader.readFirst(into: &height) { reader throws(MessagePackError) in try reader.readOptional { reader throws(MessagePackError) in try reader.readInteger(Int.self) } }
            case "duration": try reader.readFirst(into: &duration) { reader throws(MessagePackError) in try reader.readOptional { reader throws(MessagePackError) in try reader.readInteger(Int.self) } }
            case "url": try reader.readFirst(into: &url) { reader throws(MessagePackError) in try reader.readString() }
            default: try reader.skipValue()
            }
        }
        self.init(
            id: try required(id, "id", mapOffset: start),
            kind: try required(kind, "kind", mapOffset: start),
            size: try required(size, "size", mapOffset: start),
            width: width ?? nil,
            height: height ?? nil,
            duration: duration ?? nil,
            url: try required(url, "url", mapOffset: start)
        )
    }
}

extension Message: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        let optionals = (clientID == nil ? 0 : 1) + (editedAt == nil ? 0 : 1) + (attachments.isEmpty ? 0 : 1)
        try writer.writeMapHeader(count: 5 + optionals)
        try writer.write(name: "id")
        writer.write(id)
        try writer.write(name: "chat")
        writer.write(chatID)
        try writer.write(name: "from")
        writer.write(senderID)
        try writer.write(name: "cid", ifPresent: clientID) { writer, value throws(MessagePackError) in writer.write(value) }
        try writer.write(name: "text")
        try writer.write(text)
        try writer.write(name: "at")
        writer.write(sentAt)
        try writer.write(name: "ed", ifPresent: editedAt) { writer, value throws(MessagePackError) in writer.write(value) }
        if !attachments.isEmpty {
            try writer.write(name: "att")
            try attachments.writeMessagePack(to: &writer)
        }
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let start = reader.offset
        var id: Int64?
        var chatID: Int64?
        var senderID: Int64?
        var clientID: UInt64??
        var text: String?
        var sentAt: ServerTime?
        var editedAt: ServerTime??
        var attachments: [Attachment]??
        for _ in 0 ..< (try reader.readMapHeader()) {
            switch try reader.readMapKey() {
            case "id": try reader.readFirst(into: &id) { reader throws(MessagePackError) in try reader.readInt64() }
            case "chat": try reader.readFirst(into: &chatID) { reader throws(MessagePackError) in try reader.readInt64() }
            case "from": try reader.readFirst(into: &senderID) { reader throws(MessagePackError) in try reader.readInt64() }
            case "cid": try reader.readFirst(into: &clientID) { reader throws(MessagePackError) in try reader.readOptional { reader throws(MessagePackError) in try reader.readUInt64() } }
            case "text": try reader.readFirst(into: &text) { reader throws(MessagePackError) in try reader.readString() }
            case "at": try reader.readFirst(into: &sentAt) { reader throws(MessagePackError) in try reader.readInt64() }
            case "ed": try reader.readFirst(into: &editedAt) { reader throws(MessagePackError) in try reader.readOptional { reader throws(MessagePackError) in try reader.readInt64() } }
            case "att": try reader.readFirst(into: &attachments) { reader throws(MessagePackError) in try reader.readOptional { reader throws(MessagePackError) in try [Attachment](messagePack: &reader) } }
            default: try reader.skipValue()
            }
        }
        self.init(
            id: try required(id, "id", mapOffset: start),
            chatID: try required(chatID, "chat", mapOffset: start),
            senderID: try required(senderID, "from", mapOffset: start),
            clientID: clientID ?? nil,
            text: try required(text, "text", mapOffset: start),
            sentAt: try required(sentAt, "at", mapOffset: start),
            editedAt: editedAt ?? nil,
            attachments: (attachments ?? nil) ?? []
        )
    }
}

extension Chat.Kind: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.write(rawValue)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let start = reader.offset
        let name = try reader.readName()
        switch name {
        case "direct": self = .direct
        case "group": self = .group
        default: throw MessagePackError.unknownName(name, of: "Chat.Kind", offset: start)
        }
    }
}

extension Chat: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeMapHeader(count: 6 + (lastMessage == nil ? 0 : 1))
        try writer.write(name: "id")
        writer.write(id)
        try writer.write(name: "kind")
        try kind.writeMessagePack(to: &writer)
        try writer.write(name: "title")
        try writer.write(title)
        try writer.write(name: "memberIDs")
        try writer.writeArrayHeader(count: memberIDs.count)
        for member in memberIDs { writer.write(member) }
        try writer.write(name: "unreadCount")
        writer.write(unreadCount)
        try writer.write(name: "lastMessage", ifPresent: lastMessage) { writer, value throws(MessagePackError) in try value.writeMessagePack(to: &writer) }
        try writer.write(name: "updatedAt")
        writer.write(updatedAt)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let start = reader.offset
        var id: Int64?
        var kind: Kind?
        var title: String?
        var memberIDs: [Int64]?
        var unreadCount: Int?
        var lastMessage: Message??
        var updatedAt: ServerTime?
        for _ in 0 ..< (try reader.readMapHeader()) {
            switch try reader.readMapKey() {
            case "id": try reader.readFirst(into: &id) { reader throws(MessagePackError) in try reader.readInt64() }
            case "kind": try reader.readFirst(into: &kind) { reader throws(MessagePackError) in try Kind(messagePack: &reader) }
            case "title": try reader.readFirst(into: &title) { reader throws(MessagePackError) in try reader.readString() }
            case "memberIDs": try reader.readFirst(into: &memberIDs) { reader throws(MessagePackError) in try Self.readMembers(&reader) }
            case "unreadCount": try reader.readFirst(into: &unreadCount) { reader throws(MessagePackError) in try reader.readInteger(Int.self) }
            case "lastMessage": try reader.readFirst(into: &lastMessage) { reader throws(MessagePackError) in try reader.readOptional { reader throws(MessagePackError) in try Message(messagePack: &reader) } }
            case "updatedAt": try reader.readFirst(into: &updatedAt) { reader throws(MessagePackError) in try reader.readInt64() }
            default: try reader.skipValue()
            }
        }
        self.init(
            id: try required(id, "id", mapOffset: start),
            kind: try required(kind, "kind", mapOffset: start),
            title: try required(title, "title", mapOffset: start),
            memberIDs: try required(memberIDs, "memberIDs", mapOffset: start),
            unreadCount: try required(unreadCount, "unreadCount", mapOffset: start),
            lastMessage: lastMessage ?? nil,
            updatedAt: try required(updatedAt, "updatedAt", mapOffset: start)
        )
    }

    private static func readMembers(_ reader: inout MessagePackReader) throws(MessagePackError) -> [Int64] {
        let count = try reader.readArrayHeader()
        var members: [Int64] = []
        members.reserveCapacity(count)
        for _ in 0 ..< count { members.append(try reader.readInt64()) }
        return members
    }
}
