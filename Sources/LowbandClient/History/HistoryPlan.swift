public import LowbandWire

/// Where a page of history comes from: the cache, the server, or both, decided from the chunks.
///
/// The cache answers only from inside one chunk, so what it shows is always continuous; when
/// the chunk runs out before the page is full (and does not reach the chat's start) the rest
/// is asked of the server, anchored at the oldest message the cache showed.
public struct HistoryPlan: Hashable, Sendable {
    /// Read up to `count` of the newest cached messages in this id range (nil: none).
    public var cacheRange: ClosedRange<Int64>?
    /// Ask the server for this page (nil: the cache is enough).
    public var serverRequest: HistoryRequest?
    /// True when the cache alone proves there is nothing older than this page.
    public var reachesStart: Bool

    package init(cacheRange: ClosedRange<Int64>?, serverRequest: HistoryRequest?, reachesStart: Bool) {
        self.cacheRange = cacheRange
        self.serverRequest = serverRequest
        self.reachesStart = reachesStart
    }

    /// Where the planned page comes from.
    ///
    /// `cache`: the chunks hold it all; `server`: nothing usable is cached; `cacheAndServer`: the
    /// cached part is shown at once and the rest is asked of the server.
    public enum Source: String, Hashable, Sendable { case cache, server, cacheAndServer }

    /// Which of `cacheRange` and `serverRequest` the plan uses.
    public var source: Source {
        switch (cacheRange, serverRequest) {
        case (_?, nil): .cache
        case (nil, _): .server
        case (_?, _?): .cacheAndServer
        }
    }

    /// Plans the page of `count` messages older than `anchor` (nil: the newest page).
    ///
    /// - Parameters:
    ///   - chatID: the chat the page is of.
    ///   - anchor: the page ends just before this message; nil for the newest page.
    ///   - count: how many messages the page holds.
    ///   - newestKnownID: the chat's newest message as the cache knows it (for the newest page).
    ///   - chunks: the chat's chunks.
    ///   - cachedCount: how many cached messages lie in a range; the store counts them.
    public static func older(
        chatID: Int64,
        anchor: Int64?,
        count: Int,
        newestKnownID: Int64?,
        chunks: HistoryChunks,
        cachedCount: (ClosedRange<Int64>) -> Int
    ) -> HistoryPlan {
        // The page starts just below the anchor, or at the newest known message inclusive.
        let top: Int64?
        if let anchor {
            top = anchor > .min ? anchor - 1 : nil
        } else {
            top = newestKnownID
        }
        guard let top, let chunk = chunks.chunk(containing: top) ?? anchor.flatMap({ chunks.chunk(containing: $0) }),
            chunk.oldestID <= top
        else {
            return HistoryPlan(
                cacheRange: nil,
                serverRequest: HistoryRequest(chatID: chatID, anchor: anchor, direction: .older, count: count),
                reachesStart: false
            )
        }
        let range = chunk.oldestID ... top
        let available = cachedCount(range)
        if available >= count || chunk.reachesStart {
            return HistoryPlan(cacheRange: available > 0 ? range : nil, serverRequest: nil, reachesStart: available <= count && chunk.reachesStart)
        }
        // The cached part is shown at once; the server continues below the chunk's oldest
        // message, which is where the chunk's knowledge ends.
        let request = HistoryRequest(
            chatID: chatID,
            anchor: available > 0 ? chunk.oldestID : (anchor ?? chunk.oldestID),
            direction: .older,
            count: count - available
        )
        return HistoryPlan(cacheRange: available > 0 ? range : nil, serverRequest: request, reachesStart: false)
    }
}
