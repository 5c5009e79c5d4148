import Foundation
import GRDB
import LowbandClient
import LowbandDeterminism
import LowbandFixtures
public import LowbandWire

/// A client cache file as a real user's phone holds it: `messages` messages over `chats` chats
/// (a few busy chats, many quiet ones), contacts, settings, history chunks and some messages
/// still waiting in the outbox. Built through the engine's own stores from seeded fixtures,
/// in a fresh temporary directory, before any measurement.
public struct ColdStartCache: Sendable {
    public struct Shape: Hashable, Sendable {
        public var messages: Int
        public var chats: Int
        public var contacts: Int
        /// Messages waiting to be sent; every fourth has a photo to upload first.
        public var outboxMessages: Int
        public var seed: UInt64

        public init(messages: Int = 10_000, chats: Int = 100, contacts: Int = 200, outboxMessages: Int = 8, seed: UInt64 = 5) {
            self.messages = messages
            self.chats = chats
            self.contacts = contacts
            self.outboxMessages = outboxMessages
            self.seed = seed
        }

        /// Messages per chat: a Zipf spread (with 100 chats the busiest holds about a fifth, the
        /// quietest about twenty), at least one each, summing to `messages`.
        public var messagesPerChat: [Int] {
            let weights = (0 ..< chats).map { 1 / Double($0 + 1) }
            let total = weights.reduce(0, +)
            var counts = weights.map { max(1, Int(Double(messages) * $0 / total)) }
            var excess = counts.reduce(0, +) - messages
            var index = 0
            while excess != 0 {
                // Rounding leaves a few too many or too few; the busiest chats absorb them first.
                let step = excess > 0 ? -1 : 1
                if counts[index % counts.count] + step >= 1 {
                    counts[index % counts.count] += step
                    excess += step
                }
                index += 1
            }
            return counts
        }
    }

    public let shape: Shape
    /// The database file.
    public let path: String
    /// The temporary directory holding it; ``remove()`` deletes it.
    public let directory: String
    /// The chats as stored, in the chat list's order (newest activity first, ties by id), each
    /// with the newest message inserted into it: what the first screen must show.
    public let expectedChats: [Chat]
    /// Outbox tasks waiting (sends and their uploads).
    public let expectedPendingTasks: Int

    /// Creates the directory and the file.
    ///
    /// - Throws: ``StartupBenchError`` when the directory or the database cannot be written.
    public static func create(_ shape: Shape = Shape()) throws -> ColdStartCache {
        guard shape.chats >= 1, shape.messages >= shape.chats else {
            throw StartupBenchError("a cold-start cache needs at least one chat and one message per chat, got \(shape.messages) messages in \(shape.chats) chats", at: "ColdStartCache.Shape")
        }
        let directory = try makeTemporaryDirectory()
        let path = directory + "/cache.sqlite"
        var fixtures = MessengerFixtures(seed: shape.seed)
        var random = SeededGenerator(seed: shape.seed).derived(0x5354_4152_5455_50)  // "STARTUP"
        let login = fixtures.loginReply(chats: shape.chats, contacts: shape.contacts)
        var chats: [Chat] = []
        var pages: [HistoryReply] = []
        for (chat, count) in zip(login.chats, shape.messagesPerChat) {
            let history = Self.history(of: chat, count: count, fixtures: &fixtures, random: &random)
            var stored = chat
            stored.lastMessage = history.last
            stored.updatedAt = history.last?.sentAt ?? chat.updatedAt
            chats.append(stored)
            pages.append(HistoryReply(chatID: chat.id, messages: history, reachedEnd: true))
        }
        do {
            let database = try CacheDatabase(path: path)
            let sync = SyncStore(writer: database.writer)
            let messages = MessageStore(writer: database.writer)
            let outbox = OutboxStore(writer: database.writer, clientIDs: ClientIDGenerator(generator: random.derived(1)))
            try sync.apply(login: LoginReply(userID: login.userID, serverTime: login.serverTime, settings: login.settings, contacts: login.contacts, chats: chats))
            for page in pages {
                try messages.apply(page: page, for: HistoryRequest(chatID: page.chatID, anchor: nil, direction: .older, count: page.messages.count))
            }
            var pending = 0
            for index in 0 ..< shape.outboxMessages {
                let chat = chats[Int(random.next(upperBound: UInt64(chats.count)))]
                let photo = index % 4 == 3 ? OutgoingAttachment(kind: .photo, data: bytes(4_096, &random), width: 640, height: 480) : nil
                pending += try outbox.enqueueMessage(chatID: chat.id, text: fixtures.text(), attachment: photo).count
            }
            return ColdStartCache(
                shape: shape, path: path, directory: directory,
                expectedChats: chats.sorted { ($0.updatedAt, -$0.id) > ($1.updatedAt, -$1.id) },
                expectedPendingTasks: pending)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw StartupBenchError("cannot build the cold-start cache: \(error)", at: path)
        }
    }

    /// What the file holds, counted by SQL: the check that the cache is the size it claims.
    public struct Counts: Hashable, Sendable {
        public var messages: Int
        public var chats: Int
        public var pendingTasks: Int
    }

    /// Counts the rows in the file, read-only.
    ///
    /// - Throws: ``StartupBenchError`` when the file cannot be read.
    public func storedCounts() throws -> Counts {
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            return try queue.read { db in
                Counts(
                    messages: try Int.fetchOne(db, sql: "SELECT count(*) FROM message") ?? 0,
                    chats: try Int.fetchOne(db, sql: "SELECT count(*) FROM chat") ?? 0,
                    pendingTasks: try Int.fetchOne(db, sql: "SELECT count(*) FROM outboxTask WHERE state = 'pending'") ?? 0)
            }
        } catch {
            throw StartupBenchError("cannot count the rows of the cold-start cache: \(error)", at: path)
        }
    }

    /// Deletes the directory and the file.
    public func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `count` messages of `chat`, oldest first, the newest sent at the chat's `updatedAt`:
    /// mostly quick replies, sometimes hours of silence.
    private static func history(of chat: Chat, count: Int, fixtures: inout MessengerFixtures, random: inout SeededGenerator) -> [Message] {
        var gaps: [Int64] = []
        for _ in 1 ..< count {
            let silence = random.next(upperBound: UInt64(4)) == 0
            gaps.append(silence ? Int64(random.next(upperBound: UInt64(8 * 3_600_000))) : 5_000 + Int64(random.next(upperBound: UInt64(300_000))))
        }
        var time = chat.updatedAt - gaps.reduce(0, +)
        var messages: [Message] = []
        messages.reserveCapacity(count)
        for index in 0 ..< count {
            if index > 0 { time += gaps[index - 1] }
            let sender = chat.memberIDs[Int(random.next(upperBound: UInt64(chat.memberIDs.count)))]
            messages.append(fixtures.message(chatID: chat.id, senderID: sender, at: time))
        }
        return messages
    }

    private static func bytes(_ count: Int, _ random: inout SeededGenerator) -> [UInt8] {
        (0 ..< count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    private static func makeTemporaryDirectory() throws -> String {
        let parent = FileManager.default.temporaryDirectory.path
        var template = Array((parent + "/lowband-startup-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else {
            throw StartupBenchError("cannot create a temporary directory: errno \(errno)", at: parent)
        }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private init(shape: Shape, path: String, directory: String, expectedChats: [Chat], expectedPendingTasks: Int) {
        self.shape = shape
        self.path = path
        self.directory = directory
        self.expectedChats = expectedChats
        self.expectedPendingTasks = expectedPendingTasks
    }
}
