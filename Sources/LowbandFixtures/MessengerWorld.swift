import LowbandDeterminism
public import LowbandWire

/// A whole messenger's data, seeded: users with login tokens, their settings and contacts,
/// direct and group chats with their history and read positions.
///
/// The in-process server starts from one of these. The same seed and shape give the same
/// world in every process — names, texts, ids, times and tokens alike. Texts and attachments
/// come from ``MessengerFixtures`` (mostly a few words, a long tail, about one message in ten
/// with an attachment; Latin, Cyrillic, CJK and emoji). Every time is before
/// ``MessengerFixtures/epoch``: the server's clock starts there.
public struct MessengerWorld: Sendable, Hashable {
    /// How big the world is.
    public struct Shape: Sendable, Hashable {
        /// Users in the world; at least 2.
        public var users: Int
        /// Chats each user is in, at least (group chats add members beyond this).
        public var chatsPerUser: Int
        /// Messages in every chat's history.
        public var messagesPerChat: Int
        /// Contacts each user has besides the people they share a chat with.
        public var extraContactsPerUser: Int

        /// A shape; 20 users in 8 chats each of 40 messages, with 3 extra contacts, by default.
        ///
        /// - Precondition: at least 2 users, and no figure negative.
        public init(users: Int = 20, chatsPerUser: Int = 8, messagesPerChat: Int = 40, extraContactsPerUser: Int = 3) {
            precondition(users >= 2, "a messenger world needs at least 2 users")
            precondition(chatsPerUser >= 0 && messagesPerChat >= 0 && extraContactsPerUser >= 0, "shape figures must not be negative")
            self.users = users
            self.chatsPerUser = chatsPerUser
            self.messagesPerChat = messagesPerChat
            self.extraContactsPerUser = extraContactsPerUser
        }
    }

    /// A user: profile, login token, settings and address book.
    public struct User: Sendable, Hashable {
        /// The user's id, from 1.
        public var id: Int64
        /// The login token, derived from the seed.
        public var token: String
        /// The name others see.
        public var name: String
        /// The phone number, as written.
        public var phone: String
        /// Avatar image URL, if the user has one.
        public var avatar: String?
        /// Free-text status line, if the user has one.
        public var status: String?
        /// When the profile (name, avatar, status) last changed.
        public var profileUpdatedAt: ServerTime
        /// The user's settings, as a login sends them.
        public var settings: Settings
        /// Other users in the address book, ascending.
        public var contactIDs: [Int64]

        /// A user with every field given.
        public init(
            id: Int64, token: String, name: String, phone: String, avatar: String?, status: String?,
            profileUpdatedAt: ServerTime, settings: Settings, contactIDs: [Int64]
        ) {
            self.id = id
            self.token = token
            self.name = name
            self.phone = phone
            self.avatar = avatar
            self.status = status
            self.profileUpdatedAt = profileUpdatedAt
            self.settings = settings
            self.contactIDs = contactIDs
        }

        /// The user as a contact in someone else's address book.
        public var contact: Contact {
            Contact(id: id, name: name, phone: phone, avatar: avatar, status: status, updatedAt: profileUpdatedAt)
        }
    }

    /// A chat with its whole history.
    public struct ChatHistory: Sendable, Hashable {
        /// The chat's id, from 1.
        public var id: Int64
        /// Direct (two members) or group.
        public var kind: Chat.Kind
        /// The group's title; nil for a direct chat, whose title is the other member's name.
        public var title: String?
        /// Ascending.
        public var memberIDs: [Int64]
        /// Oldest first; ids ascend.
        public var messages: [Message]
        /// For each member (same order as `memberIDs`), the id of the newest message they have
        /// read (0: none).
        public var readUpTo: [Int64]
    }

    /// The seed the world was generated from.
    public let seed: UInt64
    /// How big the world is.
    public let shape: Shape
    /// Ascending ids from 1.
    public private(set) var users: [User]
    /// Ascending ids from 1.
    public private(set) var chats: [ChatHistory]

    /// Generates the world of `seed` and `shape`.
    public init(seed: UInt64, shape: Shape = Shape()) {
        self.seed = seed
        self.shape = shape
        var generator = WorldGenerator(seed: seed, shape: shape)
        users = generator.makeUsers()
        chats = generator.makeChats(users: users)
        generator.fillContacts(&users, chats: chats)
    }

    /// The user with `id`, if any.
    public func user(_ id: Int64) -> User? {
        id >= 1 && id <= Int64(users.count) ? users[Int(id - 1)] : nil
    }

    /// The chat with `id`, if any.
    public func chat(_ id: Int64) -> ChatHistory? {
        id >= 1 && id <= Int64(chats.count) ? chats[Int(id - 1)] : nil
    }

    /// The chats `userID` is a member of, ascending by id.
    public func chats(of userID: Int64) -> [ChatHistory] {
        chats.filter { $0.memberIDs.contains(userID) }
    }

    /// The direct chat between two users, if they have one.
    public func directChat(between first: Int64, and second: Int64) -> ChatHistory? {
        let pair = [min(first, second), max(first, second)]
        return chats.first { $0.kind == .direct && $0.memberIDs == pair }
    }
}

/// Draws a world from independent streams of one seed, so growing one part never shifts another.
private struct WorldGenerator {
    let seed: UInt64
    let shape: MessengerWorld.Shape
    let root: SeededGenerator
    var random: SeededGenerator
    var texts: MessengerFixtures

    init(seed: UInt64, shape: MessengerWorld.Shape) {
        self.seed = seed
        self.shape = shape
        root = SeededGenerator(seed: seed).derived(0x574F_524C_44)  // "WORLD"
        random = root.derived(1)
        var textSeed = root.derived(2)
        texts = MessengerFixtures(seed: textSeed.next())
    }

    mutating func roll(_ bound: Int) -> Int {
        bound <= 1 ? 0 : Int(random.next(upperBound: UInt64(bound)))
    }

    mutating func makeUsers() -> [MessengerWorld.User] {
        let languages = ["ru", "kk", "en", "zh", "ja", "ko", "es"]
        return (1 ... Int64(shape.users)).map { id in
            var tokenStream = root.derived(3, UInt64(id))
            let secret = String(tokenStream.next(), radix: 16)
            let token = "lb\(id)-" + String(repeating: "0", count: 16 - secret.count) + secret
            let name = TextCorpus.firstNames.randomElement(using: &random)! + " " + TextCorpus.lastNames.randomElement(using: &random)!
            let digits = String(roll(1_000_000_000))
            let phone = "+7 7" + String(repeating: "0", count: 9 - digits.count) + digits
            let avatar = roll(10) < 7 ? "https://cdn.example/avatars/\(random.next() >> 24).jpg" : nil
            let status = roll(3) == 0 ? TextCorpus.statuses.randomElement(using: &random)! : nil
            let profileUpdatedAt = MessengerFixtures.epoch - 3_600_000 - Int64(roll(30 * 86_400_000))
            let settings = Settings(
                language: languages.randomElement(using: &random)!,
                notificationsEnabled: roll(10) != 0,
                previewInNotifications: roll(2) == 0,
                autoDownloadMediaOnCellular: roll(4) == 0,
                theme: ["system", "light", "dark"].randomElement(using: &random)!,
                updatedAt: MessengerFixtures.epoch - 3_600_000 - Int64(roll(90 * 86_400_000))
            )
            return MessengerWorld.User(
                id: id, token: token, name: name, phone: phone, avatar: avatar, status: status,
                profileUpdatedAt: profileUpdatedAt, settings: settings, contactIDs: []
            )
        }
    }

    mutating func makeChats(users: [MessengerWorld.User]) -> [MessengerWorld.ChatHistory] {
        let count = users.count
        var chatCounts = [Int](repeating: 0, count: count + 1)
        var directPairs: Set<[Int64]> = []
        var memberSets: [(members: [Int64], isGroup: Bool)] = []
        for user in 1 ... Int64(count) {
            var attempts = 0
            while chatCounts[Int(user)] < shape.chatsPerUser, attempts < shape.chatsPerUser * 4 {
                attempts += 1
                var members: [Int64]
                let isGroup = roll(10) >= 6
                if !isGroup {
                    let partner = Int64(1 + roll(count))
                    let pair = [min(user, partner), max(user, partner)]
                    guard partner != user, !directPairs.contains(pair) else { continue }
                    directPairs.insert(pair)
                    members = pair
                } else {
                    let size = min(count, 3 + roll(8))
                    var set: Set<Int64> = [user]
                    while set.count < size { set.insert(Int64(1 + roll(count))) }
                    members = set.sorted()
                }
                for member in members { chatCounts[Int(member)] += 1 }
                memberSets.append((members, isGroup))
            }
        }
        var nextMessageID: Int64 = 1
        return memberSets.enumerated().map { index, chat in
            let (members, isGroup) = chat
            let id = Int64(index + 1)
            var time = MessengerFixtures.epoch - 60_000 - Int64(roll(14 * 86_400_000))
            var gaps: [Int64] = []
            for _ in 0 ..< shape.messagesPerChat {
                // Mostly quick replies, sometimes hours of silence.
                gaps.append(roll(4) == 0 ? Int64(roll(8 * 3_600_000)) : Int64(5_000 + roll(300_000)))
            }
            time -= gaps.reduce(0, +)
            var messages: [Message] = []
            messages.reserveCapacity(shape.messagesPerChat)
            for gap in gaps {
                time += gap
                var message = texts.message(chatID: id, senderID: members.randomElement(using: &random)!, at: time)
                message.id = nextMessageID
                message.clientID = nil
                nextMessageID += 1
                messages.append(message)
            }
            let readUpTo: [Int64] = members.map { _ in
                guard !messages.isEmpty else { return 0 }
                let unread = roll(3) == 0 ? 1 + roll(min(messages.count, 12)) : 0
                return unread >= messages.count ? 0 : messages[messages.count - 1 - unread].id
            }
            let title = isGroup ? TextCorpus.groupTitles.randomElement(using: &random)! : nil
            return MessengerWorld.ChatHistory(id: id, kind: isGroup ? .group : .direct, title: title, memberIDs: members, messages: messages, readUpTo: readUpTo)
        }
    }

    mutating func fillContacts(_ users: inout [MessengerWorld.User], chats: [MessengerWorld.ChatHistory]) {
        var contacts = [Set<Int64>](repeating: [], count: users.count + 1)
        for chat in chats {
            for member in chat.memberIDs {
                contacts[Int(member)].formUnion(chat.memberIDs)
            }
        }
        for index in users.indices {
            let id = users[index].id
            for _ in 0 ..< shape.extraContactsPerUser {
                contacts[Int(id)].insert(Int64(1 + roll(users.count)))
            }
            contacts[Int(id)].remove(id)
            users[index].contactIDs = contacts[Int(id)].sorted()
        }
    }
}
