import LowbandDeterminism
import LowbandServer
public import LowbandWire

/// Seeded, realistic messenger data: the same seed gives the same payloads in every process.
///
/// Sizes follow what a chat app sees: most messages are a few words, a tail is long, about one
/// in ten carries an attachment, texts mix Latin, Cyrillic, CJK and emoji. Times count from a
/// fixed epoch, never from the wall clock.
public struct MessengerFixtures: Sendable {
    /// 2026-01-01T00:00:00Z in milliseconds: the fixtures' "now" before any message is sent,
    /// where a server's clock starts unless told otherwise.
    public static let epoch: ServerTime = ServerConfiguration.standardEpoch

    private var random: SeededGenerator
    private var nextMessageID: Int64 = 1_000

    /// Fixtures drawn from `seed`: two values made with the same seed give the same payloads, call
    /// for call.
    public init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// The reply to a first login: settings, `contacts` contacts and `chats` chats with last messages.
    public mutating func loginReply(chats chatCount: Int = 50, contacts contactCount: Int = 200, userID: Int64 = 1) -> LoginReply {
        let contacts = self.contacts(contactCount)
        let chats = (0 ..< chatCount).map { index in
            chat(id: Int64(index + 1), userID: userID, contacts: contacts)
        }
        return LoginReply(userID: userID, serverTime: Self.epoch + 86_400_000, settings: settings(), contacts: contacts, chats: chats)
    }

    /// A page of `count` consecutive messages of one chat, oldest first.
    public mutating func historyPage(chatID: Int64 = 1, count: Int = 50, members: [Int64] = [1, 2, 3, 4]) -> HistoryReply {
        var time = Self.epoch + Int64(roll(1_000_000))
        let messages = (0 ..< count).map { _ in
            time += Int64(roll(600_000))
            return message(chatID: chatID, senderID: members.randomElement(using: &random)!, at: time)
        }
        return HistoryReply(chatID: chatID, messages: messages, reachedEnd: false)
    }

    /// A push of one new message with its full content.
    public mutating func newMessagePush(chatID: Int64 = 1, senderID: Int64 = 2) -> NewMessagePush {
        NewMessagePush(message: message(chatID: chatID, senderID: senderID, at: Self.epoch + Int64(roll(86_400_000))))
    }

    /// `count` contacts with distinct ids starting at 2 (id 1 is the user).
    public mutating func contacts(_ count: Int) -> [Contact] {
        (0 ..< count).map { index in
            let name = TextCorpus.firstNames.randomElement(using: &random)! + " " + TextCorpus.lastNames.randomElement(using: &random)!
            let phone = "+7 7" + String(format9Digits(roll(1_000_000_000)))
            let hasAvatar = roll(10) < 7
            let avatar = hasAvatar ? "https://cdn.example/avatars/\(roll(1 << 40)).jpg" : nil
            let status = roll(3) == 0 ? TextCorpus.statuses.randomElement(using: &random)! : nil
            return Contact(id: Int64(index + 2), name: name, phone: phone, avatar: avatar, status: status, updatedAt: Self.epoch - Int64(roll(10_000_000_000)))
        }
    }

    /// One message with realistic text and, sometimes, an attachment.
    public mutating func message(chatID: Int64, senderID: Int64, at time: ServerTime) -> Message {
        nextMessageID += 1
        let attachments = roll(10) == 0 ? [attachment()] : []
        let clientID: UInt64? = roll(2) == 0 ? random.next() : nil
        return Message(id: nextMessageID, chatID: chatID, senderID: senderID, clientID: clientID, text: text(), sentAt: time, attachments: attachments)
    }

    /// Message text: mostly a few words, sometimes a paragraph, in one script with some emoji.
    public mutating func text() -> String {
        let lengthClass = roll(100)
        let words = lengthClass < 60 ? 1 + roll(6) : lengthClass < 92 ? 6 + roll(20) : 30 + roll(120)
        let script = roll(10)
        let pool = script < 4 ? TextCorpus.latin : script < 8 ? TextCorpus.cyrillic : TextCorpus.cjk
        var parts: [String] = []
        parts.reserveCapacity(words + 1)
        for _ in 0 ..< words {
            parts.append(pool.randomElement(using: &random)!)
            if roll(12) == 0 { parts.append(TextCorpus.emoji.randomElement(using: &random)!) }
        }
        return parts.joined(separator: pool == TextCorpus.cjk ? "" : " ")
    }

    private mutating func chat(id: Int64, userID: Int64, contacts: [Contact]) -> Chat {
        let isGroup = roll(3) == 0
        let others = contacts.isEmpty ? [userID + 1] : (0 ..< (isGroup ? 2 + (roll(30)) : 1)).map { _ in contacts.randomElement(using: &random)!.id }
        let members = [userID] + others
        let title = isGroup ? TextCorpus.groupTitles.randomElement(using: &random)! : (contacts.first { $0.id == others[0] }?.name ?? "Chat \(id)")
        let time = Self.epoch + Int64(roll(86_400_000))
        let last = message(chatID: id, senderID: members.randomElement(using: &random)!, at: time)
        let unread = roll(2) == 0 ? 0 : (roll(40))
        return Chat(id: id, kind: isGroup ? .group : .direct, title: title, memberIDs: members, unreadCount: unread, lastMessage: last, updatedAt: time)
    }

    private mutating func attachment() -> Attachment {
        let kind = [Attachment.Kind.photo, .photo, .photo, .video, .voice, .file, .sticker].randomElement(using: &random)!
        let id = String(random.next(), radix: 36)
        switch kind {
        case .photo, .sticker:
            return Attachment(id: id, kind: kind, size: Int64(20_000 + roll(2_000_000)), width: 1280, height: 960, url: "https://cdn.example/p/\(id).jpg")
        case .video:
            return Attachment(id: id, kind: kind, size: Int64(500_000 + roll(20_000_000)), width: 720, height: 1280, duration: (roll(60_000)), url: "https://cdn.example/v/\(id).mp4")
        case .voice:
            return Attachment(id: id, kind: kind, size: Int64(5_000 + roll(200_000)), duration: (roll(120_000)), url: "https://cdn.example/a/\(id).ogg")
        case .file:
            return Attachment(id: id, kind: kind, size: Int64(1_000 + roll(5_000_000)), url: "https://cdn.example/f/\(id).pdf")
        }
    }

    private mutating func settings() -> Settings {
        Settings(language: ["ru", "kk", "en", "zh"].randomElement(using: &random)!, notificationsEnabled: true, previewInNotifications: roll(2) == 0, autoDownloadMediaOnCellular: false, theme: "system", updatedAt: Self.epoch - 3_600_000)
    }

    /// A uniform integer in 0 ..< bound.
    private mutating func roll(_ bound: Int) -> Int {
        Int(random.next(upperBound: UInt64(bound)))
    }

    private func format9Digits(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 9 - digits.count)) + digits
    }
}
