package import GRDB
public import LowbandWire

/// Read positions in the cache: the user's own per chat (with what the server has
/// acknowledged), the other members' from their receipts, and the unread counts they decide.
///
/// The user's position is stored before anything goes on the wire, so a read survives a lost
/// link or a killed app: what is read but not acknowledged is sent again at the next login.
public final class ReadStore {
    private let writer: any DatabaseWriter

    package init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// One chat's read state on this device.
    public struct ChatReadState: Hashable, Sendable {
        /// The chat.
        public var chatID: Int64
        /// The newest message the user has read here (0: none known).
        public var readUpTo: Int64
        /// How much of `readUpTo` the server has confirmed; below it means a markRead is owed.
        public var acknowledgedUpTo: Int64
        /// Messages from others newer than `readUpTo`, as the cache counts them.
        public var unreadCount: Int
        /// The other members' positions, by reader id.
        public var receipts: [Receipt]
    }

    /// Another member's read position, from their latest receipt.
    public struct Receipt: Hashable, Sendable {
        /// The member who read.
        public var readerID: Int64
        /// The newest message they have read.
        public var messageID: Int64
        /// Server time of the read.
        public var readAt: ServerTime
    }

    /// A position still to be sent to the server.
    public struct Owed: Hashable, Sendable {
        /// The chat.
        public var chatID: Int64
        /// The read position to send: the newest message read.
        public var upTo: Int64

        package init(chatID: Int64, upTo: Int64) {
            self.chatID = chatID
            self.upTo = upTo
        }
    }

    /// Moves the user's read position of `chatID` forward to `upTo` and recounts its unread
    /// messages; a position at or below the current one changes nothing.
    ///
    /// - Returns: whether the position moved.
    /// - Throws: ``ClientError`` `.unknownMessage` when the cache holds no such chat or no
    ///   message `upTo` in it (the server would refuse it); `.database` when the cache fails.
    @discardableResult
    public func markRead(chatID: Int64, upTo: Int64) throws(ClientError) -> Bool {
        do {
            return try writer.writeCached { db in
                let known = try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM chat WHERE id = ?) AND EXISTS (SELECT 1 FROM message WHERE chatID = ? AND id = ?)"),
                    arguments: [chatID, chatID, upTo]) ?? false
                guard known else {
                    throw ClientError(.unknownMessage, "cannot mark chat \(chatID) read up to message \(upTo): the cache holds no such message in that chat")
                }
                return try ReadPositions.move(db, chatID: chatID, to: upTo, acknowledged: false)
            }
        } catch let error as ClientError {
            throw error
        } catch {
            throw ClientError(.database, "cannot store the read position of chat \(chatID): \(error)")
        }
    }

    /// A read receipt pushed by the server: the user's own (read on another device) moves the
    /// position here, anyone else's is stored as theirs. Receipts never move a position back.
    public func apply(receipt: ReadReceiptPush) throws {
        try writer.writeCached { db in
            if receipt.readerID == (try ReadPositions.userID(db)) {
                try ReadPositions.move(db, chatID: receipt.chatID, to: receipt.messageID, acknowledged: true)
            } else {
                try ReadPositions.storeReceipt(db, receipt)
            }
        }
    }

    /// The server holds the user's position of `chatID` up to `upTo` (the reply to a markRead).
    public func acknowledge(chatID: Int64, upTo: Int64) throws {
        try writer.writeCached { db in
            _ = try ReadPositions.move(db, chatID: chatID, to: upTo, acknowledged: true)
        }
    }

    /// Positions read here that the server has not acknowledged, by chat id.
    public func owed() throws -> [Owed] {
        try writer.readCached { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT id, readUpTo FROM chat WHERE readUpTo > readAcknowledgedUpTo ORDER BY id")).map {
                Owed(chatID: $0[0], upTo: $0[1])
            }
        }
    }

    /// The read state of `chatID`; nil when the chat is not cached.
    public func state(chatID: Int64) throws -> ChatReadState? {
        try writer.readCached { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT readUpTo, readAcknowledgedUpTo, unreadCount FROM chat WHERE id = ?"), arguments: [chatID]) else {
                return nil
            }
            let receipts = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT readerID, messageID, readAt FROM readReceipt WHERE chatID = ? ORDER BY readerID"), arguments: [chatID]
            ).map { Receipt(readerID: $0[0], messageID: $0[1], readAt: $0[2]) }
            return ChatReadState(chatID: chatID, readUpTo: row[0], acknowledgedUpTo: row[1], unreadCount: row[2], receipts: receipts)
        }
    }
}
