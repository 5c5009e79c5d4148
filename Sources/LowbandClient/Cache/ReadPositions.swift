import GRDB
import LowbandWire

/// Read positions and unread counts inside the caller's transaction: the one place that
/// states their rules, so every path (a live message, the user reading, a receipt, a login)
/// keeps the same ones. A live message's effect is decided here and written by
/// ``MessageStore/applyLive(_:_:)`` together with the chat's last message.
///
/// The unread messages of a chat are always its newest `unreadCount` messages from other
/// members (the server counts those above the user's position). The count is the server's at
/// each login, then kept here:
/// - a new live message from another member above the position adds one;
/// - a position moving to `p` leaves `min(count, others' messages above p)`: exact when the
///   cache holds every message above `p` (the chunk holding `p` reaches the chat's last
///   message), else the count less the cached messages of others the move passed, but never
///   below the cached ones still above `p`; 0 once `p` reaches the last message;
/// - a login reply's count is taken as is, less what this device read and the server has not
///   acknowledged yet; a count of 0 tells the position is the chat's last message. It counts
///   from the server's position, which may be past this device's (our own message the server
///   stored but whose reply was lost): a message of ours stored before that reply moves the
///   position to it and leaves the count as it is (``passCounted(_:chatID:to:)``).
/// It is never negative, and a position never moves backwards.
enum ReadPositions {
    /// The device's read position of a chat and what the server has acknowledged of it.
    struct Position: Hashable {
        var readUpTo: Int64
        var acknowledgedUpTo: Int64
    }

    static func position(_ db: Database, chatID: Int64) throws -> Position? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT readUpTo, readAcknowledgedUpTo FROM chat WHERE id = ?"), arguments: [chatID]).map {
            Position(readUpTo: $0[0], acknowledgedUpTo: $0[1])
        }
    }

    static func userID(_ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT userID FROM syncState WHERE id = 1"))
    }

    /// What a message stored live (a push, or the reply to our send) does to its chat's read
    /// state.
    enum LiveEffect: Hashable {
        /// The chat's unread count grows by this (0 or 1).
        case unread(Int)
        /// The user sent it: the server treats the sender as having read it, so the position
        /// moves to it, acknowledged (``move(_:chatID:to:acknowledged:)``).
        case readBySender
    }

    /// The effect of storing `message` live; `wasKnown` if the cache had it before, `readUpTo`
    /// the chat's position (nil: the chat is not cached), `userID` the logged-in user.
    static func effect(of message: Message, wasKnown: Bool, readUpTo: Int64?, userID: Int64?) -> LiveEffect {
        guard !wasKnown, let readUpTo else { return .unread(0) }
        if message.senderID == userID { return .readBySender }
        return .unread(message.id > readUpTo ? 1 : 0)
    }

    /// Moves the chat's read position forward to `upTo` (never back) and recounts the unread
    /// messages; `acknowledged` when the server already holds it (a receipt of ours, our own
    /// message, or the reply to a markRead).
    ///
    /// - Returns: whether the device's read position moved.
    @discardableResult
    static func move(_ db: Database, chatID: Int64, to upTo: Int64, acknowledged: Bool) throws -> Bool {
        guard let position = try position(db, chatID: chatID) else { return false }
        if acknowledged, upTo > position.acknowledgedUpTo {
            try db.cachedStatement(sql: "UPDATE chat SET readAcknowledgedUpTo = ? WHERE id = ?").execute(arguments: [upTo, chatID])
        }
        guard upTo > position.readUpTo else { return false }
        let unread = try unread(db, chatID: chatID, readingFrom: position.readUpTo, to: upTo)
        try db.cachedStatement(sql: "UPDATE chat SET readUpTo = ?, unreadCount = ? WHERE id = ?").execute(arguments: [upTo, unread, chatID])
        return true
    }

    /// Our own message `upTo`, older than the chat's last, that the server stored before the
    /// login reply the chat's count comes from: its `sentAt` is at or before the chat's
    /// `updatedAt` from that reply (storing it stamped the chat with it; a reply built before
    /// it is stamped earlier, ServerClock). Storing it moved the server's position to it, so
    /// that count already leaves out every message up to it: the position moves there,
    /// acknowledged, and the count stays. ``move(_:chatID:to:acknowledged:)`` would take off
    /// again the others' messages between the old position and `upTo`, which the count never
    /// held (a send's reply lost with its link and answered after the next login).
    static func passCounted(_ db: Database, chatID: Int64, to upTo: Int64) throws {
        try db.cachedStatement(
            sql: "UPDATE chat SET readUpTo = max(readUpTo, ?), readAcknowledgedUpTo = max(readAcknowledgedUpTo, ?) WHERE id = ?"
        ).execute(arguments: [upTo, upTo, chatID])
    }

    /// A chat from a login reply was just stored with the server's unread count: take off what
    /// this device read that the server does not know yet; a count of 0 places the position at
    /// the last message (the server moves it there for the sender, or it was all read).
    static func loginApplied(_ db: Database, chatID: Int64) throws {
        guard let position = try position(db, chatID: chatID),
              let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT unreadCount, lastMessageID FROM chat WHERE id = ?"), arguments: [chatID])
        else { return }
        let count: Int = row[0]
        let last: Int64? = row[1]
        if count == 0, let last, last > position.readUpTo {
            try db.cachedStatement(sql: "UPDATE chat SET readUpTo = ?, readAcknowledgedUpTo = max(readAcknowledgedUpTo, ?) WHERE id = ?").execute(arguments: [last, last, chatID])
            return
        }
        guard position.readUpTo > position.acknowledgedUpTo else { return }
        let unread = try unread(db, chatID: chatID, readingFrom: position.acknowledgedUpTo, to: position.readUpTo)
        try db.cachedStatement(sql: "UPDATE chat SET unreadCount = ? WHERE id = ?").execute(arguments: [unread, chatID])
    }

    /// The unread count once the position moves from `from` to `upTo` (see the type's rules).
    private static func unread(_ db: Database, chatID: Int64, readingFrom from: Int64, to upTo: Int64) throws -> Int {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT unreadCount, lastMessageID FROM chat WHERE id = ?"), arguments: [chatID]) else { return 0 }
        let count: Int = row[0]
        guard let last: Int64 = row[1], upTo < last else { return 0 }
        let above = try othersMessages(db, chatID: chatID, above: upTo, upTo: last)
        if let chunk = try MessageStore.loadChunks(db, chatID: chatID).chunk(containing: upTo), chunk.newestID >= last {
            return min(count, above)
        }
        let passed = try othersMessages(db, chatID: chatID, above: from, upTo: upTo)
        return min(count, max(above, count - passed))
    }

    /// Another member's receipt: their position moves forward only.
    static func storeReceipt(_ db: Database, _ receipt: ReadReceiptPush) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO readReceipt (chatID, readerID, messageID, readAt) VALUES (?, ?, ?, ?)
                ON CONFLICT (chatID, readerID) DO UPDATE SET messageID = excluded.messageID, readAt = excluded.readAt
                WHERE excluded.messageID > readReceipt.messageID
                """).execute(arguments: [receipt.chatID, receipt.readerID, receipt.messageID, receipt.readAt])
    }

    /// Cached messages of others in `above+1 ... upTo`.
    private static func othersMessages(_ db: Database, chatID: Int64, above: Int64, upTo: Int64) throws -> Int {
        let userID = try userID(db) ?? 0
        return try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM message WHERE chatID = ? AND id > ? AND id <= ? AND senderID != ?"),
            arguments: [chatID, above, upTo, userID]) ?? 0
    }
}
