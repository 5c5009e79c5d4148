/// A continuous range of one chat's history that the cache holds completely.
///
/// Every message of the chat whose id lies in `oldestID...newestID` is in the cache; nothing is
/// known about ids outside the range. Message ids increase within a chat but are not dense, so
/// a chunk is a range of ids, not a count of messages: two chunks are continuous only when the
/// server said so (one page, or two pages that share an anchor). A chunk whose `oldestID` is
/// `Int64.min` reaches the start of the chat: nothing older exists.
public struct HistoryChunk: Hashable, Sendable, CustomStringConvertible {
    /// The chat the chunk belongs to.
    public var chatID: Int64
    /// The oldest message id in the range; `Int64.min` when the chunk reaches the chat's start.
    public var oldestID: Int64
    /// The newest message id in the range, inclusive.
    public var newestID: Int64

    package init(chatID: Int64, oldestID: Int64, newestID: Int64) {
        precondition(oldestID <= newestID, "a chunk's range is never empty")
        self.chatID = chatID
        self.oldestID = oldestID
        self.newestID = newestID
    }

    /// No message of the chat is older than this chunk.
    public var reachesStart: Bool { oldestID == .min }

    /// Whether `messageID` lies in `oldestID...newestID` (the message is cached if it exists).
    public func contains(_ messageID: Int64) -> Bool {
        oldestID <= messageID && messageID <= newestID
    }

    /// The ranges overlap or are next to each other (no id fits between them).
    func touches(_ other: HistoryChunk) -> Bool {
        // Written without `+ 1` so Int64.max bounds never overflow.
        oldestID <= other.newestID && other.oldestID <= newestID
            || newestID < other.oldestID && other.oldestID - newestID == 1
            || other.newestID < oldestID && oldestID - other.newestID == 1
    }

    public var description: String {
        "chat \(chatID) [\(reachesStart ? "start" : String(oldestID))...\(newestID)]"
    }
}
