public import LowbandWire

/// One delivery of a page: the cached part at once, the server's part when it answers.
public struct HistoryPage: Hashable, Sendable {
    /// Where a delivery's messages came from.
    ///
    /// `cache`: read from the local cache at once; `server`: fetched from the server.
    public enum Source: String, Hashable, Sendable { case cache, server }

    /// The chat the page is of.
    public var chatID: Int64
    /// Oldest first.
    public var messages: [Message]
    /// Whether this delivery is the cached part or the server's.
    public var source: Source
    /// No message is older than this page (pages of older messages).
    public var reachesStart: Bool
    /// No message is newer than this page, as far as the last login and the live messages
    /// since tell (pages of newer messages).
    public var reachesEnd: Bool
    /// The last delivery for this request.
    public var isFinal: Bool
    /// Why the server part is missing (offline, timed out, refused); the cached part stands.
    public var error: ClientError?

    /// A delivery; `reachesEnd` defaults to false (not known to be the newest) and `error` to none.
    public init(chatID: Int64, messages: [Message], source: Source, reachesStart: Bool, reachesEnd: Bool = false, isFinal: Bool, error: ClientError? = nil) {
        self.chatID = chatID
        self.messages = messages
        self.source = source
        self.reachesStart = reachesStart
        self.reachesEnd = reachesEnd
        self.isFinal = isFinal
        self.error = error
    }
}

/// Where the chat screen gets pages of history.
public protocol HistoryLoading: AnyObject {
    /// Delivers the page of `count` messages older than `anchor` (nil: the newest page), in
    /// one or two parts on the scheduler; the last has `isFinal`.
    func loadPage(chatID: Int64, olderThan anchor: Int64?, count: Int, deliver: @escaping (HistoryPage) -> Void)

    /// Delivers up to `count` messages newer than `anchor`, oldest first, in one or two parts
    /// on the scheduler; the last has `isFinal`, and `reachesEnd` when nothing newer is known.
    func loadPage(chatID: Int64, newerThan anchor: Int64, count: Int, deliver: @escaping (HistoryPage) -> Void)
}

extension HistoryLoading {
    /// A source that cannot page forward: one empty, final page that reaches the end.
    public func loadPage(chatID: Int64, newerThan anchor: Int64, count: Int, deliver: @escaping (HistoryPage) -> Void) {
        deliver(HistoryPage(chatID: chatID, messages: [], source: .cache, reachesStart: false, reachesEnd: true, isFinal: true))
    }
}
